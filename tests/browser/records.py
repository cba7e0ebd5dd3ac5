"""Runs and records for the run-page tests: a real hostile episode and a long synthetic one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from shapely.geometry import Polygon

from harness.core.record import record_text
from tests.shared import ROOT, TEST_AGENTS, TEST_SECRET

HOSTILE = TEST_AGENTS / "hostile_text_agent.py"


def hostile_run(out: Path, level: str = "outpost") -> Path:
    """Play one real episode with the hostile agent through `harness run`; its run dir.

    Under the tests' fixed secret, so every run plays the same episode: under a fresh one
    a short run sometimes never walks what the page tests look for (a route around a
    corner: 3 of 20 fresh secrets on a 20-decision outpost).
    """
    done = subprocess.run(
        [sys.executable, "-m", "harness.cli", "run", level, "--agent",
         f"{sys.executable} {HOSTILE}", "--secret", TEST_SECRET.hex(), "--out", str(out), "--json",
         "--decision-timeout", "20", "--episode-timeout", "120"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    return Path(json.loads(done.stdout)["run_dir"])


def read_lines(run_dir: Path) -> list[dict]:
    text = record_text(run_dir)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def write_lines(run_dir: Path, lines: list[dict]) -> Path:
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / "record.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def long_record(source: Path, dest: Path, turns: int = 300) -> Path:
    """A record of `turns` turns made from a real one: its turns repeated, the player
    moved from room to room (as its map lays them out) so the map gets one route per
    turn."""
    lines = read_lines(source)
    header = lines[0]
    played = [line for line in lines if line["kind"] == "turn"]
    end = next(line for line in lines if line["kind"] == "end")
    storeys = {s["id"]: s["y"] for s in header["map"]["storeys"]}
    spots = []
    for area in header["map"]["areas"]:
        p = Polygon(area["polygon"]).representative_point()
        spots.append([round(p.x), storeys[area["storey"]], round(p.y)])
    out = [header]
    tick = 0
    for number in range(turns):
        turn = json.loads(json.dumps(played[number % len(played)]))
        turn["turn"], turn["tick"] = number, tick
        turn["observation"]["turn"], turn["observation"]["tick"] = number, tick
        turn["observation"]["view"]["player"]["position"] = spots[number % len(spots)]
        result = turn.get("result") or {}
        if result:  # the walk goes from this room to the next one
            result["path"] = [spots[number % len(spots)], spots[(number + 1) % len(spots)]]
        for event in result.get("events") or ():
            event["tick"] = tick + 1
        tick += max(1, int(result.get("ticks") or 30))
        out.append(turn)
    end["summary"]["decisions"] = turns
    end["summary"]["game_ticks"] = tick
    out.append(end)
    return write_lines(dest, out)
