"""What a Doom player knows: ids, secret doors, routes and targets out of sight.

Each test starts a real ViZDoom episode (skipped with the reason without the `doom`
extra) and holds one rule of PROTOCOL.md's "What the player knows" on a real map.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from harness.level_refs import resolve
from tests.test_doom_play import needs_engine
from world.doom.navgrid import doors_open, map_heights
from world.errors import UnknownIdError
from world.face import new_session

pytestmark = needs_engine


def _session(ref: str, difficulty: str = "normal", seed: int = 0):
    return new_session(resolve(ref).level, difficulty, seed)


def test_thing_ids_are_shuffled_per_episode() -> None:
    # The same engine things (the map's order) take other ids in another episode, so an
    # id says nothing of the map's numbering, nor how many things come before it.
    numbering = []
    for seed in (0, 1):
        game = _session("doom:t01_e1m1_exit", seed=seed)
        try:
            game.plan()  # the runner writes the record's map before the first turn
            seen = {s.thing.id: game.ids.thing(s.thing, s.group)
                    for s in game.known.things.values()}
            numbering.append(seen)
        finally:
            game.close()
    first, second = numbering
    assert first.keys() == second.keys() and len(first) >= 3
    assert first != second


def test_a_secret_door_is_a_wall_until_found() -> None:
    # E1M2 starts beside a secret door (a door sector whose faces are flagged secret):
    # neither the door nor a way through it is listed, and naming it is unknown_id.
    game = _session("doom:t06_e1m2_secrets")
    try:
        here = game.layout.area_at(*game.engine.snap.xy)
        secret = [d for d in game.doors if d.hidden and here in d.areas]
        assert secret, "E1M2's start room has a secret door"
        view = game.view()
        hidden = {game.ids.of("door", d.index) for d in secret}
        assert not hidden & {d["id"] for d in view["doors"]}
        assert not hidden & {w["door"] for w in view["area"]["ways_out"]}
        ep = sorted(hidden)[0]
        with pytest.raises(UnknownIdError) as caught:
            game.act("go_to_object", {"object_id": ep})
        assert ep not in caught.value.allowed
        # Seen open, it is a door like any other.
        door = secret[0]
        game.known.revealed.add(door.index)
        assert ep in {d["id"] for d in game.view()["doors"]}
    finally:
        game.close()


def _areas_along(game, points: list, start: tuple[float, float]) -> set[int]:
    # Every area a route's legs cross, sampled every 8 units.
    out, prev = set(), start
    for p in points:
        steps = max(1, int(math.dist(prev, p) / 8))
        for i in range(steps + 1):
            a = game.layout.area_at(prev[0] + (p[0] - prev[0]) * i / steps,
                                    prev[1] + (p[1] - prev[1]) * i / steps)
            out |= {a} - {None}
        prev = p
    return out


def test_a_walk_keeps_to_known_rooms() -> None:
    # At E1M1's start the player knows rooms he sees into or sees things in; the
    # shortest way to one of them runs through a room he has not seen. A go_to there
    # must not take it: it keeps to known rooms or ends no_known_route, moving nothing.
    game = _session("doom:t01_e1m1_exit")
    try:
        game.view()
        known = set(game.known.areas)
        start = game.engine.snap.xy
        rooms = game.layout.rooms
        everything = doors_open(rooms, map_heights(rooms))
        beyond = []
        for area in sorted(known - game.known.visited):
            full = game.layout.navgrid.plan(start, rooms.areas[area].anchor, everything)
            if full is not None and _areas_along(game, full, start) - known:
                beyond.append(area)
        assert beyond, "a known room whose shortest way crosses an unknown one"
        goal = rooms.areas[beyond[0]].anchor
        result = game.act("go_to", {"x": goal[0], "z": goal[1]})
        walked = _areas_along(game, [tuple(p[::2]) for p in result["path"]], start)
        assert walked <= known, (result["end_reason"], walked - known)
        if result["end_reason"] == "no_known_route":
            assert result["distance_moved"] == 0
            assert "explore further" in result["detail"]
    finally:
        game.close()


def test_attack_seeks_a_monster_out_of_view_where_it_was_last_seen() -> None:
    # The player remembers a monster (out of view now) at a spot 300 units behind him,
    # away from where the engine has it: the attack walks to that spot, never straight
    # to the monster's true place.
    game = _session("doom:t04_defend_the_center")
    try:
        view = game.view()
        ep = view["characters"][0]["id"]
        sighting = game.known.things[game.ids.lookup(ep)[1]]
        here = game.engine.snap.xy
        away = math.atan2(here[1] - sighting.thing.y, here[0] - sighting.thing.x)
        spot = (here[0] + 300 * math.cos(away), here[1] + 300 * math.sin(away))
        sighting.thing = replace(sighting.thing, x=spot[0], y=spot[1])
        sighting.now = False
        result = game.act("attack", {"character_id": ep, "time_limit_s": 4})
        nearest = min(math.dist(tuple(p[::2]), spot) for p in result["path"])
        assert nearest < 100, (result["end_reason"], nearest)
    finally:
        game.close()
