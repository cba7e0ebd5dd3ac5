"""Where the Doom files are: the WADs and scenarios that ship inside ViZDoom.

Only the package's folder is looked up (no import of the engine), so reading maps
costs nothing at start-up and works wherever the `doom` extra is installed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from world.errors import WorldError

EXTRA_HINT = "the Doom world needs ViZDoom: pip install 'mission-harness[doom]'"


class DoomUnavailableError(WorldError):
    """ViZDoom (the `doom` extra) is not installed."""


def vizdoom_dir() -> Path:
    """The installed ViZDoom package's folder."""
    spec = importlib.util.find_spec("vizdoom")
    if spec is None or not spec.submodule_search_locations:
        raise DoomUnavailableError(EXTRA_HINT)
    return Path(next(iter(spec.submodule_search_locations)))


def iwad(name: str) -> Path:
    """A game WAD shipped with ViZDoom: "freedoom1" or "freedoom2"."""
    return _existing(vizdoom_dir() / f"{name}.wad", "WAD")


def scenario(name: str, suffix: str = ".wad") -> Path:
    """A ViZDoom scenario's file: its map (".wad") or its settings (".cfg")."""
    return _existing(vizdoom_dir() / "scenarios" / f"{name}{suffix}", "scenario")


def scenario_names() -> list[str]:
    """The scenarios ViZDoom ships that have both a map and settings, sorted."""
    folder = vizdoom_dir() / "scenarios"
    return sorted(p.stem for p in folder.glob("*.wad") if p.with_suffix(".cfg").exists())


def _existing(path: Path, what: str) -> Path:
    if not path.exists():
        have = ", ".join(sorted(p.stem for p in path.parent.glob(f"*{path.suffix}")))
        raise DoomUnavailableError(f"no {what} {path.stem!r} in ViZDoom (there are: {have})")
    return path
