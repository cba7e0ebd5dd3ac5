"""`harness play` in a real terminal: tmux types the keys and reads the screen.

One session plays outpost to its end (the short win of tests/play_kit.py), asks for a
second episode, resizes the window, and leaves that one with Ctrl-C: both records are
finished, both replay, and `harness compare` lists the player as a human. Set
PLAY_SCREENSHOTS=DIR to keep the screen text (docs/screenshots/play-terminal.txt).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.record import read_record
from harness.episode.replay import replay
from tests.play_kit import PLAY_ARGS, WIN
from tests.shared import ROOT

COLOUR = re.compile(r"\x1b\[[0-9;]*(?:3[0-7]|9[0-7]|38;[25])[;m]")


class Tmux:
    """A tmux server of the test's own (its own socket), with one window."""

    def __init__(self, command: str, env: dict[str, str]) -> None:
        self.socket = f"play-test-{uuid.uuid4().hex[:8]}"
        subprocess.run(["tmux", "-L", self.socket, "new-session", "-d", "-s", "play",
                        "-x", "150", "-y", "48", command], check=True, env=env, cwd=ROOT)

    def screen(self, escapes: bool = False) -> str:
        return subprocess.run(["tmux", "-L", self.socket, "capture-pane", "-t", "play", "-p",
                               *(["-e"] if escapes else [])],
                              capture_output=True, text=True).stdout

    def until(self, text: str, timeout: float = 30.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never showed; the screen:\n{self.screen()}")

    def keys(self, *keys: str, literal: bool = False) -> None:
        subprocess.run(["tmux", "-L", self.socket, "send-keys", "-t", "play",
                        *(["-l"] if literal else []), *keys], check=True)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.mark.slow  # a terminal, two episodes and their replays: about ten seconds
def test_a_person_plays_outpost_in_tmux(tmp_path, capsys):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (Debian: apt-get install tmux)")
    out = tmp_path / "mine"
    command = " ".join([sys.executable, "-m", "harness.cli", "play", *PLAY_ARGS, "--name",
                        "tmux-player", "--episodes", "2", "--out", str(out)])
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm-256color"}
    tmux = Tmux(f"{command}; echo EXIT=$?; sleep 60", env)
    try:
        for turn, line in enumerate(WIN):
            shown = tmux.until(f"| turn {turn} |")
            if turn == 6:
                screen = shown  # the gallery, half-way: the picture for the docs
            tmux.keys(line, literal=True)
            tmux.keys("Enter")
        tmux.until("Episode over: The episode has ended: completed")
        assert not COLOUR.search(tmux.screen(escapes=True)), "NO_COLOR is set: no colours"
        tmux.keys("Enter")  # the next episode
        tmux.until("| turn 0 |")
        subprocess.run(["tmux", "-L", tmux.socket, "resize-window", "-t", "play", "-x", "100",
                        "-y", "40"], check=True)
        end = time.monotonic() + 10  # redrawn at the new size (polled twice a second)
        while time.monotonic() < end and not tmux.screen().splitlines()[1].endswith("─┐"):
            time.sleep(0.1)
        assert tmux.screen().splitlines()[1].endswith("─┐"), tmux.screen()
        assert max(len(line) for line in tmux.screen().splitlines()) <= 100
        tmux.keys("C-c")  # the player leaves: the episode ends and counts
        assert "agent_crash" in tmux.until("Episode over")
        tmux.keys("Enter")
        tmux.until("EXIT=0")
    finally:
        tmux.close()
    if os.environ.get("PLAY_SCREENSHOTS"):
        Path(os.environ["PLAY_SCREENSHOTS"], "play-terminal.txt").write_text(screen)

    runs = sorted((p.parent for p in out.rglob("record.jsonl.gz")),
                  key=lambda r: len(read_record(r).turns), reverse=True)
    assert [read_record(r).end["summary"]["outcome"] for r in runs] == \
        ["completed", "agent_crashed"]
    assert all(replay(r).verified for r in runs)
    capsys.readouterr()
    assert main(["compare", str(out), "--json"]) == 0
    [agent] = json.loads(capsys.readouterr().out)["agents"]
    assert agent["agent"]["label"] == "tmux-player (human)"
    assert (agent["overall"]["episodes"], agent["overall"]["successes"]) == (2, 1)
