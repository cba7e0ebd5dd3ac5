"""Where the Doom files are: the WADs and scenarios that ship inside ViZDoom.

Only the package's folder is looked up (no import of the engine), so reading maps
costs nothing at start-up and works wherever the `doom` extra is installed.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path

from world.errors import WorldError

EXTRA_HINT = "the Doom world needs ViZDoom: pip install 'mission-harness[doom]'"
# The game data under a scenario's map. Named, not left to the engine, which would take
# a doom2.wad from the working folder before its own Freedoom.
SCENARIO_IWAD = "freedoom2"


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


def played_files(scenario_name: str | None, iwad_name: str | None) -> tuple[Path, ...]:
    """The files an episode plays from, in a fixed order.

    A scenario: its map, its settings and the IWAD under it; else the IWAD holding the map.
    """
    if scenario_name is not None:
        return (scenario(scenario_name), scenario(scenario_name, ".cfg"), iwad(SCENARIO_IWAD))
    return (iwad(str(iwad_name)),)


@functools.cache
def file_digest(path: Path) -> str:
    """sha256 of a file's bytes (read once per process: the WADs are 28 MB)."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _existing(path: Path, what: str) -> Path:
    if not path.exists():
        have = ", ".join(sorted(p.stem for p in path.parent.glob(f"*{path.suffix}")))
        raise DoomUnavailableError(f"no {what} {path.stem!r} in ViZDoom (there are: {have})")
    return path
