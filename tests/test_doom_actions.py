"""Doom macro actions in the engine: refusals, ways out, return fire, doors, lifts, ledges
and the sidestep of a fight at range.
"""

from __future__ import annotations

import math

import pytest

from harness.core.level_refs import resolve
from tests.doom_support import needs_engine
from world.face import new_session


@needs_engine
def test_unknown_way_out_is_refused_with_the_known_ones() -> None:
    level = resolve("doom:t17_my_way_home").level
    session = new_session(level, "normal", 0)
    try:
        ways = [w["id"] for w in session.view()["area"]["ways_out"]]
        with pytest.raises(Exception) as err:
            session.act("go_to_area", {"exit_id": "w999"})
        assert "w999" in str(err.value)
        assert all(w in str(err.value) for w in ways)
    finally:
        session.close()


@needs_engine
def test_actions_without_doom_meaning_are_refused() -> None:
    level = resolve("doom:t01_e1m1_exit").level  # a map with objects to name
    session = new_session(level, "easy", 0)
    try:
        assert "o1" in {o["id"] for o in session.view()["objects"]}
        # enter_code once reached the executors' table unrefused: a lookup error, a
        # harness failure the agent caused.
        for action, args in (("use_item_on", {"item_id": "i2", "target_id": "o1"}),
                             ("shoot_object", {"target_id": "o1"}),
                             ("enter_code", {"object_id": "o1", "code": "1234"})):
            result = session.act(action, args)
            assert result["end_reason"] == "refused", action
            assert result["ticks"] == 0
    finally:
        session.close()


@needs_engine
def test_return_fire_shoots_back_during_a_walk_that_asks() -> None:
    level = resolve("doom:t04_defend_the_center").level
    session = new_session(level, "normal", 0)
    try:
        x, _, z = session.view()["player"]["position"]
        for turn in range(40):
            before = session.engine.snap.counters["KILLCOUNT"]
            result = session.act("go_to", {"x": x + (60 if turn % 2 else -60), "z": z,
                                           "return_fire": True})
            assert result["end_reason"] != "dead"
            if session.engine.snap.counters["KILLCOUNT"] > before and result["distance_moved"]:
                break
        else:
            pytest.fail("no monster went down during a walk in 40 walks")
        assert result["action"] == "go_to"
    finally:
        session.close()


@needs_engine
def test_a_wait_that_does_not_ask_never_fires() -> None:
    # The reflex rule (PROTOCOL.md, "What the player does by reflex"): monsters come and
    # hurt the player, and a plain wait answers none of them.
    level = resolve("doom:t04_defend_the_center").level
    session = new_session(level, "normal", 0)
    try:
        ammo = session.engine.snap.counters["SELECTED_WEAPON_AMMO"]
        for _ in range(15):
            result = session.act("wait", {"seconds": 3})
            if result["end_reason"] == "dead":
                break
        assert session.engine.snap.counters["KILLCOUNT"] == 0
        assert session.engine.snap.counters["SELECTED_WEAPON_AMMO"] == ammo
    finally:
        session.close()


@needs_engine
def test_biting_monsters_are_let_come_close_while_rounds_are_few() -> None:
    from world.doom.engine import Snapshot, Thing
    from world.doom.returnfire import FEW_ROUNDS, MELEE_FIRE, worth_a_shot

    def snap(weapon: int, rounds: int) -> Snapshot:
        counters = {"POSITION_X": 0.0, "POSITION_Y": 0.0, "SELECTED_WEAPON": float(weapon),
                    "SELECTED_WEAPON_AMMO": float(rounds)}
        return Snapshot(0, False, counters, (), (), ())

    def monster(name: str, distance: float) -> Thing:
        return Thing(1, name, "Monster", distance, 0.0, 0.0, 0.0)

    few, many = snap(2, FEW_ROUNDS), snap(2, FEW_ROUNDS + 1)
    assert not worth_a_shot(few, monster("Demon", MELEE_FIRE + 1))
    assert worth_a_shot(few, monster("Demon", MELEE_FIRE))
    assert worth_a_shot(few, monster("DoomImp", 1000))  # it throws fire from afar
    assert worth_a_shot(many, monster("Demon", 1000))
    assert not worth_a_shot(snap(2, 0), monster("DoomImp", 50))  # nothing to fire
    assert not worth_a_shot(snap(1, 0), monster("Demon", 200))  # a fist reaches 96
    assert worth_a_shot(snap(1, 0), monster("Demon", 60))


@needs_engine
def test_every_way_leads_to_a_point_inside_its_area() -> None:
    from world.doom.layout import Layout
    for ref in ("doom:t16_map01_clear", "doom:t01_e1m1_exit"):
        layout = Layout(resolve(ref).level)
        pairs = [(w, a) for w in layout.ways for a in w.areas[:2]]
        inside = [layout.area_at(*layout.inside(w, a)) == a for w, a in pairs]
        # A few ways join areas the map draws overlapping; every door leads in but one.
        assert sum(inside) >= 0.97 * len(pairs), (ref, sum(inside), len(pairs))
    map01 = Layout(resolve("doom:t16_map01_clear").level)
    door = next(w for w in map01.ways if w.kind == "door" and w.areas == (5, 43))
    assert map01.area_at(*map01.inside(door, 43)) == 43  # a deep door off its normal


@needs_engine
@pytest.mark.slow
def test_a_walk_opens_a_door_on_its_way_without_shutting_it_again() -> None:
    # Doom's doors reverse on use: a walk that pressed use every few tics against E1M1's
    # first door sent it back down before it was high enough to pass, for good.
    session = new_session(resolve("doom:t01_e1m1_exit").level, "easy", 0)
    try:
        door = session.doors[0]
        beyond = (832.0, 700.0)  # in the hall past the door, 1,000 units from the start
        assert session.layout.area_at(*beyond) == 0 and 0 in door.areas
        session.known.areas.update(range(len(session.layout.rooms.areas)))  # no exploring
        for _ in range(3):  # a monster's hit on the way stops a walk (damage): walk on
            result = session.act("go_to", {"x": beyond[0], "z": beyond[1],
                                           "use_on_way": True})
            if result["end_reason"] != "damage":
                break
        assert result["end_reason"] == "arrived", result
        assert session.door_state(door) in ("open", "closing")
        ep = session.ids.of("door", door.index)
        assert next(d for d in session.view()["doors"] if d["id"] == ep)["state"] in (
            "open", "closing")
    finally:
        session.close()


@needs_engine
@pytest.mark.slow
def test_a_walk_back_up_calls_the_lift_down_and_rides_it() -> None:
    # E1M1's first lift lowers as the player walks onto it from the start room, and
    # rises again; from below, the way back is its side, used as a switch.
    session = new_session(resolve("doom:t01_e1m1_exit").level, "easy", 0)
    try:
        rooms = session.layout.rooms
        below, start = (400.0, 300.0), session.engine.snap.xy
        lift = next(a for a in rooms.areas if a.kind == "lift" and 98 in a.sectors)
        session.known.areas.update({rooms.area_index(*below), rooms.area_index(*start),
                                    lift.index})
        down = session.act("go_to", {"x": below[0], "z": below[1], "use_on_way": True})
        assert down["end_reason"] == "arrived"
        assert session.engine.snap.counters["POSITION_Z"] < -80
        back = session.act("go_to", {"x": start[0], "z": start[1], "use_on_way": True})
        assert back["end_reason"] == "arrived", back
        snap = session.engine.snap
        assert math.dist(snap.xy, start) < 24 and snap.counters["POSITION_Z"] == 0.0
        # The path went over the platform (x 64 to 192 at y 192 to 320).
        assert any(64 <= x <= 192 and 192 <= z <= 320 for x, _, z in back["path"])
    finally:
        session.close()


@needs_engine
def test_a_ledge_above_the_player_is_no_way_out() -> None:
    # E1M1's start room borders rooms 32 and 72 units up (no stairs): walks there were
    # refused as unreachable a decision each, over and over. From the start only the
    # ways a step or less up are listed; the one into a room at the same height stays.
    session = new_session(resolve("doom:t01_e1m1_exit").level, "normal", 0)
    try:
        here = session.layout.area_at(*session.engine.snap.xy)
        floors = session.engine.snap.floors
        listed = {w["to"] for w in session.view()["area"]["ways_out"]}
        names = session.layout.names  # the map's own ("room 16"); views show ids

        def ep(name: str) -> str:
            return session.ids.of("area", names.index(name))

        for way in session.way_list:
            if here not in way.areas or way.kind != "open":
                continue
            other = way.areas[1] if way.areas[0] == here else way.areas[0]
            steps = [floors[b] - floors[a] for a, b in session._borders()[(here, other)]]
            assert (session.ids.of("area", other) in listed) is (min(steps) <= 24), steps
        assert ep("room 16") not in listed and ep("room 60") in listed
    finally:
        session.close()


@needs_engine
def test_a_fight_at_range_steps_aside_and_never_onto_bad_footing() -> None:
    from world.doom.controls import SIDESTEP_TICS, WALK, Play, _sidestep
    from world.doom.engine import Snapshot, Thing

    snap = Snapshot(0, False, {"POSITION_X": 0.0, "POSITION_Y": 0.0, "ANGLE": 0.0}, (), (), ())
    imp, demon = (Thing(1, "DoomImp", "Monster", 500.0, 0.0, 0.0, 0.0),
                  Thing(2, "Demon", "Monster", 500.0, 0.0, 0.0, 0.0))
    # Facing +x, the player's right is -y: a drop there turns the step to the left (+y).
    play = Play(lambda *a: snap, lambda: None, 100, footing=lambda p: p[1] > 0)
    play.last, play.tics = snap, 4
    assert _sidestep(play, imp) == -WALK  # strafe's negative delta is to the left
    assert _sidestep(play, demon) == 0.0  # a biter is backed away from instead
    # Both sides bad: no step at all until the next turn of the step.
    play = Play(lambda *a: snap, lambda: None, 100, footing=lambda p: False)
    play.last, play.tics = snap, 4
    assert _sidestep(play, imp) == 0.0
    # Free footing: the step turns every SIDESTEP_TICS.
    play = Play(lambda *a: snap, lambda: None, 100)
    play.last = snap
    play.tics = 1
    first = _sidestep(play, imp)
    play.tics = SIDESTEP_TICS
    assert first != 0.0 and _sidestep(play, imp) == -first
