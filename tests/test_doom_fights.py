"""Doom fights and supplies: backing off a biting monster, and every gun's rounds in view.

The controller tests drive `aim_and_fire` on a small simulated floor (no engine tics,
but the engine's own snapshot and thing types, so skipped without the `doom` extra).
"""

from __future__ import annotations

import math

from tests.doom_support import needs_engine

WALL_X = -20.0  # the simulated floor ends here: a wall to the player's back
BITE = 64.0  # a demon this close bites
DEMON_STEP = 5.0  # units a tic a demon closes in
PLAYER_SPEED = 16.0 / 50.0  # units a tic per unit of thrust (Doom's run, roughly)


def _duel(tics: int) -> tuple[int, float]:
    """A demon charging a player whose back is to a wall: (tics bitten, least x reached)."""
    from world.doom.controls import Play, aim_and_fire
    from world.doom.engine import Snapshot, Thing

    state = {"x": 0.0, "y": 0.0, "angle": 0.0, "dx": 64.0, "dy": 0.0, "tic": 0}

    def snap() -> Snapshot:
        counters = {"POSITION_X": state["x"], "POSITION_Y": state["y"],
                    "ANGLE": state["angle"], "SELECTED_WEAPON": 2.0,
                    "SELECTED_WEAPON_AMMO": 50.0, "DEAD": 0.0}
        demon = Thing(7, "Demon", "Monster", state["dx"], state["dy"], 0.0, 0.0)
        return Snapshot(state["tic"], False, counters, (demon,), (), ())

    def advance(forward: float, strafe: float, turn: float, attack: bool,
                use: bool, select: int = 0) -> Snapshot:
        a = math.radians(state["angle"])
        # Strafe is to the right: clockwise of the facing.
        vx = forward * math.cos(a) + strafe * math.sin(a)
        vy = forward * math.sin(a) - strafe * math.cos(a)
        state["x"] = max(WALL_X, state["x"] + vx * PLAYER_SPEED)
        state["y"] += vy * PLAYER_SPEED
        state["angle"] = (state["angle"] + turn) % 360
        gap = math.dist((state["x"], state["y"]), (state["dx"], state["dy"]))
        if gap > BITE - 24:
            step = min(DEMON_STEP, gap - (BITE - 24))
            state["dx"] += (state["x"] - state["dx"]) / gap * step
            state["dy"] += (state["y"] - state["dy"]) / gap * step
        state["tic"] += 1
        return snap()

    play = Play(advance=advance, interrupt=lambda: None, limit_tics=tics,
                footing=lambda p: p[0] > WALL_X + 16)
    play.last = snap()
    bitten = 0
    least = 0.0

    def where() -> Thing:
        nonlocal bitten, least
        if math.dist((state["x"], state["y"]), (state["dx"], state["dy"])) <= BITE:
            bitten += 1
        least = min(least, state["x"])
        return play.last.things[0]

    reason = aim_and_fire(play, where, lambda spot: True)
    assert reason == "gave_up"
    return bitten, least


@needs_engine
def test_backing_off_a_demon_does_not_pin_the_player_to_a_wall() -> None:
    # Straight back is the wall: the retreat turns aside along it and keeps the demon
    # out of biting range most of the time (backing straight into the wall, the player
    # stood bitten from the first tic to the last).
    bitten, least = _duel(300)
    assert bitten < 300 * 0.2, bitten
    assert least > WALL_X, least  # never pressed into the wall


@needs_engine
def test_the_view_gives_every_gun_its_rounds_and_every_box_its_gun() -> None:
    # Doom's status bar shows every ammunition pool, so a gun not in hand shows its own
    # rounds (it showed none, so a player holding a shotgun counted his pistol empty),
    # and a box of rounds names the gun it feeds (it named none, so the agent, which
    # fetches rounds only for a gun it carries, never fetched a clip).
    from harness.core.level_refs import resolve
    from world.doom.known import Sighting, describe
    from world.doom.specials import feeds
    from world.doom.view import POOLS
    from world.face import new_session

    session = new_session(resolve("doom:t01_e1m1_exit").level, "normal", 0)
    try:
        session.view()
        snap = session.engine.snap
        snap.counters.update({"WEAPON3": 1.0, "AMMO3": 8.0, "AMMO2": 37.0})
        boxes = [t for t in snap.things
                 if (describe(t) is not None and describe(t).kind == "ammo")]
        for thing in boxes:
            words = describe(thing)
            session.known.things[thing.id] = Sighting(thing, "object", words.kind,
                                                      words.name, snap.tic, False)
        view = session.view()
        carried = {c["weapon"]: c["ammo"] for c in view["player"]["carried"]}
        assert carried == {"pistol": 37, "shotgun": 8}
        rows = [o for o in view["objects"] if o["kind"] == "ammo"]
        assert {o["name"] for o in rows} >= {"clip", "shells"}, rows
        assert all(o["weapon"] == feeds(o["name"]) for o in rows if o["name"] != "backpack")
        assert {feeds(o["name"]) for o in rows if o["name"] != "backpack"} <= set(POOLS)
        # A weapon pickup names its type; a demon bites and carries no gun.
        guns = [t for t in snap.things if describe(t) is not None
                and describe(t).kind == "weapon"]
        demons = [t for t in snap.things if t.name == "Demon"]
        session.known.things.clear()
        for thing in guns[:1] + demons[:1]:
            words = describe(thing)
            session.known.things[thing.id] = Sighting(thing, words.group, words.kind,
                                                      words.name, snap.tic, False)
        view = session.view()
        assert [o["weapon"] for o in view["objects"] if o["kind"] == "weapon"] \
            == [describe(guns[0]).name]
        assert [c["armed"] for c in view["characters"] if c["kind"] == "demon"] == [False]
    finally:
        session.close()


@needs_engine
def test_a_nearer_biter_is_answered_before_the_target() -> None:
    # Two demons: the target a hundred units east, another sixty units north and
    # closing. The nearer one is turned to (and backed away from) first; the player used
    # to keep aiming at the target while the other bit him.
    from world.doom.controls import Play, aim_and_fire
    from world.doom.engine import Snapshot, Thing

    target = Thing(1, "Demon", "Monster", 100.0, 0.0, 0.0, 0.0)
    other = Thing(2, "Demon", "Monster", 0.0, 60.0, 0.0, 0.0)
    turns = []

    def snap() -> Snapshot:
        counters = {"POSITION_X": 0.0, "POSITION_Y": 0.0, "ANGLE": 0.0, "DEAD": 0.0,
                    "SELECTED_WEAPON": 2.0, "SELECTED_WEAPON_AMMO": 50.0}
        return Snapshot(len(turns), False, counters, (target, other), (), ())

    def advance(forward, strafe, turn, attack, use, select=0) -> Snapshot:
        turns.append(turn)
        return snap()

    class Reflex:
        def target(self, _snap):
            return other

    play = Play(advance=advance, interrupt=lambda: None, limit_tics=3, reflex=Reflex())
    play.last = snap()
    aim_and_fire(play, lambda: target, lambda spot: True)
    assert turns and all(t > 20 for t in turns), turns  # toward the north, not east


def _fire_with_barrel(barrel_at: tuple[float, float]) -> int:
    """Presses of attack in 60 tics at an imp 300 units east, facing it, a barrel placed."""
    from world.doom.controls import Play, aim_and_fire
    from world.doom.engine import Snapshot, Thing

    imp = Thing(1, "DoomImp", "Monster", 300.0, 0.0, 0.0, 0.0)
    barrel = Thing(2, "ExplosiveBarrel", "Misc", *barrel_at, 0.0, 0.0)
    fired = []

    def snap() -> Snapshot:
        counters = {"POSITION_X": 0.0, "POSITION_Y": 0.0, "ANGLE": 0.0, "DEAD": 0.0,
                    "SELECTED_WEAPON": 2.0, "SELECTED_WEAPON_AMMO": 50.0}
        return Snapshot(len(fired), False, counters, (imp, barrel), (), ())

    def advance(forward, strafe, turn, attack, use, select=0) -> Snapshot:
        fired.append(attack)
        return snap()  # the player stands where he is: the line of fire stays

    play = Play(advance=advance, interrupt=lambda: None, limit_tics=60)
    play.last = snap()
    assert aim_and_fire(play, lambda: imp, lambda spot: True) == "gave_up"
    return sum(fired)


@needs_engine
def test_no_shot_bursts_a_barrel_beside_the_player() -> None:
    # A barrel 60 units ahead in the line of fire would take the shot and blow up in
    # the player's face (E1M1's barrel room cost 75 health at once): the fire waits.
    assert _fire_with_barrel((60.0, 4.0)) == 0
    # Off the line, or far beyond the blast's reach of the player, it does not stop it.
    assert _fire_with_barrel((60.0, 80.0)) >= 2
    assert _fire_with_barrel((290.0, 0.0)) >= 2
