"""Riding Doom's lifts: a walk whose route climbs onto a raised lift calls it down first.

A lift (a sector a lift special moves) rests up and comes down when a switch or its own
side is used, waits about three seconds at the bottom, then rises again. A walk with no
route on the live heights looks for a raised lift with a switch in reach from whose top
the goal is walked to (`lift_toward`); it walks to the switch, presses use, waits for the
platform, steps on, rides it up, and plans again from the live heights at the top.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from world.doom.controls import Play, face, press_use, walk
from world.doom.rooms import STEP

Route = Callable[[tuple[float, float], tuple[float, float], int | None], list | None]

if TYPE_CHECKING:
    from world.doom.roomparts import Switch
    from world.doom.session import DoomSession

SAMPLE = 8.0  # units between the points of a route tested for the lift they stand on
COME_DOWN = 140  # tics to wait for a lift to come down (Doom's lifts drop 4 units a tic)
RIDE_UP = 210  # tics to wait on it for the ride up (three seconds' wait, then the climb)
STEADY = 8  # tics a risen lift's floor stays put before it counts as at the top
ON_LIFT = 12.0  # a walk onto the platform stops this near its middle


def switches_by_lift(session: DoomSession) -> dict[int, list[Switch]]:
    """Per lift sector of a known area, the switches the player has seen that lower it.

    A switch counts once its thing has been in view (as a door's panel does), and a
    lift's own side once the player has stood on the lift (he rode it: it is the lift
    he calls); a lift in an area the player does not know is no lift to him.
    """
    out: dict[int, list[Switch]] = {}
    known, rooms = session.known, session.layout.rooms
    lifts = {s for a in rooms.areas if a.kind == "lift" and a.index in known.areas
             for s in a.sectors}
    sight = session.layout.sight  # per line, the sectors either side (a lift's own side)
    for (thing, _), switch in zip(session.switches, session.layout.ordered_switches(),
                                  strict=True):
        if switch.kind != "lift":
            continue
        for sector in switch.targets:
            ridden = sector in (sight.front[switch.line], sight.back[switch.line]) \
                and rooms.sector_area[sector] in known.visited
            if sector in lifts and (thing.id in known.things or ridden):
                out.setdefault(sector, []).append(switch)
    return out


def lift_toward(session: DoomSession, goal: tuple[float, float], route: Route) -> int | None:
    """A lift from whose top a walk reaches the goal, with a switch of it in reach.

    `route(start, goal, lift)` plans on the live heights with that lift at its top (None:
    no walk). The lift nearest the player comes first; None when no lift helps.
    """
    snap = session.engine.snap
    found = []
    for sector, switches in switches_by_lift(session).items():
        top = _middle(session, sector)
        if route(top, goal, sector) is None:
            continue
        if _down(session, sector) or any(route(snap.xy, s.reach, None) for s in switches):
            found.append((math.dist(snap.xy, top), sector))
    return min(found)[1] if found else None


def ride(session: DoomSession, play: Play, sector: int, route: Route) -> str:
    """Call a lift down with a switch in reach (unless it is down), step on, ride it up.

    Ends `arrived` at the top, else the reason the ride stopped (`unreachable` when no
    switch of the lift can be walked to, `stuck` when the lift never came down).
    """
    if not _down(session, sector):
        reason = _call(session, play, sector, route)
        if reason != "arrived":
            return reason
    reason = walk(play, [_middle(session, sector)], last_reach=ON_LIFT)
    if reason not in ("arrived", "stuck"):
        return reason
    return _ride_up(session, play, sector)


def _call(session: DoomSession, play: Play, sector: int, route: Route) -> str:
    # Walk to the nearest switch of the lift, press it, and wait for the platform; a lift
    # still moving ignores the press, so it is pressed again once it stands still.
    choices = []
    for switch in switches_by_lift(session)[sector]:
        points = route(session.engine.snap.xy, switch.reach, None)
        if points is not None:
            length = sum(math.dist(a, b) for a, b in zip([session.engine.snap.xy, *points],
                                                         points, strict=False))
            choices.append((length, switch.line, switch, points))
    if not choices:
        return "unreachable"
    _, _, switch, points = min(choices, key=lambda c: (c[0], c[1]))
    reason = walk(play, points, last_reach=12.0)
    if reason != "arrived":
        return reason
    # The player looks at the platform after each press: it is known down only once seen.
    still, last = STEADY, None
    for _ in range(COME_DOWN):
        if _down(session, sector):
            return "arrived"
        floor = _floor(session, sector)
        still = still + 1 if floor == last else 0
        last = floor
        problem: str | None
        if still >= STEADY:
            problem = face(play, switch.at) or press_use(play) \
                or face(play, _middle(session, sector))
            still = 0
        else:
            _, problem = play.go(None, 0.0)
        if problem is not None:
            return problem
    return "stuck"  # the press moved nothing: the lift is not this switch's


def _floor(session: DoomSession, sector: int) -> float:
    # The lift's floor as perceived: live while stood on or in view, else as last seen.
    return session.known.lift_floor(session.engine.snap, sector)


def _down(session: DoomSession, sector: int) -> bool:
    return _floor(session, sector) <= session.engine.snap.counters["POSITION_Z"] + STEP


def _middle(session: DoomSession, sector: int) -> tuple[float, float]:
    point = session.layout.rooms.sector_shape(sector).representative_point()
    return (point.x, point.y)


def _ride_up(session: DoomSession, play: Play, sector: int) -> str:
    # Standing on the platform until it has climbed and stopped.
    low, still, last = _floor(session, sector), 0, None
    for _ in range(RIDE_UP):
        floor = _floor(session, sector)
        still = still + 1 if floor == last else 0
        last = floor
        if floor > low + STEP and still >= STEADY:
            return "arrived"
        _, reason = play.go(None, 0.0)
        if reason is not None:
            return reason
    return "arrived" if _floor(session, sector) > low + STEP else "stuck"
