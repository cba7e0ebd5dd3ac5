"""What the Doom test modules share: the engine's presence, the reference agent's command,
a mission played and replayed, and the maps ViZDoom ships, read once per run.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path

import pytest

from harness.episode import runner
from harness.episode.replay import replay
from tests.shared import ROOT
from world.doom.files import DoomUnavailableError, iwad, scenario
from world.doom.maps import load_rooms
from world.doom.rooms import DoomRooms
from world.doom.wad import MapData, load_map
from world.face import new_session

HAVE_VIZDOOM = importlib.util.find_spec("vizdoom") is not None
needs_engine = pytest.mark.skipif(not HAVE_VIZDOOM, reason="ViZDoom (the `doom` extra) is "
                                  "not installed: pip install 'mission-harness[doom]'")
AGENT = f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}"


def require_wads(why: str) -> None:
    """Skip the calling test module, with the reason, when ViZDoom's WADs are missing."""
    try:
        iwad("freedoom1")
    except DoomUnavailableError as exc:
        pytest.skip(f"{why}: {exc}", allow_module_level=True)


def played_and_replayed(tmp_path, ref: str, seed: int):
    """The reference agent's run of a mission, replayed: (summary, last snapshot, session)."""
    summary = runner.run(ref, AGENT, seed=seed, out_dir=tmp_path)
    captured = []

    def factory(level, difficulty, episode_seed):
        captured.append(new_session(level, difficulty, episode_seed))
        return captured[-1]

    report = replay(summary["record"], game_factory=factory)
    assert report.verified, report.divergence
    return summary, captured[-1].engine.snap, captured[-1]


def wad_path(name: str) -> Path:
    """An IWAD (freedoom1, freedoom2) or a scenario's WAD by name."""
    return iwad(name) if name.startswith("freedoom") else scenario(name)


@cache
def doom_map(name: str, map_name: str) -> MapData:
    return load_map(wad_path(name), map_name)


def doom_rooms(name: str, map_name: str) -> DoomRooms:
    return load_rooms(wad_path(name), map_name)
