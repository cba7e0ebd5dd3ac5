"""Tic-level controllers: turn to a heading, walk waypoints, press use, aim and fire.

Each controller advances the engine one tic at a time through `Play.tic`, which judges
the objectives, keeps the player's knowledge up to date and says whether the action must
stop (the player hurt or dead, an objective changed, the map ended). A controller
returns the end reason of the shipped catalogue.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from world.doom.engine import Snapshot

MAX_TURN = 30.0  # degrees a tic: fast enough, and never overshooting a near target
WALK = 50.0  # forward delta: a steady walk of about 8 units a tic
ARRIVE = 20.0  # a waypoint this close is reached
STUCK_TICS = 70  # over this many tics...
STUCK_MOVE = 24.0  # ...moving less than this is stuck
LOST_TICS = 35  # a target out of sight this long is lost
AIM_TOLERANCE = 4.0  # degrees off a target at which firing hits (Doom aims vertically)
REFIRE_TICS = 20  # a pistol shot's whole cycle, so the next press is a fresh shot


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

    `advance(forward, strafe, turn, attack, use)` steps the engine and returns the
    snapshot; `interrupt()` returns an end reason that stops the action, or None.
    """

    advance: Callable[..., Snapshot]
    interrupt: Callable[[], str | None]
    limit_tics: int
    tics: int = 0
    moved: float = 0.0
    path: list[tuple[float, float]] = field(default_factory=list)

    def tic(self, forward: float = 0.0, strafe: float = 0.0, turn: float = 0.0,
            attack: bool = False, use: bool = False) -> tuple[Snapshot, str | None]:
        """One tic; the snapshot after it and the reason to stop, if any."""
        before = self.last
        snap = self.advance(forward, strafe, turn, attack, use)
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
         last_reach: float = ARRIVE) -> str:
    """Walk the waypoints in order; arrived, stuck, or the interrupting reason."""
    history: list[tuple[float, float]] = [play.last.xy]
    k = 0
    while k < len(waypoints):
        snap = play.last
        target = waypoints[k]
        reach = last_reach if k == len(waypoints) - 1 else ARRIVE
        if math.dist(snap.xy, target) <= reach:
            k += 1
            continue
        delta = turn_delta(snap, heading_to(snap, target))
        # Walk only roughly facing the target, slower when close, so corners are not cut.
        speed = WALK if abs(delta) < 20 else (WALK / 3 if abs(delta) < 60 else 0.0)
        if math.dist(snap.xy, target) < 40:
            speed = min(speed, WALK * 0.6)
        press = use_on_way and play.tics % 12 == 6
        snap, reason = play.tic(forward=speed, turn=delta, use=press)
        history.append(snap.xy)
        if reason is not None:
            return reason
        if len(history) > STUCK_TICS and math.dist(history[-STUCK_TICS], snap.xy) < STUCK_MOVE:
            return "stuck"
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


def aim_and_fire(play: Play, where: Callable[[], tuple[float, float] | None],
                 sees: Callable[[tuple[float, float]], bool],
                 loaded: Callable[[], bool]) -> str:
    """Turn toward a target and fire while aligned, until it is gone or the action stops.

    `where` gives the target's position now, or None once it is down or gone; a target
    out of sight for a second ends the fire as `target_gone` (nothing to shoot at), an
    empty weapon as `out_of_ammo`.
    """
    unseen = 0
    while True:
        spot = where()
        if spot is None:
            return "arrived"
        unseen = 0 if sees(spot) else unseen + 1
        if unseen > LOST_TICS:
            return "target_gone"
        if not loaded():
            return "out_of_ammo"
        delta = turn_delta(play.last, heading_to(play.last, spot))
        _, reason = play.tic(turn=delta, attack=play.trigger(abs(delta) <= AIM_TOLERANCE
                                                             and not unseen))
        if reason is not None:
            return reason
