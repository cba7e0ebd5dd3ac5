"""`harness levels`: list the shipped levels, match levels, Doom missions and templates.

Every row is read from the level or mission file itself (its id, title, categories and
difficulties), so the list never disagrees with what `harness run` plays.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from world.face import (
    LEVELS_DIR,
    MATCH_LEVELS_DIR,
    TEMPLATES,
    LevelError,
    WorldError,
    doom_available,
    load_mission,
    mission_files,
    mission_ref,
    read_level_json,
)


@dataclass(frozen=True)
class LevelRow:
    """One playable level as the listing shows it.

    Attributes:
        id: What `harness run` takes (`outpost`, `doom:t01_e1m1_exit`).
        title: The level's title.
        categories: Its kinds of task, most important first.
        difficulties: Its difficulty ids, easiest first.
    """

    id: str
    title: str
    categories: tuple[str, ...]
    difficulties: tuple[str, ...]


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def shipped_rows(folder: Path = LEVELS_DIR) -> tuple[list[LevelRow], list[str]]:
    """A folder's levels (the shipped ones by default) in id order, and the unreadable.

    One line per file that could not be read names it and what is wrong.
    """
    rows, problems = [], []
    for path in sorted(folder.glob("*.json")):
        try:
            data = read_level_json(path)
        except LevelError as exc:
            problems.append(str(exc).splitlines()[0])
            continue
        if not isinstance(data, dict):
            problems.append(f"{path}: $: a level is a JSON object")
            continue
        difficulties = data.get("difficulties")
        rows.append(LevelRow(
            str(data.get("id", path.stem)), str(data.get("title", "")),
            _strings(data.get("categories")),
            tuple(str(d.get("id")) for d in difficulties if isinstance(d, dict))
            if isinstance(difficulties, list) else ()))
    return rows, problems


def doom_rows() -> tuple[list[LevelRow], list[str]]:
    """The shipped Doom missions in id order (readable without ViZDoom), and any problems."""
    rows, problems = [], []
    for path in mission_files():
        ref = mission_ref(path)
        if ref is None:
            continue
        try:
            mission = load_mission(ref)
        except (LevelError, WorldError) as exc:
            problems.append(str(exc).splitlines()[0])
            continue
        rows.append(LevelRow(mission.id, mission.title, mission.categories,
                             tuple(d.id for d in mission.difficulties)))
    return rows, problems


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("--json", action="store_true",
                        help="print {levels, matches, doom, templates} as JSON")


def _table(rows: list[LevelRow]) -> list[str]:
    width = max((len(r.id) for r in rows), default=0)
    return [f"  {r.id:<{width}}  {r.title} [{', '.join(r.categories) or 'no category'}] "
            f"({', '.join(r.difficulties)})" for r in rows]


def run(args: argparse.Namespace) -> int:
    """Print the listing; 0, or 1 when a shipped file could not be read (named on stderr)."""
    levels, level_problems = shipped_rows()
    matches, match_problems = shipped_rows(MATCH_LEVELS_DIR)
    level_problems += match_problems
    missions, mission_problems = doom_rows()
    if args.json:
        json.dump({"levels": [asdict(r) for r in levels],
                   "matches": [asdict(r) for r in matches],
                   "doom": [asdict(r) for r in missions],
                   "doom_installed": doom_available(),
                   "templates": [{"name": t.name, "kind": t.kind, "description": t.description}
                                 for t in TEMPLATES.values()]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"Shipped levels ({len(levels)}; harness run ID --agent CMD):")
        print("\n".join(_table(levels)))
        print(f"\nMatch levels ({len(matches)}; harness match ID --agent A --agent B):")
        print("\n".join(_table(matches)))
        engine = "installed" if doom_available() else (
            "not installed: pip install -e '.[doom]' in a clone, or 'mission-harness[doom]'")
        print(f"\nDoom missions ({len(missions)}; ViZDoom {engine}):")
        print("\n".join(_table(missions)))
        print(f"\nTemplates ({len(TEMPLATES)}; generated levels TEMPLATE@SEED, parameters in "
              "`harness templates`):")
        width = max((len(name) for name in TEMPLATES), default=0)
        for t in TEMPLATES.values():
            print(f"  {t.name:<{width}}  {t.kind}: {t.description}")
    for problem in level_problems + mission_problems:
        print(f"harness levels: {problem}", file=sys.stderr)
    return 1 if level_problems or mission_problems else 0
