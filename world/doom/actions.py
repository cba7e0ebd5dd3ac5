"""The macro actions on a Doom map, with the shipped catalogue's names and end reasons.

Each executor takes the session and the arguments (ids already looked up) and returns
(end reason, sentence, adjusted target or None). Actions with no Doom meaning (shooting
objects, using items on things) are refused with the reason; `equip` presses a weapon
slot's button. Walks plan on
the grid of `world.doom.navgrid` from the live heights and keep to the areas the player
knows; a target that no route over them reaches is `no_known_route`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from world.actions.catalog import catalog
from world.doom.controls import Play, aim_and_fire, face, press_use, walk
from world.doom.engine import TICS_PER_SECOND
from world.doom.geometry import HEADROOM, Heights
from world.doom.layout import DoorSpot
from world.doom.lifts import lift_toward, ride
from world.doom.navgrid import doors_open
from world.doom.returnfire import rounds
from world.doom.specials import carried_guns
from world.errors import InvalidRequestError

if TYPE_CHECKING:
    from world.doom.session import DoomSession

Outcome = tuple[str, str, tuple[float, float] | None]
FIRE_RANGE = 1200.0  # an attack walks until the target is this close and in view
INSIDE = 40.0  # go_to_area stops this far past the way out
DOOR_REACH = 96.0  # a walk stuck this near a door's middle is up against it
MAX_REPLANS = 8  # walks replanned at most this often for harmful pickups seen on the way
DOOR_WATCH = 12  # tics after use within which a door that opens starts to move
MAX_RIDES = 3  # lifts a walk calls down and rides at most
LOOK_REACH = 64.0  # a walk to where a monster was last seen stops this close to the spot
NO_ROUTE = "No known route leads there; explore further."
# A pickup walked up to but not taken that lies farther above or below the player's
# feet than this is on another floor (Doom takes one no more than 8 units below them;
# at his own height only a full player leaves one).
PICKUP_REACH = 8.0
RAISE_TICS = 70  # an equip waits at most this long for the new gun to come up


def _route(session: DoomSession, goal: tuple[float, float], entering: int | None = None,
           start: tuple[float, float] | None = None,
           lift: int | None = None) -> list[tuple[float, float]] | None:
    # Routes keep to known floor (and the area a way out leads into): a sector of no
    # known area is planned as shut, so no walk takes the hidden shortest path.
    snap = session.engine.snap
    floors, ceilings = snap.floors, snap.ceilings
    known = session.known.areas | ({entering} if entering is not None else set())
    open_to = [any(a in known for a in areas) for areas in session.layout.sector_areas]

    rest = session.layout.rooms.map.sectors

    def live(sector: int) -> tuple[float, float]:
        # A lift about to be ridden is planned at its top, where it rests (the map's floor).
        return (rest[sector].floor, ceilings[sector]) if sector == lift \
            else (floors[sector], ceilings[sector])

    # Doors use opens are planned as open: the walk presses use at them on the way.
    opened = doors_open(session.layout.rooms, live)
    usable = {d.sector for d in session.doors
              if d.manual and d.key is None and not session.known.hidden(d)}

    # A door the player cannot open himself is planned as last perceived: one opened
    # unseen is still shut to the plan.
    shut_doors = {d.sector for d in session.doors if d.sector not in usable
                  and session.known.door_gap(d) < HEADROOM}

    def planned(sector: int) -> tuple[float, float]:
        heights = opened(sector) if sector in usable else live(sector)
        shut = not open_to[sector] or sector in shut_doors
        return (heights[0], heights[0]) if shut else heights

    start = snap.xy if start is None else start
    avoid = _harmful(session, goal)
    if avoid:
        # Harmful pickups are walked around when a route around them exists, planned on
        # the same heights as any other walk.
        rows = [planned(s) for s in range(len(floors))]
        heights = Heights(tuple(f for f, _ in rows), tuple(c for _, c in rows))
        around = session.planner.plan(start, goal, heights, avoid=avoid)
        if around is not None:
            return around
    return session.layout.navgrid.plan(start, goal, planned)


def _harmful(session: DoomSession, goal: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    # Known harmful pickups, but the ones beside the goal (it could not be reached).
    return tuple((s.thing.x, s.thing.y) for s in session.known.things.values()
                 if s.kind == "prop" and math.dist((s.thing.x, s.thing.y), goal) > 48)


def _walk_to(session: DoomSession, play: Play, goal: tuple[float, float], *,
             use_on_way: bool = False, reach: float = 20.0, entering: int | None = None) -> str:
    # Replans once after a stuck leg (a door may have opened or a monster moved away),
    # and whenever a harmful pickup comes into view on the way. No route over known
    # floor is `no_known_route` (through a listed way out: `unreachable`).
    stuck = replans = rides = 0
    while True:
        points = _route(session, goal, entering)

        def plan(a: tuple[float, float], b: tuple[float, float], up: int | None) -> list | None:
            return _route(session, b, entering, start=a, lift=up)

        lift = lift_toward(session, goal, plan) if points is None and rides < MAX_RIDES \
            else None
        if lift is not None:
            # No walk on the live heights, but one from a raised lift's top: the lift is
            # called down, stepped on and ridden up first.
            rides += 1
            reason = ride(session, play, lift, plan)
            if reason != "arrived":
                return reason
            continue
        if points is None:
            return "no_known_route" if entering is None else "unreachable"
        known = _harmful(session, goal)
        watch = None if replans >= MAX_REPLANS else (
            lambda known=known: _harmful(session, goal) != known)
        reason = walk(play, points, use_on_way=use_on_way, last_reach=reach, replan=watch)
        if reason == "replan":
            replans += 1
            continue
        if reason != "stuck" or stuck:
            return reason
        stuck += 1


def go_to(session: DoomSession, play: Play, args: dict[str, Any]) -> Outcome:
    """Walk to a point on known floor."""
    goal = (float(args["x"]), float(args["z"]))
    area = session.layout.area_at(*goal)
    if area is None or area not in session.known.areas:
        return ("no_known_route", NO_ROUTE, None)
    reason = _walk_to(session, play, goal, use_on_way=bool(args.get("use_on_way")))
    if reason == "no_known_route":
        return (reason, NO_ROUTE, None)
    where = session.engine.snap.xy
    return (reason, f"Walked {play.moved:.0f} units; now {math.dist(where, goal):.0f} "
            "from the point.", None)


def go_to_area(session: DoomSession, play: Play, args: dict[str, Any]) -> Outcome:
    """Walk through a way out of the current sector into the next one."""
    way = session.way(args["exit_id"])
    here = session.layout.area_at(*session.engine.snap.xy)
    if not session.leads_out(way, here):
        raise InvalidRequestError(f"way out {args['exit_id']!r} does not lead out of this area")
    target = way.areas[1] if way.areas[0] == here else way.areas[0]
    goal = session.inside(way, target)
    reason = _walk_to(session, play, goal, use_on_way=True, entering=target)
    now = session.layout.area_at(*session.engine.snap.xy)
    if reason in ("arrived", "stuck") and now == target:
        return ("arrived", "Went through into {area}.", None)
    if reason == "arrived":
        reason = "stuck"
    return (reason, "Did not get through the way out.", None)


def go_to_object(session: DoomSession, play: Play, args: dict[str, Any]) -> Outcome:
    """Walk up to a thing (taking a pickup by touching it) or a door, and press use."""
    spot = session.spot_of(args["object_id"])
    if spot is None:
        return ("target_gone", "It is no longer there.", None)
    wall = session.switch_face(args["object_id"])
    door = session.door_of(args["object_id"])
    reason = _walk_to(session, play, spot, use_on_way=True, reach=24.0 if wall is None else 12.0)
    if reason == "stuck" and door is not None \
            and math.dist(session.engine.snap.xy, spot) < DOOR_REACH:
        reason = "arrived"  # up against a shut door: use it, and see whether it opens
    if reason == "arrived" and door is not None and session.door_state(door) in ("open",
                                                                                 "opening"):
        # Already on its way up: a press now would only send it back down.
        return (reason, "The door is open." if session.door_state(door) == "open"
                else "The door is opening.", None)
    if reason == "arrived":
        reason = face(play, wall or spot) or press_use(play) or "arrived"
    if reason == "arrived" and door is not None:
        reason = _door_moves(session, play, door)
        if reason == "door_closed":
            return (reason, _shut(session, args["object_id"], door), None)
    if session.spot_of(args["object_id"]) is None:
        return (reason, "Took it.", None)
    if reason == "arrived" and wall is None and door is None:
        below = _height_off(session, args["object_id"])
        if abs(below) > PICKUP_REACH:
            # Beside it on the map but on a ledge above or below: no touch takes it, and
            # walking up to it again would not either.
            return ("wrong_storey", f"It lies {abs(below):.0f} units "
                    f"{'above' if below > 0 else 'below'}; it was not taken.", None)
    return (reason, "Walked up to it and pressed use." if reason == "arrived"
            else "Did not reach it.", None)


def _height_off(session: DoomSession, ep: str) -> float:
    # How far a known thing stands above (positive) or below the player's feet.
    found = session.ids.lookup(ep)
    sighting = session.known.things.get(found[1]) if found is not None else None
    if sighting is None:
        return 0.0
    return sighting.thing.z - session.engine.snap.counters["POSITION_Z"]


def _door_moves(session: DoomSession, play: Play, door: DoorSpot) -> str:
    # A door used opens within a few tics; one that stays shut needs a key or a switch.
    snap = session.engine.snap
    shut = snap.ceilings[door.sector] - snap.floors[door.sector]
    for _ in range(DOOR_WATCH):
        now = session.engine.snap
        if now.ceilings[door.sector] - now.floors[door.sector] != shut or shut >= HEADROOM:
            return "arrived"
        _, reason = play.go(None, 0.0)
        if reason is not None:
            return reason
    return "door_closed"


def _shut(session: DoomSession, ep: str, door: DoorSpot) -> str:
    if door.key:
        return f"The door {ep} is locked; it needs the {door.key} key."
    panel = session.panel_of(door)
    if panel is not None:
        return f"The door {ep} has no handle; the panel {panel} opens it."
    if not door.manual:
        return f"The door {ep} has no handle; a switch opens it, not seen so far."
    return f"The door {ep} did not open."


def turn_and_use(session: DoomSession, play: Play, args: dict[str, Any]) -> Outcome:
    """Face a point and press use."""
    point = (float(args["x"]), float(args["z"]))
    reason = face(play, point) or press_use(play) or "arrived"
    return (reason, "Pressed use.", None)


def attack(session: DoomSession, play: Play, args: dict[str, Any]) -> Outcome:
    """Close in on a monster until it is in view and in range, then aim and fire.

    A monster out of view is sought where it was last seen (never where the engine
    has it now): the walk goes there, and it is attacked only if in sight then.
    """
    target = args["character_id"]
    sighting = session.sighting(target)
    if sighting is None or sighting.down:
        return ("target_gone", "It is down.", None)
    monster = session.live_monster(target)
    in_view = sighting.now and monster is not None
    spot = (monster.x, monster.y) if in_view and monster is not None \
        else (sighting.thing.x, sighting.thing.y)
    snap = session.engine.snap
    if not in_view or math.dist(snap.xy, spot) > FIRE_RANGE or not session.sees(spot):
        reason = _walk_to(session, play, spot, reach=FIRE_RANGE / 2 if in_view else LOOK_REACH)
        if reason not in ("arrived", "gave_up", "stuck"):
            return (reason, _approach(play, reason), None)
        # Fired at only when in the field of view now, as the player perceives it.
        session.known.update(session.engine.snap)
        sighting = session.sighting(target)
        if sighting is not None and sighting.down:
            return ("target_gone", "It is down.", None)
        monster = session.live_monster(target)
        if monster is None or sighting is None or not sighting.now \
                or math.dist(session.engine.snap.xy, (monster.x, monster.y)) > FIRE_RANGE:
            if reason != "arrived":
                return (reason, _approach(play, reason), None)
            return ("target_gone", "It is not in sight where it was last seen.", None)
    if rounds(session.engine.snap) <= 0:
        return ("out_of_ammo", "The weapon in hand has no ammunition.", None)
    reason = aim_and_fire(play, lambda: session.live_monster(target), session.sees)
    if reason == "arrived":
        return ("arrived", "It went down.", None)
    if reason == "target_gone":
        return (reason, "It went out of sight.", None)
    if reason == "out_of_ammo":
        return (reason, "The weapon in hand ran out of ammunition.", None)
    return (reason, "Fired at it.", None)


def _approach(play: Play, reason: str) -> str:
    # What became of a walk toward a monster that did not end in sight of it.
    if reason == "no_known_route":
        return NO_ROUTE
    if play.moved < 1.0:
        return f"Did not move toward it ({reason.replace('_', ' ')})."
    return f"Walked {play.moved:.0f} units toward it; the walk ended {reason.replace('_', ' ')}."


def wait(session: DoomSession, play: Play, args: dict[str, Any]) -> Outcome:
    """Let time pass; with return_fire, shooting back at monsters in plain sight."""
    need = max(1, round(float(args["seconds"]) * TICS_PER_SECOND))
    while play.tics < need:
        _, reason = play.go(None, 0.0)
        if reason is not None:
            return (reason, "Stopped waiting.", None)
    return ("arrived", f"Waited {need / TICS_PER_SECOND:.1f} s.", None)


def equip(session: DoomSession, play: Play, args: dict[str, Any]) -> Outcome:
    """Take a carried gun in hand by its id (`i` and its slot, as `carried` lists it).

    The slot's button is pressed once; Doom lowers the gun in hand and raises the new
    one, which the action waits for (about half a second).
    """
    item = str(args["item_id"])
    counters = session.engine.snap.counters
    carried = {g.item_id: g for g in carried_guns(counters)}
    gun = carried.get(item)
    if gun is None:
        raise InvalidRequestError(
            f"the player does not carry {item!r}; carried: "
            f"{', '.join(repr(i) for i in carried) or 'nothing'}")
    if counters[gun.pool] <= 0:
        raise InvalidRequestError(f"{item!r} ({gun.name}) has no rounds; a gun is drawn "
                                  "only with rounds to fire")
    if int(counters["SELECTED_WEAPON"]) == gun.slot:
        return ("arrived", f"Already holding {item}.", None)
    _, reason = play.tic(select=gun.slot)
    while reason is None and int(play.last.counters["SELECTED_WEAPON"]) != gun.slot:
        if play.tics >= RAISE_TICS:
            return ("gave_up", f"The {gun.name} did not come up.", None)
        _, reason = play.go(None, 0.0)
    if reason is not None and int(play.last.counters["SELECTED_WEAPON"]) != gun.slot:
        return (reason, f"Stopped before the {gun.name} was up.", None)
    return ("arrived", f"Now holding {item}.", None)


def refused(why: str) -> Callable[[DoomSession, Play, dict[str, Any]], Outcome]:
    """An executor that refuses: the action has no meaning on a Doom map."""
    def run(session: DoomSession, play: Play, args: dict[str, Any]) -> Outcome:
        return ("refused", why, None)
    return run


EXECUTORS: MappingProxyType[str, Callable[[DoomSession, Play, dict[str, Any]], Outcome]] = \
    MappingProxyType({
        "go_to": go_to, "go_to_area": go_to_area, "go_to_object": go_to_object,
        "turn_and_use": turn_and_use, "attack": attack, "wait": wait,
        "shoot_object": refused("Doom maps have nothing to shoot but monsters and barrels; "
                                "use attack on a monster."),
        "equip": equip,
        "use_item_on": refused("Doom has no items to use on things; walk over pickups."),
        "enter_code": refused("Doom maps have no keypads to enter a code on."),
    })


# Every declared action is played or refused here, never a lookup error in the engine.
catalog().check_executors(EXECUTORS, "Doom action executors")
