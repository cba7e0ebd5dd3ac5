"""What a Doom player knows: ids, secret doors, routes and targets out of sight.

Each test starts a real ViZDoom episode (skipped with the reason without the `doom`
extra) and holds one rule of PROTOCOL.md's "What the player knows" on a real map.
"""

from __future__ import annotations

import copy
import math
from dataclasses import replace

import pytest

from harness.core.level_refs import resolve
from harness.episode.text_view import render_text_view
from tests.doom_support import needs_engine
from tests.knowledge_kit import observation_of
from world.doom import lifts
from world.doom.known import Sighting, describe
from world.doom.lifts import switches_by_lift
from world.doom.navgrid import doors_open, map_heights
from world.errors import UnknownIdError
from world.face import new_session

pytestmark = needs_engine


def _session(ref: str, difficulty: str = "normal", seed: int = 0):
    return new_session(resolve(ref).level, difficulty, seed)


def _numbers_shown(view: dict) -> dict[str, list[int]]:
    rows = [*view["objects"], *view["characters"], *view["doors"],
            *(view["area"] or {}).get("ways_out", [])]
    ids = {r["id"] for r in rows} | {a for r in view["doors"] for a in r["between"]}
    ids |= {w["to"] for w in (view["area"] or {}).get("ways_out", [])}
    if view["area"]:
        ids.add(view["area"]["id"])
    out: dict[str, list[int]] = {}
    for ep in ids:
        out.setdefault(ep[0], []).append(int(ep[1:]))
    return out


def test_ids_follow_perception_and_never_count_the_unseen() -> None:
    # The map's order and size stay hidden: each group is numbered 1, 2, ... as its
    # things are first shown, so the largest id shown is at most the count shown (34).
    game = _session("doom:t01_e1m1_exit")
    try:
        game.plan()  # the runner writes the record's map before the first turn
        shown = _numbers_shown(game.view())
        assert shown and all(max(v) == len(v) for v in shown.values()), shown
        # The map keeps its own numbering of everything; the end line maps ours to it.
        given = game.ids_given()
        assert given and set(given) <= set(game.ids.handed_out(("area", "door", "way",
                                                                "object", "character")))
    finally:
        game.close()


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


def _remembered_behind(game, distance: float) -> tuple[str, tuple[float, float]]:
    """The first monster in view, remembered (out of view) `distance` units behind the
    player on the far side from it: its episode id and the remembered spot."""
    ep = game.view()["characters"][0]["id"]
    sighting = game.known.things[game.ids.lookup(ep)[1]]
    here = game.engine.snap.xy
    away = math.atan2(here[1] - sighting.thing.y, here[0] - sighting.thing.x)
    spot = (here[0] + distance * math.cos(away), here[1] + distance * math.sin(away))
    sighting.thing = replace(sighting.thing, x=spot[0], y=spot[1])
    sighting.now = False
    return ep, spot


def test_attack_seeks_a_monster_out_of_view_where_it_was_last_seen() -> None:
    # The player remembers a monster (out of view now) at a spot 300 units behind him,
    # away from where the engine has it: the attack walks to that spot, never straight
    # to the monster's true place.
    game = _session("doom:t04_defend_the_center")
    try:
        ep, spot = _remembered_behind(game, 300)
        result = game.act("attack", {"character_id": ep, "time_limit_s": 4})
        # The path is sampled every fifth tic; the walk's last point is where it ended.
        walked = [tuple(p[::2]) for p in result["path"]] + [game.engine.snap.xy]
        nearest = min(math.dist(p, spot) for p in walked)
        assert nearest < 100, (result["end_reason"], nearest)
    finally:
        game.close()


def test_a_door_out_of_sight_keeps_the_state_last_perceived() -> None:
    # A door the player knows (a room beside it was visited) but neither stands beside
    # nor sees is shown as last perceived, not as the engine has it now: here one last
    # seen open, shut now, stays open in the view.
    game = _session("doom:t01_e1m1_exit")
    try:
        game.view()
        snap, known = game.engine.snap, game.known
        here = game.layout.area_at(*snap.xy)
        door = next(d for d in game.doors if here not in d.areas and d.areas
                    and not known.in_view(snap, d.point, snap.floors[d.sector]))
        known.visited.add(door.areas[0])
        known.door_gaps[door.index] = 72.0  # seen open when last there
        assert snap.ceilings[door.sector] - snap.floors[door.sector] < 56  # shut now
        ep = game.ids.of("door", door.index)
        assert {d["id"]: d["state"] for d in game.view()["doors"]}[ep] == "open"
    finally:
        game.close()


def test_areas_are_named_by_kind_not_by_the_maps_numbering() -> None:
    # "room 60" would say the map has sixty rooms and which one this is in every
    # episode; views name an area by its kind, the id tells it apart.
    game = _session("doom:t16_map01_clear", "hard")
    try:
        area = game.view()["area"]
        names = {area["name"]} | {w["to_name"] for w in area["ways_out"]}
        assert names <= {"room", "lift"}
    finally:
        game.close()


def test_a_character_seen_before_says_when_in_the_harness_ticks() -> None:
    game = _session("doom:t04_defend_the_center")
    try:
        game.view()
        game.act("wait", {"seconds": 2})
        rows = game.view()["characters"]
        assert rows, "defend_the_center's monsters are in view from the start"
        for row in rows:
            assert 0 <= row["seen_tick"] <= game.tick
    finally:
        game.close()


def test_the_text_view_of_a_well_explored_map_stays_short() -> None:
    # With every thing of E1M2 known (a map explored through), the text view stays
    # under 6,000 characters: objects are the nearest few and the objectives' targets,
    # characters those in view and the nearest others, as in the shipped world.
    game = _session("doom:t06_e1m2_secrets")
    try:
        game.view()
        snap, known = game.engine.snap, game.known
        for thing in snap.things:
            words = describe(thing)
            if words is not None and words.group is not None:
                known.things[thing.id] = Sighting(thing, words.group, words.kind,
                                                  words.name, snap.tic, False)
        view = game.view()
        assert len(view["objects"]) + len(view["characters"]) < len(known.things)
        text = render_text_view(observation_of(view))
        assert len(text) < 6000, len(text)
    finally:
        game.close()


def test_id_numbers_do_not_count_the_maps_monsters() -> None:
    # MAP01 holds 28 monsters at ultra-violence; at the start the view shows a few, and
    # their numbers run from 1 up to how many are shown, never to 28.
    game = _session("doom:t16_map01_clear", "hard")
    try:
        shown = _numbers_shown(game.view())
        assert all(max(v) == len(v) for v in shown.values()), shown
        assert len(shown.get("c", [])) < 28
    finally:
        game.close()


def test_attack_does_not_fire_at_a_monster_behind_the_player() -> None:
    # Walked to a remembered spot facing away from the monster, the player has it behind
    # him: a clear sight line all round is not a sighting (the field of view is 90
    # degrees), so the attack ends without a shot (it fired, turning round, before).
    game = _session("doom:t04_defend_the_center")
    try:
        ep, _spot = _remembered_behind(game, 150)
        rounds = game.engine.snap.counters["SELECTED_WEAPON_AMMO"]
        result = game.act("attack", {"character_id": ep, "time_limit_s": 3})
        assert result["end_reason"] == "target_gone", result
        assert "not in sight" in result["detail"]
        assert game.engine.snap.counters["SELECTED_WEAPON_AMMO"] == rounds, result
    finally:
        game.close()


def test_lift_rides_use_only_switches_seen_and_lifts_known() -> None:
    # At E1M1's start the player has seen neither lift switch's panel nor the room of
    # one lift: a walk may not call either down, nor plan a ride on the unknown lift.
    game = _session("doom:t01_e1m1_exit")
    try:
        game.view()
        known = game.known
        lift_switches = [(t, s) for (t, _), s in zip(game.switches,
                                                      game.layout.ordered_switches(),
                                                      strict=True) if s.kind == "lift"]
        unseen = [s for t, s in lift_switches if t.id not in known.things]
        assert unseen, "E1M1 has lift switches the player has not seen at the start"
        unknown_lift = [a for a in game.layout.rooms.areas
                        if a.kind == "lift" and a.index not in known.areas]
        assert unknown_lift, "E1M1 has a lift in a room unknown at the start"
        listed = switches_by_lift(game)
        for sector, switches in listed.items():
            assert game.layout.rooms.sector_area[sector] in known.areas
            assert not set(switches) & set(unseen)
        assert not set(listed) & {s for a in unknown_lift for s in a.sectors}
    finally:
        game.close()


def test_a_lift_out_of_sight_keeps_the_floor_last_perceived() -> None:
    # A lift the player has never perceived is where the map rests it, whatever the
    # engine has it at now: its live floor is not read from afar.
    game = _session("doom:t01_e1m1_exit")
    try:
        game.view()
        snap, known = game.engine.snap, game.known
        sector = next(s for a in game.layout.rooms.areas
                      if a.kind == "lift" and a.index not in known.areas for s in a.sectors)
        resting = game.layout.map.sectors[sector].floor
        moved = copy.copy(snap)
        moved.floors = tuple(f - 64 if s == sector else f for s, f in enumerate(snap.floors))
        assert known.lift_floor(moved, sector) == resting
        assert not lifts._down(game, sector) or resting <= snap.counters["POSITION_Z"] + 24
    finally:
        game.close()


def test_use_on_the_way_ignores_secret_doors_not_found() -> None:
    # E1M2 starts beside a secret door. Were it opening with the player next to it, a
    # player who does not know it is there could not hold his use press for it: only
    # known doors are looked at.
    game = _session("doom:t06_e1m2_secrets")
    try:
        game.view()
        snap = game.engine.snap
        here = game.layout.area_at(*snap.xy)
        door = next(d for d in game.doors if d.hidden and here in d.areas)
        assert game.known.hidden(door)
        shut = copy.copy(snap)
        shut.counters = dict(snap.counters, POSITION_X=door.point[0] + 40,
                             POSITION_Y=door.point[1])
        opening = copy.copy(shut)
        opening.ceilings = tuple(c + 8 if s == door.sector else c
                                 for s, c in enumerate(snap.ceilings))
        game._prev, game.engine.snap = shut, opening
        assert game.door_state(door) == "opening"
        assert game.use_is_safe()
    finally:
        game.close()
