"""`harness play --web` in headless Chromium: a person plays outpost to its end by clicking
the page's action buttons and typing the rest (keyboard only: focus, type, Enter).

The record replays and `harness compare` lists the player as a human. Set
PLAY_SCREENSHOTS=DIR to keep the page's screenshot (docs/screenshots/play-web.png).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.record import read_record
from harness.episode.replay import replay
from tests.browser.test_page_browser import CHROMIUM_ARGS, _chromium, _missing
from tests.play_kit import PLAY_ARGS, WIN
from tests.shared import ROOT


def _url(proc: subprocess.Popen[str], timeout: float = 60.0) -> str:
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stderr is not None
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stderr], daemon=True).start()
    while True:
        line = lines.get(timeout=timeout)
        if "open http://" in line:
            return line.split("open ", 1)[1].split()[0]


@pytest.mark.slow  # Chromium and a played episode
def test_a_person_plays_outpost_in_chromium(tmp_path, capsys):
    executable = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -e '.[test]')")
    out = tmp_path / "mine"
    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", "play", *PLAY_ARGS, "--web",
                             "--name", "web-player", "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        url = _url(proc)
        assert url.startswith("http://127.0.0.1:")
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=executable, headless=True,
                args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 900})
            page = context.new_page()
            errors: list[str] = []
            requests: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: requests.append(r.url))
            page.goto(url)
            for turn, line in enumerate(WIN):
                # Selectors, not script: the page's policy forbids evaluating strings.
                page.locator("#status", has_text=f"| turn {turn} |").wait_for()
                button = page.locator(f'#quick button[data-line="{line}"]')
                if button.count():
                    button.click()
                else:  # a line no button offers (wait 0.6): typed, sent with Enter
                    page.focus("#line")
                    page.keyboard.type(line)
                    page.keyboard.press("Enter")
                if turn == 10:
                    page.locator("svg.map").first.wait_for()
                    if os.environ.get("PLAY_SCREENSHOTS"):
                        page.screenshot(path=str(Path(os.environ["PLAY_SCREENSHOTS"],
                                                      "play-web.png")), full_page=True)
            page.wait_for_selector("#close", state="visible")
            assert "completed" in page.inner_text("#view")
            assert page.locator("svg.map polygon.area").count() >= 3  # what was seen
            page.click("#close")
            assert proc.wait(timeout=30) == 0
            context.close()
        assert errors == []
        assert all(u.startswith(url.split("/?")[0]) for u in requests), requests
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    [run_dir] = [p.parent for p in out.rglob("record.jsonl.gz")]
    assert read_record(run_dir).end["summary"]["outcome"] == "completed"
    assert replay(run_dir).verified
    capsys.readouterr()
    assert main(["compare", str(out), "--json"]) == 0
    [agent] = json.loads(capsys.readouterr().out)["agents"]
    assert agent["agent"]["label"] == "web-player (human)"
    assert agent["overall"]["successes"] == 1
