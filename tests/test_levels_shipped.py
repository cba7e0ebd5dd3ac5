"""The shipped levels: each loads, passes the checker, offers easy/normal/hard that
differ, and docs/levels.md matches what tools/levels_doc.py generates from them."""

from __future__ import annotations

import importlib
import sys
from functools import cache
from pathlib import Path

import pytest

from tests.shared import ROOT, SHIPPED_IDS, shipped_path
from world.generate.layout import DIFFICULTY_ORDER
from world.level.load import load_level
from world.level.model import Level
from world.levelcheck.checker import check_level

LEVEL_FILES = [shipped_path(level_id) for level_id in SHIPPED_IDS]
# The one difficulty order (generated levels offer it; readers sort by it).
DIFFICULTIES = list(DIFFICULTY_ORDER)


def test_the_difficulty_order_is_declared_once():
    assert DIFFICULTY_ORDER == ("easy", "normal", "hard")


def _tool(name: str):
    # The tools are scripts, not a package; make_facility imports its tables by plain name.
    tools = str(ROOT / "tools")
    if tools not in sys.path:
        sys.path.insert(0, tools)
    return importlib.import_module(name)


@cache
def _level(path: Path) -> Level:
    return load_level(path)


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


@pytest.mark.parametrize("path", LEVEL_FILES, ids=_ids(LEVEL_FILES))
def test_level_passes_the_checker(path: Path) -> None:
    report = check_level(path)
    assert report.ok, "\n".join(str(p) for p in report.problems)


@pytest.mark.parametrize("path", LEVEL_FILES, ids=_ids(LEVEL_FILES))
def test_level_has_words_for_the_agent_and_for_readers(path: Path) -> None:
    level = _level(path)
    assert level.title.strip() and level.brief.strip() and level.design_note.strip()
    # Comparisons group results by category, so every shipped level names at least one.
    assert level.categories, f"{level.id} names no category"


@pytest.mark.parametrize("path", LEVEL_FILES, ids=_ids(LEVEL_FILES))
def test_each_harder_difficulty_counts_more(path: Path) -> None:
    level = _level(path)
    assert [d.id for d in level.difficulties] == DIFFICULTIES
    rank = level.difficulty_rank

    def counted(r: int) -> tuple[int, int]:
        return (
            sum(1 for o in level.objectives if rank(o.min_difficulty) <= r),
            sum(1 for c in level.characters if rank(c.min_difficulty) <= r),
        )

    for r in range(1, len(DIFFICULTIES)):
        assert counted(r) != counted(r - 1), f"{DIFFICULTIES[r]} adds nothing to the easier one"


@pytest.mark.parametrize("path", LEVEL_FILES, ids=_ids(LEVEL_FILES))
def test_objectives_only_name_what_exists_where_they_count(path: Path) -> None:
    level = _level(path)
    rank = level.difficulty_rank
    for objective in level.objectives:
        least = rank(objective.min_difficulty)
        for cid in objective.characters:
            present = rank(level.character(cid).min_difficulty)
            assert present <= least, f"{objective.id} names {cid}, absent at its difficulty"
        for before in objective.after:
            counts = rank(level.objective(before).min_difficulty)
            assert counts <= least, f"{objective.id} follows {before}, not counted then"
    for countdown in level.countdowns:
        if countdown.starts_after is not None:
            trigger = level.objective(countdown.starts_after)
            assert rank(trigger.min_difficulty) == 0, f"{countdown.id} never starts on easy"


def test_one_level_is_large_enough_to_benchmark() -> None:
    def large(level: Level) -> bool:
        doors = sum(1 for e in level.exits if e.kind == "door")
        return (
            len(level.storeys) >= 3
            and len(level.areas) >= 60
            and len(level.characters) >= 40
            and doors >= 20
        )

    assert any(large(_level(path)) for path in LEVEL_FILES)


def test_facility_matches_its_generator() -> None:
    make_facility = _tool("make_facility")
    written = shipped_path("facility").read_text(encoding="utf-8")
    assert written == make_facility.dump(make_facility.level())


def test_levels_page_is_up_to_date() -> None:
    levels_doc = _tool("levels_doc")
    existing = levels_doc.DOC.read_text(encoding="utf-8")
    page = levels_doc.render([_level(path) for path in LEVEL_FILES], existing)
    assert page == existing, "docs/levels.md is stale: run python3 tools/levels_doc.py"


def test_levels_page_spells_plurals() -> None:
    # "2 friendly allys" was printed for two allies.
    plural = _tool("levels_doc")._plural
    assert plural(2, "friendly ally") == "2 friendly allies"
    assert plural(2, "hostile guard") == "2 hostile guards"
    assert plural(3, "hostile boy") == "3 hostile boys"
    assert plural(1, "friendly ally") == "1 friendly ally"


def test_levels_page_keeps_the_sweep_results() -> None:
    levels_doc = _tool("levels_doc")
    old = f"x\n{levels_doc.SWEEP_BEGIN}\n| a | b |\n{levels_doc.SWEEP_END}\ny\n"
    page = levels_doc.render([_level(LEVEL_FILES[0])], old)
    assert f"{levels_doc.SWEEP_BEGIN}\n| a | b |\n{levels_doc.SWEEP_END}" in page
    fresh = levels_doc.render([_level(LEVEL_FILES[0])], None)
    assert levels_doc.SWEEP_PLACEHOLDER in fresh


def test_levels_page_keeps_the_hand_written_doom_notes() -> None:
    # The Doom benchmark's --doc rewrites its results block; what the figures mean is
    # written in the notes block after it, which regenerating the page keeps.
    levels_doc = _tool("levels_doc")
    notes = (f"{levels_doc.DOOM_NOTES_BEGIN}\nT16 was cleared on 3 seeds.\n"
             f"{levels_doc.DOOM_NOTES_END}")
    page = levels_doc.render([_level(LEVEL_FILES[0])], f"x\n{notes}\ny\n")
    assert notes in page
    assert page.index(levels_doc.DOOM_END) < page.index(notes)


def test_levels_page_keeps_the_hand_written_real_model_rows() -> None:
    levels_doc = _tool("levels_doc")
    rows = (f"{levels_doc.REAL_MODELS_BEGIN}\n| model | outpost |\n"
            f"{levels_doc.REAL_MODELS_END}")
    page = levels_doc.render([_level(LEVEL_FILES[0])], f"x\n{rows}\ny\n")
    assert rows in page
    assert page.index(levels_doc.SWEEP_END) < page.index(rows)
    fresh = levels_doc.render([_level(LEVEL_FILES[0])], None)
    assert f"{levels_doc.REAL_MODELS_BEGIN}\n_No runs yet._" in fresh


def _chamber_steps(level: Level, origin: str) -> dict[str, int]:
    """Fewest walkable exits from `origin` to each area (breadth first)."""
    steps = {origin: 0}
    frontier = [origin]
    while frontier:
        following = []
        for area in frontier:
            for way in level.exits:
                if way.walkable and area in way.areas:
                    other = way.areas[1] if way.areas[0] == area else way.areas[0]
                    if other not in steps:
                        steps[other] = steps[area] + 1
                        following.append(other)
        frontier = following
    return steps


def test_burrow_maze_starts_have_the_larder_on_their_way_home() -> None:
    # (37) From a start beside the way home a wanderer stumbled home with the key; from
    # every start the larder must lie on a shortest way to the chamber before the door.
    level = _level(shipped_path("burrow_maze"))
    (home_door,) = [way for way in level.exits if "home" in way.areas]
    porch = home_door.areas[0] if home_door.areas[1] == "home" else home_door.areas[1]
    larder = next(o.area for o in level.objects if o.id == "silver_key")
    assert larder is not None
    from_porch = _chamber_steps(level, porch)
    for place in level.start.places:
        from_start = _chamber_steps(level, place.area)
        assert from_start[porch] == from_start[larder] + from_porch[larder], place.area
