"""Tic-level controllers: turn to a heading, walk waypoints, press use, aim and fire.

Each controller advances the engine one tic at a time through `Play.tic`, which judges
the objectives, keeps the player's knowledge up to date and says whether the action must
stop (the player hurt or dead, an objective changed, the map ended). A controller
returns the end reason of the shipped catalogue. Walks and waits move through
`Play.go`, which carries return fire when the action fights or asks for it
(world/doom/returnfire.py, `catalog.reflex_on`): with a
monster to answer, the player faces and fires at it while his feet keep to the walk,
forward and sideways thrust split along the way (Doom strafes as fast as it walks).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from world.doom.engine import TICS_PER_SECOND, Snapshot, Thing
from world.doom.returnfire import (
    BITERS,
    MELEE_FIRE,
    ReturnFire,
    clear_of_barrels,
    rounds,
    worth_a_shot,
)

MAX_TURN = 30.0  # degrees a tic: fast enough, and never overshooting a near target
WALK = 50.0  # forward delta: a steady walk of about 8 units a tic
ARRIVE = 20.0  # a waypoint this close is reached
STUCK_TICS = 70  # over this many tics...
STUCK_MOVE = 24.0  # ...moving less than this is stuck
LOST_TICS = TICS_PER_SECOND  # a target out of sight a second is lost
AIM_TOLERANCE = 4.0  # degrees off a target at which firing hits (Doom aims vertically)
BACK_OFF = 128.0  # a biting monster nearer than this is backed away from while firing
REPLAN_TICS = 5  # tics between asks whether a walk must be planned again
REFIRE_TICS = 20  # a pistol shot's whole cycle, so the next press is a fresh shot
SIDESTEP_TICS = TICS_PER_SECOND  # a fight's sidestep turns back every second
SIDESTEP_LOOK = 48.0  # the floor this far to the side is tested before stepping there
# Bearings off straight back (degrees) tried in turn when backing away from a biter, and
# the distances along each whose floor must be clear (a wall, a drop, harm).
BACK_TURNS = (0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0)
BACK_LOOK = (24.0, 48.0, 72.0)
BODY = 48.0  # a point this near another monster is no room to back into
SWITCH_MARGIN = 24.0  # a biter this much nearer than the target is answered first


def heading_to(snap: Snapshot, point: tuple[float, float]) -> float:
    """Degrees from the player to a point (0 along +x, counter-clockwise)."""
    return math.degrees(math.atan2(point[1] - snap.xy[1], point[0] - snap.xy[0]))


def turn_delta(snap: Snapshot, heading: float) -> float:
    """The turn this tic toward a heading, clamped."""
    off = (heading - snap.angle + 180) % 360 - 180
    return max(-MAX_TURN, min(MAX_TURN, off))


@dataclass
class Play:
    """One action's run: the tic function, its limit, and what it has done so far.

    `advance(forward, strafe, turn, attack, use, select)` steps the engine and returns the
    snapshot; `interrupt()` returns an end reason that stops the action, or None.
    """

    advance: Callable[..., Snapshot]
    interrupt: Callable[[], str | None]
    limit_tics: int
    tics: int = 0
    moved: float = 0.0
    path: list[tuple[float, float]] = field(default_factory=list)

    def tic(self, forward: float = 0.0, strafe: float = 0.0, turn: float = 0.0,
            attack: bool = False, use: bool = False,
            select: int = 0) -> tuple[Snapshot, str | None]:
        """One tic; the snapshot after it and the reason to stop, if any."""
        before = self.last
        snap = self.advance(forward, strafe, turn, attack, use, select)
        self.tics += 1
        self.moved += math.dist(before.xy, snap.xy)
        if self.tics % 5 == 0:
            self.path.append(snap.xy)
        self.last = snap
        reason = self.interrupt()
        if reason is None and self.tics >= self.limit_tics:
            reason = "gave_up"
        return snap, reason

    last: Snapshot = None  # type: ignore[assignment]
    pressed_at: int = -REFIRE_TICS
    reflex: ReturnFire | None = None
    # Whether a use press now cannot send a door in reach back shut (see `walk`).
    may_use: Callable[[], bool] = lambda: True
    # Whether the player may step to a point: level floor, no drop, nothing that hurts.
    footing: Callable[[tuple[float, float]], bool] = lambda point: True
    side: int = 1  # the way a fight sidesteps: 1 to the right, -1 to the left
    back_turn: float | None = None  # the bearing off straight back a retreat keeps

    def go(self, heading: float | None, speed: float, *,
           use: bool = False) -> tuple[Snapshot, str | None]:
        """One tic moving along a map heading (None: standing), with return fire.

        With no monster to answer, the player turns toward the heading and walks only
        roughly facing it (so corners are not cut); with one, he turns to it and fires
        when aligned while the thrust is split into forward and sideways parts.
        """
        snap = self.last
        target = self.reflex.target(snap) if self.reflex is not None else None
        if target is None:
            if heading is None:
                return self.tic(use=use)
            delta = turn_delta(snap, heading)
            pace = speed if abs(delta) < 20 else (speed / 3 if abs(delta) < 60 else 0.0)
            return self.tic(forward=pace, turn=delta, use=use)
        off = _off(snap, (target.x, target.y))
        fire = self.trigger(abs(off) <= AIM_TOLERANCE and clear_of_barrels(snap, target))
        forward = strafe = 0.0
        if heading is not None:
            rel = math.radians(heading - snap.angle)
            # Strafe's positive delta is to the right: clockwise of the facing.
            forward, strafe = speed * math.cos(rel), -speed * math.sin(rel)
        return self.tic(forward, strafe, max(-MAX_TURN, min(MAX_TURN, off)), fire, use)

    def trigger(self, aimed: bool) -> bool:
        """Whether to press attack this tic: aimed, and only once the last shot is done.

        Held fire re-fires with Doom's spread; a press every REFIRE_TICS lets each shot
        go as a first, accurate one.
        """
        if aimed and self.tics - self.pressed_at >= REFIRE_TICS:
            self.pressed_at = self.tics
            return True
        return False


def walk(play: Play, waypoints: list[tuple[float, float]], *, use_on_way: bool = False,
         last_reach: float = ARRIVE, replan: Callable[[], bool] | None = None) -> str:
    """Walk the waypoints in order; arrived, stuck, or the interrupting reason.

    `replan()`, asked every few tics, ends the walk as "replan" (for the caller to plan
    again) when what the route was planned around has changed.
    """
    history: list[tuple[float, float]] = [play.last.xy]
    k = 0
    while k < len(waypoints):
        snap = play.last
        target = waypoints[k]
        reach = last_reach if k == len(waypoints) - 1 else ARRIVE
        if math.dist(snap.xy, target) <= reach:
            k += 1
            continue
        # Slower when close, so corners are not cut.
        speed = WALK * 0.6 if math.dist(snap.xy, target) < 40 else WALK
        # A door used while opening or open shuts again: presses wait until none is.
        press = use_on_way and play.tics % 12 == 6 and play.may_use()
        snap, reason = play.go(heading_to(snap, target), speed, use=press)
        history.append(snap.xy)
        if reason is not None:
            return reason
        if len(history) > STUCK_TICS and math.dist(history[-STUCK_TICS], snap.xy) < STUCK_MOVE:
            return "stuck"
        if replan is not None and play.tics % REPLAN_TICS == 0 and replan():
            return "replan"
    return "arrived"


def face(play: Play, point: tuple[float, float], tolerance: float = 2.0) -> str | None:
    """Turn until facing a point; None when facing it, else the stopping reason."""
    for _ in range(30):
        delta = turn_delta(play.last, heading_to(play.last, point))
        if abs(delta) <= tolerance:
            return None
        _, reason = play.tic(turn=delta)
        if reason is not None:
            return reason
    return None


def press_use(play: Play, tics: int = 4) -> str | None:
    """Hold use for a few tics (Doom acts on the first); the stopping reason, if any."""
    for k in range(tics):
        _, reason = play.tic(use=k == 0)
        if reason is not None:
            return reason
    return None


def aim_and_fire(play: Play, where: Callable[[], Thing | None],
                 sees: Callable[[tuple[float, float]], bool]) -> str:
    """Turn toward a monster and fire while aligned, until it is down or the action stops.

    `where` gives the monster now, or None once it is down or gone; one out of sight for
    a second ends the fire as `target_gone` (nothing to shoot at), an empty weapon as
    `out_of_ammo`. A biting monster is let come close while rounds are few
    (`worth_a_shot`), and another one about to bite is shot first: the reflex of return
    fire.
    """
    unseen = 0
    while True:
        monster = where()
        if monster is None:
            return "arrived"
        snap = play.last
        spot = (monster.x, monster.y)
        unseen = 0 if sees(spot) else unseen + 1
        if unseen > LOST_TICS:
            return "target_gone"
        if snap.counters["SELECTED_WEAPON"] > 1 and snap.counters["SELECTED_WEAPON_AMMO"] <= 0:
            return "out_of_ammo"
        other = play.reflex.target(snap) if play.reflex is not None else None
        near = math.dist(snap.xy, (other.x, other.y)) if other is not None else math.inf
        if other is not None and other.id != monster.id and near <= MELEE_FIRE \
                and near < math.dist(snap.xy, spot) - SWITCH_MARGIN:
            # Another one about to bite, nearer than the target: it is shot (and backed
            # away from) first.
            monster, spot, unseen = other, (other.x, other.y), 0
        off = _off(snap, spot)
        aimed = abs(off) <= AIM_TOLERANCE and not unseen and worth_a_shot(snap, monster) \
            and clear_of_barrels(snap, monster)
        # A biting monster this close is backed away from while firing: the player runs
        # faster than any of them, and each step back is a shot more before it bites.
        if monster.name in BITERS and math.dist(snap.xy, spot) < BACK_OFF \
                and rounds(snap) != math.inf:
            forward, strafe = back_off(play, spot)
        else:
            forward, strafe = 0.0, _sidestep(play, monster)
        _, reason = play.tic(forward=forward, strafe=strafe,
                             turn=max(-MAX_TURN, min(MAX_TURN, off)), attack=play.trigger(aimed))
        if reason is not None:
            return reason


def back_off(play: Play, spot: tuple[float, float]) -> tuple[float, float]:
    """Forward and sideways thrust this tic away from a biting monster at a spot.

    Straight back when the floor behind is clear; else the nearest bearing off it that
    is (back and aside, then aside: circling the monster), so the player does not back
    into a wall or a corner and stand there bitten. The bearing taken is kept while
    its floor stays clear, so the retreat does not swing from tic to tic.
    """
    snap = play.last
    away = heading_to(snap, spot) + 180.0
    turns = ([play.back_turn] if play.back_turn is not None else []) + list(BACK_TURNS)
    # Monsters are solid: a retreat past another one is stopped by it (and bitten).
    others = [(t.x, t.y) for t in snap.things if t.category == "Monster"
              and math.dist((t.x, t.y), spot) > 1.0
              and math.dist((t.x, t.y), snap.xy) < BACK_LOOK[-1] + BODY]
    best, clear = None, 0
    for turn in turns:
        heading = math.radians(away + turn)
        free = 0
        for reach in BACK_LOOK:
            point = (snap.xy[0] + reach * math.cos(heading),
                     snap.xy[1] + reach * math.sin(heading))
            if not play.footing(point) or any(math.dist(point, o) < BODY for o in others):
                break
            free += 1
        if free > clear:
            best, clear = turn, free
        if free == len(BACK_LOOK):
            break
    # With no bearing clear all the way (a corner), the one clear farthest still gains
    # a step or two: standing still is bitten for certain.
    play.back_turn = best if clear == len(BACK_LOOK) else None
    if best is None:
        return 0.0, 0.0
    rel = math.radians(away + best - snap.angle)
    return WALK * math.cos(rel), -WALK * math.sin(rel)


def _sidestep(play: Play, monster: Thing) -> float:
    """Strafe thrust this tic: a duel at range is fought stepping side to side.

    Fireballs fly at about ten units a tic toward where the player stood when they left,
    so a player moving sideways is missed; the step turns back every second, and at once
    where the floor to that side drops, rises, hurts or ends. Biters are backed away from
    instead.
    """
    if monster.name in BITERS:
        return 0.0
    snap = play.last
    if play.tics % SIDESTEP_TICS == 0:
        play.side = -play.side
    if play.tics % 4 == 0:
        for _ in range(2):
            heading = math.radians(snap.angle - 90 * play.side)
            ahead = (snap.xy[0] + SIDESTEP_LOOK * math.cos(heading),
                     snap.xy[1] + SIDESTEP_LOOK * math.sin(heading))
            if play.footing(ahead):
                break
            play.side = -play.side
        else:
            play.side = 0
    if play.side == 0:
        play.side = 1 if play.tics % SIDESTEP_TICS == 0 else 0
    return WALK * play.side


def _off(snap: Snapshot, point: tuple[float, float]) -> float:
    # Degrees to turn (counter-clockwise positive) to face a point, unclamped.
    return (heading_to(snap, point) - snap.angle + 180) % 360 - 180
