"""Following a planned route tick by tick: waypoints, doors to open, replanning.

The walker is shared by every action that walks. Each tick it answers with the intent
for the next tick, or with a `Finish` when the way is shut. It replans whenever the set
of doors it takes for shut changes (a door it opened finished opening, a door closed
ahead), so the route always matches the doors as the player perceives them. A door on
the route that turns out shut when it comes into sight, and that the walk may not open,
ends the walk as door_closed at that door: the player planned through it as last seen.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Generator

from world.actions.driver import Finish, Run
from world.actions.places import FLOOR_TOLERANCE, Point3
from world.actions.routes import Route, blocked_doors, describe_door, doors_crossed, plan
from world.sim.clock import TICKS_PER_SECOND
from world.sim.world import PlayerIntent, World

# Within this distance (plus one tick of walking) a waypoint counts as passed.
WAYPOINT_SLACK = 2.0
# A target counts as reached in height when the floor is this close to it.
HEIGHT_TOLERANCE = FLOOR_TOLERANCE


def ground_distance(p: Point3, q: Point3) -> float:
    """Distance in the ground plane between two 3D points."""
    return math.hypot(p[0] - q[0], p[2] - q[2])


def segment_distance(a: Point3, b: Point3, target: Point3) -> float:
    """Ground distance from a target to the segment a-b (the last tick's movement)."""
    ex, ez = b[0] - a[0], b[2] - a[2]
    length2 = ex * ex + ez * ez
    t = 0.0 if length2 == 0 else ((target[0] - a[0]) * ex + (target[2] - a[2]) * ez) / length2
    t = min(1.0, max(0.0, t))
    return math.hypot(a[0] + t * ex - target[0], a[2] + t * ez - target[2])


def level_with(p: Point3, q: Point3) -> bool:
    """Whether two points stand on the same floor (their heights within tolerance)."""
    return abs(p[1] - q[1]) <= HEIGHT_TOLERANCE


def reached(run: Run, target: Point3, radius: float) -> bool:
    """Whether the last tick's movement came within `radius` of the target on its floor.

    The whole segment walked during the tick is tested, so a fast walker cannot step
    over a small target; the height must match too, so a point on the storey above
    does not count.
    """
    a, b = run.segment
    if abs(b[1] - target[1]) > HEIGHT_TOLERANCE:
        return False
    return segment_distance(a, b, target) <= radius


class Walker:
    """Walks the player along a route toward a goal, opening doors where asked."""

    def __init__(self, world: World, goal: Point3, route: Route, use_on_way: bool) -> None:
        """Start following a route planned toward `goal`."""
        self.world = world
        self.goal = goal
        self.use_on_way = use_on_way
        self.progress: float | None = None
        self._seen = len(world.events)
        self._pressed: set[str] = set()
        self._take(route)

    def _take(self, route: Route) -> None:
        self.route = route
        self.points = route.path.waypoints
        self.index = 1 if len(self.points) > 1 else 0
        self._storey = self.world.player.storey

    def _off_route(self) -> bool:
        # The player changed storey where the route does not (a fall, a push onto a
        # flight): the legs ahead belong to another floor, so the route no longer fits.
        player = self.world.player
        if player.storey == self._storey:
            return False
        self._storey = player.storey
        a, b = self.points[self.index - 1 if self.index else 0], self.points[self.index]
        low, high = min(a[1], b[1]), max(a[1], b[1])
        return not low - HEIGHT_TOLERANCE <= player.y <= high + HEIGHT_TOLERANCE

    def _remaining(self) -> float:
        p = self.world.player.position
        target = self.points[self.index]
        # Standing right under or over the next waypoint still leaves the climb to go.
        left = ground_distance(p, target) + max(0.0, abs(p[1] - target[1]) - HEIGHT_TOLERANCE)
        for i in range(self.index + 1, len(self.points)):
            left += ground_distance(self.points[i - 1], self.points[i])
        return left

    def _refused(self) -> str | None:
        world, pid = self.world, self.world.player.id
        events = world.events.since(self._seen)
        self._seen = len(world.events)
        for e in events:
            if e.kind == "door_refused" and e.other == pid and e.subject in self._pressed:
                return e.subject
        return None

    def replan(self) -> Finish | None:
        """Plan again from where the player stands; a Finish when no way is left."""
        world = self.world
        planned = plan(world, world.player.position, self.goal, self.use_on_way)
        if planned is None:
            return Finish("unreachable", "The way to the target is gone; no floor route is left.")
        if isinstance(planned, Finish):
            return planned
        self._take(planned)
        return None

    def _found_shut(self, blocked: frozenset[str]) -> str | None:
        # The first door on the route ahead that now looks shut and that this walk will
        # not open (no use_on_way, or the player cannot open it), else None.
        world = self.world
        new = blocked - self.route.blocked - set(self.route.opens)
        if not new:
            return None
        mine = blocked_doors(world, player_opens=True) if self.use_on_way else blocked
        # Only the route still ahead: from where the player stands on.
        points = (world.player.position, *self.points[self.index:])
        ahead = dataclasses.replace(self.route.path, waypoints=points, doors=())
        crossed = doors_crossed(world, ahead, frozenset(new & mine))
        return crossed[0] if crossed else None

    def _door_step(self) -> PlayerIntent | None:
        # Doors this route opens: press use once in reach, then wait while one opens.
        world, player = self.world, self.world.player
        for door_id in self.route.opens:
            gate = world.doors[door_id]
            if not gate.blocking or not world.within_reach(player, door_id):
                continue
            if gate.state in ("closed", "locked", "closing") and door_id not in self._pressed:
                self._pressed.add(door_id)
                return PlayerIntent(use=door_id)
            if gate.state in ("opening", "closed", "locked"):
                return PlayerIntent()
        return None

    def next(self) -> PlayerIntent | Finish:
        """The intent for the next tick, or how the walk ends because the way is shut."""
        world, player = self.world, self.world.player
        refused = self._refused()
        if refused is not None:
            return describe_door(world, refused)
        blocked = blocked_doors(world)
        if blocked != self.route.blocked:
            ahead = self._found_shut(blocked)
            if ahead is not None:
                return describe_door(world, ahead)
        if blocked != self.route.blocked or self._off_route():
            shut = self.replan()
            if shut is not None:
                return shut
        waiting = self._door_step()
        if waiting is not None:
            self.progress = None
            return waiting
        slack = player.speed / TICKS_PER_SECOND + WAYPOINT_SLACK
        here = player.position
        # A waypoint is passed only on its own floor: storeys often repeat one plan, so
        # a point of the route upstairs can lie right above where the player walks now.
        while self.index < len(self.points) - 1 and (
            ground_distance(here, self.points[self.index]) <= slack
            and level_with(here, self.points[self.index])
        ):
            self.index += 1
        self.progress = self._remaining()
        target = self.points[self.index]
        return PlayerIntent(move_to=(target[0], target[2]))


def walk(
    run: Run,
    walker: Walker,
    done: Callable[[], Finish | None],
    extra: Callable[[PlayerIntent], PlayerIntent] | None = None,
) -> Generator[PlayerIntent, None, Finish]:
    """Walk until `done` says how the walk ended, or the walker finds the way shut.

    Args:
        run: The action's run.
        walker: The walker to follow.
        done: Checked before each tick: a Finish once the goal is reached.
        extra: Optional change to each intent (firing on the way).

    Yields:
        The intent for each tick.

    Returns:
        How the walk ended.
    """
    while True:
        finish = done()
        if finish is not None:
            return finish
        step = walker.next()
        if isinstance(step, Finish):
            return step
        run.progress = walker.progress
        yield step if extra is None else extra(step)
