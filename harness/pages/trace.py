"""The player's route turn by turn, and where damage was taken, from the record alone.

A turn runs from its own observation to the next one. Each action's result carries
the path the player walked (`world.actions.trail`: sampled every few ticks, straight
stretches kept as their ends), so the map shows the walk as it happened; a record
without paths gets straight lines between the recorded positions.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from typing import Any

Point3 = tuple[float, float, float]


@dataclass(frozen=True)
class TurnLeg:
    """One turn's movement.

    Attributes:
        turn: The turn number.
        start_tick: The tick when the turn's observation was made.
        ticks: Game ticks the action ran (0 when nothing ran).
        route: Points from the turn's start to its end (a single point when it did
            not move; empty when positions are unknown).
        end_known: Whether the end point was recorded (False for the last turn of a
            record without a final position).
    """

    turn: int
    start_tick: int
    ticks: int
    route: tuple[Point3, ...]
    end_known: bool


@dataclass(frozen=True)
class DamageMark:
    """Health or armour the player lost, placed where it most likely happened."""

    turn: int
    tick: int
    amount: float
    source: str | None
    at: Point3


def player_position(turn: dict[str, Any]) -> Point3 | None:
    """The player's position in a turn's observation, or None if it is missing."""
    try:
        return as_point(turn["observation"]["view"]["player"]["position"])
    except (KeyError, TypeError):
        return None


def as_point(value: Any) -> Point3 | None:
    """Three numbers as a point, or None if `value` is not that (records are untrusted)."""
    try:
        x, y, z = value
        return (float(x), float(y), float(z))
    except (TypeError, ValueError):
        return None


def _close(a: Point3, b: Point3) -> bool:
    return abs(a[0] - b[0]) < 0.5 and abs(a[2] - b[2]) < 0.5 and abs(a[1] - b[1]) < 0.5


def _path(turn: dict[str, Any]) -> tuple[Point3, ...]:
    path = (turn.get("result") or {}).get("path")
    if not isinstance(path, list):
        return ()
    points = [as_point(p) for p in path]
    return tuple(p for p in points if p is not None)


def turn_legs(turns: tuple[dict[str, Any], ...], final: Point3 | None = None) -> list[TurnLeg]:
    """Each turn's route, from its observation's position to the next one's.

    Args:
        turns: The record's turn lines.
        final: Where the player was when the episode ended (the end line's
            final_position), the last turn's end point; None when unknown.

    Returns:
        One leg per turn, in order.
    """
    legs = []
    for index, turn in enumerate(turns):
        start = player_position(turn)
        nxt = player_position(turns[index + 1]) if index + 1 < len(turns) else final
        result = turn.get("result") or {}
        ticks = int(result.get("ticks") or 0)
        walked = _path(turn)
        if start is None:
            route: tuple[Point3, ...] = ()
        elif len(walked) > 1:
            route = walked
        elif nxt is None or _close(start, nxt):
            route = (start,)
        else:
            route = (start, nxt)
        legs.append(TurnLeg(int(turn.get("turn", index)), int(turn.get("tick", 0)), ticks,
                            route, nxt is not None or len(walked) > 1))
    return legs


def keep_on_map(legs: list[TurnLeg], bounds: tuple[float, float, float, float]
                ) -> tuple[list[TurnLeg], int]:
    """Drop routes with points far outside the level (a broken run can record nonsense).

    Args:
        legs: The routes.
        bounds: (min x, min z, max x, max z) of the level.

    Returns:
        The legs, those with an off-map point emptied, and how many were emptied.
    """
    lo_x, lo_z, hi_x, hi_z = bounds
    margin = max(hi_x - lo_x, hi_z - lo_z)

    def inside(p: Point3) -> bool:
        return (all(math.isfinite(c) for c in p) and lo_x - margin <= p[0] <= hi_x + margin
                and lo_z - margin <= p[2] <= hi_z + margin)

    kept, dropped = [], 0
    for leg in legs:
        if all(inside(p) for p in leg.route):
            kept.append(leg)
        else:
            dropped += 1
            kept.append(dataclasses.replace(leg, route=(), end_known=False))
    return kept, dropped


def point_along(route: tuple[Point3, ...], fraction: float) -> Point3:
    """The point a fraction of the way along a route (by ground length)."""
    if len(route) == 1:
        return route[0]
    lengths = [((b[0] - a[0]) ** 2 + (b[2] - a[2]) ** 2) ** 0.5
               for a, b in itertools.pairwise(route)]
    total = sum(lengths)
    if total <= 0:
        return route[-1]
    left = max(0.0, min(1.0, fraction)) * total
    for (a, b), length in zip(itertools.pairwise(route), lengths, strict=True):
        if left <= length and length > 0:
            t = left / length
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t,
                    a[2] + (b[2] - a[2]) * t)
        left -= length
    return route[-1]


def damage_marks(turns: tuple[dict[str, Any], ...], legs: list[TurnLeg]) -> list[DamageMark]:
    """Where the player took damage, placed along each turn's route by game time.

    Args:
        turns: The record's turn lines.
        legs: The routes from `turn_legs`, one per turn.

    Returns:
        One mark per damage event on the player.
    """
    marks = []
    for turn, leg in zip(turns, legs, strict=True):
        if not leg.route:
            continue
        for event in (turn.get("result") or {}).get("events") or ():
            if event.get("kind") != "damage_taken" or event.get("subject") != "player":
                continue
            tick = int(event.get("tick", leg.start_tick))
            fraction = (tick - leg.start_tick) / leg.ticks if leg.ticks else 1.0
            # Without a recorded end point the best guess is where the turn began.
            at = point_along(leg.route, fraction) if leg.end_known else leg.route[0]
            marks.append(DamageMark(leg.turn, tick, float(event.get("amount") or 0.0),
                                    event.get("other"), at))
    return marks
