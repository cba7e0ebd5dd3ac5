"""Ids numbered by perception (34): an id shown never counts things not yet perceived.

The old numbering drew every level thing's number up front, so hidden_crypt's turn-0
view showed `o9` with two objects known. Now each group is numbered 1, 2, ... as things
are first shown, so in every view the largest number of a group is at most the count of
that group's ids handed out, and every id handed out names a thing the player knows or
a place a way out is signposted to.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from harness.pages.episode_ids import in_episode_ids
from tests.shared import SHIPPED_IDS, SHIPPED_LEVELS
from world.level.load import load_level
from world.observe.session import WorldSession

SHIPPED = SHIPPED_IDS
EPISODE_ID = re.compile(r"^[adwoc][0-9]+$")


def _ids(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        for v in value.values():
            _ids(v, out)
    elif isinstance(value, list):
        for v in value:
            _ids(v, out)
    elif isinstance(value, str) and EPISODE_ID.match(value):
        out.add(value)
    return out


def _gapless(ids: set[str]) -> bool:
    # Per letter, the numbers shown are 1..n with no number skipped past n.
    by: dict[str, list[int]] = {}
    for e in ids:
        by.setdefault(e[0], []).append(int(e[1:]))
    return all(max(v) <= len(v) for v in by.values())


def _session(name: str, seed: int = 0) -> WorldSession:
    level = load_level(SHIPPED_LEVELS / f"{name}.json")
    return WorldSession(level, level.difficulties[-1].id, seed)


@pytest.mark.parametrize("name", SHIPPED)
def test_turn_zero_ids_never_exceed_the_count_shown(name):
    session = _session(name)
    shown = _ids(session.view(), set())
    assert _gapless(shown), sorted(shown)
    # Nothing has a number the view did not show.
    assert set(session.ids_given()) == shown


def test_hidden_crypt_shows_no_number_past_its_known_objects():
    # The old numbering showed o9 here (the level has nine objects, three are known).
    shown = sorted(int(e[1:]) for e in _ids(_session("hidden_crypt").view(), set())
                   if e[0] == "o")
    assert shown == list(range(1, len(shown) + 1)) and len(shown) < 9


@pytest.mark.parametrize("name", ["hidden_crypt", "blue_door", "quarry_rescue"])
def test_ids_stay_numbered_by_perception_while_exploring(name):
    session = _session(name, seed=2)
    seen: set[str] = set()
    for _ in range(5):
        view = session.view()
        seen |= _ids(view, set())
        assert _gapless(seen), sorted(seen)
        ways = (view["area"] or {}).get("ways_out") or []
        if not ways or session.status().ended:
            break
        result = session.act("go_to_area", {"exit_id": ways[-1]["id"]})
        seen |= _ids({k: result[k] for k in ("detail", "changes", "door")}, set())
    # Every id handed out is one the agent has been shown; the table holds no more.
    seen |= _ids(session.view(), set())
    assert set(session.ids_given()) <= seen
    assert _gapless(set(session.ids_given()))


def test_the_same_episode_numbers_alike():
    a, b = _session("quarry_rescue", 5), _session("quarry_rescue", 5)
    assert a.view() == b.view() and a.ids_given() == b.ids_given()


def test_the_record_map_keeps_its_own_ids_and_a_page_renames_them():
    session = _session("hidden_crypt")
    plan = session.plan()
    session.view()
    # The map names every placed object in the level's order (o1, the sidearm, is
    # carried from the start), whatever was perceived.
    assert {o["id"] for o in plan["objects"]} == {f"o{n}" for n in range(2, 10)}
    given = session.ids_given()
    paged = in_episode_ids(plan, given)
    for ep, map_id in given.items():
        assert paged["ids"][ep] == plan["ids"][map_id] == session.ids.table()[ep]
    named = {o["id"] for o in paged["objects"]}
    assert len(named) == len(plan["objects"])  # no two things share an id
    assert in_episode_ids(plan, None) is plan


def test_a_character_a_wave_brings_is_named_by_its_episode_id():
    # Wave characters are not in the level's lists: sentences named them by their
    # level id ("first_2 is down."), which tells the level's wave names.
    from tests.test_characters_support import local

    session = WorldSession(local("characters_duel.json"), "easy", 0)
    session.world.teleport("player", 100, 100)  # out of the guards' sight
    while "late_1" not in session.world.characters and session.world.tick < 900:
        session.act("wait", {"seconds": 5.0})
    assert session.knows("character", "late_1")
    assert EPISODE_ID.match(session.named("late_1"))
