"""Take the run-page screenshots in docs/screenshots/ from a real run in headless Chromium.

Plays one episode with `harness run`, opens its page and saves:
- `run-page.png`: the top of the page (score, objectives, map and the first turns);
- `run-page-turn.png`: the turn with the longest walk chosen on the timeline, its
  route highlighted on the map and its world lines unfolded.

Needs Chromium (the system package) and the playwright package (the test extra).

Usage:
    python3 tools/screenshots.py                 # facility, hard, seed 3, the reference agent
    python3 tools/screenshots.py --level outpost --difficulty normal --seed 1
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
VIEWPORT = {"width": 1400, "height": 1000}
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]


def play(level: str, difficulty: str, seed: int, agent: str, out: Path) -> Path:
    """One episode through the command line; its run directory."""
    done = subprocess.run(
        [sys.executable, "-m", "harness.cli", "run", level, "--difficulty", difficulty,
         "--seed", str(seed), "--agent", agent, "--out", str(out), "--json"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=1800)
    return Path(json.loads(done.stdout)["run_dir"])


def chosen_turn(page) -> str:
    """The turn with the longest drawn walk among those with world lines to unfold."""
    return page.evaluate("""() => {
        let best = null, most = -1;
        for (const card of document.querySelectorAll('article.turn')) {
            const n = card.dataset.turn;
            if (!card.querySelector('details.world')) { continue; }
            let points = 0;
            document.querySelectorAll('polyline.seg[data-turn="' + n + '"]').forEach(
                (line) => { points += line.points.numberOfItems; });
            if (points > most) { best = n; most = points; }
        }
        return best === null ? document.querySelector('article.turn').dataset.turn : best;
    }""")


def shoot(page_file: Path, out: Path) -> list[Path]:
    """Save the screenshots of one page; the files written."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "run-page.png", out / "run-page-turn.png"]
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=CHROMIUM_ARGS,
            viewport=VIEWPORT)
        try:
            page = context.new_page()
            page.goto(page_file.as_uri())
            page.wait_for_load_state("load")
            page.screenshot(path=str(written[0]))
            turn = chosen_turn(page)
            card = page.locator(f"#turn-{turn}")
            card.locator(".num").click()
            card.locator("details.world summary").click()
            card.scroll_into_view_if_needed()
            page.screenshot(path=str(written[1]))
        finally:
            context.close()
    return written


def main(argv: list[str] | None = None) -> int:
    """Play, shoot and print the files written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="facility")
    parser.add_argument("--difficulty", default="hard")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--agent", default="python3 agents/reference_agent.py")
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNG files")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as runs:
        run_dir = play(args.level, args.difficulty, args.seed, args.agent, Path(runs))
        for path in shoot(run_dir / "index.html", args.out):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
