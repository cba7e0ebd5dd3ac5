"""Fighting actions: attack (a character) and shoot_object."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from world.actions.approach import BROKEN_WHY, facing, known_gone, out_of_reach, target_gone
from world.actions.driver import (
    PERCEIVE_TICKS,
    Finish,
    Run,
    Script,
    decided,
    drive,
    perceive_now,
)
from world.actions.follow import HEIGHT_TOLERANCE, Walker
from world.actions.places import Point3, floor_near, on_floor, storey_y
from world.actions.result import ActionResult
from world.actions.returnfire import gun_problem
from world.actions.routes import Route, known_of, plan
from world.actions.timing import explicit, limit_for, route_limit
from world.errors import UnknownIdError
from world.sim.actors import Actor
from world.sim.world import PlayerIntent, World

FIGHT_EXTRA_S = 10.0  # time allowed for firing once the target is in the open
SHOOT_DEFAULT_S = 10.0
RANGE_SHARE = 0.9  # close in until the target is this share of the weapon's range away
REPLAN_MOVE = 60.0  # replan the approach once the target moved this far
LOST_THERE = 40.0  # this near where a target out of view was last seen, it is lost
TARGET_FLOOR = 100.0  # how far from a target the floor to walk to may be


def _fight_problem(world: World) -> str | None:
    return gun_problem(world, world.player)


def _out_of_ammo(world: World) -> Finish | None:
    problem = gun_problem(world, world.player)
    return None if problem is None else Finish("out_of_ammo", problem.capitalize() + ".")


def _plan_to(world: World, point: Point3) -> Route | Finish | None:
    # A route to the floor where the target stands, on the target's storey: the point
    # itself may lie a little off the mesh, where another storey's floor would be found.
    goal = floor_near(world, point, TARGET_FLOOR, on_floor(world, world.player.position))
    if goal is None:
        return None
    return plan(world, world.player.position, goal, use_on_way=True)


class _Seen:
    """A character as the player perceives it during an attack.

    With a session's knowledge, its last sighting (brought up to date every few ticks):
    the walk goes where it was last seen, never after it through walls, and its fall
    counts once seen. Without one, the character as it is.
    """

    def __init__(self, world: World, target: Actor) -> None:
        self.world, self.target = world, target
        self.known = known_of(world)

    def _sighting(self) -> Any:
        return None if self.known is None else self.known.characters.get(self.target.id)

    def now(self) -> bool:
        """Whether it is in view now (seen at the last look, a few ticks at most ago)."""
        s = self._sighting()
        return s is None or (not s.heard and s.tick >= self.world.tick - PERCEIVE_TICKS)

    def where(self) -> Point3:
        """Where to look for it: where it stands while in view, else where last seen."""
        s = self._sighting()
        return self.target.position if s is None or self.now() else tuple(s.position)

    def down(self) -> bool:
        """Whether the player knows it is down (a fall in view is seen at once)."""
        s = self._sighting()
        if s is not None and not s.down and not self.target.alive:
            perceive_now(self.world)
            s = self._sighting()
        return not self.target.alive if s is None else bool(s.down)

    def health(self) -> float:
        """Its health as last perceived."""
        s = self._sighting()
        return self.target.health if s is None else float(s.health)


def attack(world: World, args: Mapping[str, Any]) -> ActionResult:
    """Close in on a character until the line of fire is clear, then fire until it is down.

    Args:
        world: The world.
        args: character_id, time_limit_s.

    Returns:
        The result; attacking a friendly character is refused and nothing runs.
    """
    cid = args["character_id"]
    target = world.actor(cid)
    refs = {"target": cid}
    seen = _Seen(world, target)
    if not world.opposes(target):
        return decided("attack", args, Finish(
            "refused", "{target} is friendly; friendly characters are never attacked.", refs))
    if seen.down():
        return decided("attack", args, Finish("arrived", "{target} is already down.", refs))
    problem = _fight_problem(world)
    if problem is not None:
        return decided("attack", args, Finish("refused", f"Cannot attack: {problem}.", refs))
    player = world.player
    weapon = world.combat.weapon_of(player)
    reach = weapon.range * (1.0 if weapon.melee else RANGE_SHARE)
    first = _plan_to(world, seen.where())
    length = first.path.length if isinstance(first, Route) else 0.0
    limit = limit_for(args, route_limit(length, player.speed, FIGHT_EXTRA_S))

    def in_the_open() -> bool:
        if not target.alive or target.storey != player.storey:
            return False
        d = math.hypot(target.x - player.x, target.z - player.z)
        return d <= reach and world.line_of_sight(player.position, target.position, player.storey)

    def script(run: Run) -> Script:
        walker: Walker | None = None
        aimed_at = seen.where()
        while True:
            if seen.down():
                return Finish("arrived", "{target} is down.", refs)
            empty = _out_of_ammo(world)
            if empty is not None:
                return empty
            if in_the_open():
                walker = None
                run.progress = None
                yield PlayerIntent(fire_at=cid, face=facing(world, (target.x, target.z)))
                continue
            where = seen.where()
            if walker is not None and not seen.now() and walker.progress is not None \
                    and walker.progress < LOST_THERE:
                return Finish("target_gone", "Stopped: {target} is no longer where it was "
                              "last seen.", refs)
            moved = math.hypot(where[0] - aimed_at[0], where[2] - aimed_at[2])
            if walker is None or moved > REPLAN_MOVE or abs(where[1] - aimed_at[1]) > (
                HEIGHT_TOLERANCE
            ):
                aimed_at = where
                planned = _plan_to(world, where)
                if planned is None:
                    return out_of_reach(world, cid)
                if isinstance(planned, Finish):
                    return planned
                walker = Walker(world, planned.path.waypoints[-1], planned, use_on_way=True)
            step = walker.next()
            if isinstance(step, Finish):
                return step
            run.progress = walker.progress
            yield step

    def timeout(run: Run) -> Finish:
        return Finish("gave_up", f"Time ran out with {{target}} still up "
                      f"(health {seen.health():.2f}).", refs)

    return drive(world, "attack", args, script, limit, timeout, tolerate=frozenset({cid}))


def shoot_object(world: World, args: Mapping[str, Any]) -> ActionResult:
    """Aim at an object and fire until it breaks or time runs out.

    Args:
        world: The world.
        args: object_id, time_limit_s.

    Returns:
        The result.
    """
    oid = args["object_id"]
    refs = {"target": oid}
    obj = world.objects.get(oid)
    if obj is None:
        raise UnknownIdError("object", oid, sorted(world.objects))
    # The player's last perceived state decides: a thing broken or taken unseen still
    # stands where it was seen, and the checks below (line of fire from here, range)
    # are asked of that spot; the first tick in sight of it ends as target_gone.
    gone = known_gone(world, oid)
    if gone == BROKEN_WHY:
        return decided("shoot_object", args, Finish("arrived", "{target} is already broken.",
                                                    refs))
    player = world.player
    why = None
    if obj.health is None:
        why = "{target} cannot be broken by gunfire"
    elif gone is not None:
        why = gone
    elif obj.x is None:
        why = "{target} is not standing in the world"
    elif (problem := _fight_problem(world)) is not None:
        why = problem
    elif obj.storey != player.storey:
        rise = storey_y(world, obj.spot[2]) - player.y
        why = (f"{{target}} is on another storey, {abs(rise):.0f} units "
               f"{'above' if rise > 0 else 'below'} the player; shots do not pass floors")
    elif not world.line_of_sight(
        player.position, (obj.spot[0], 0.0, obj.spot[1]), player.storey
    ):
        why = "there is no clear line of fire to {target} from here"
    else:
        distance = math.hypot(obj.spot[0] - player.x, obj.spot[1] - player.z)
        rng = world.combat.weapon_of(player).range
        if distance > rng:
            why = f"{{target}} is {distance:.0f} units away, beyond the weapon's range {rng:.0f}"
    if why is not None:
        return decided("shoot_object", args, Finish("refused", f"Cannot shoot: {why}.", refs))
    limit = limit_for(args, explicit(SHOOT_DEFAULT_S))

    def script(run: Run) -> Script:
        while not obj.broken:
            gone = target_gone(world, oid)
            if gone is not None:
                return gone
            empty = _out_of_ammo(world)
            if empty is not None:
                return empty
            yield PlayerIntent(fire_at=oid, face=facing(world, obj.spot[:2]))
        return Finish("arrived", "{target} broke.", refs)

    def timeout(run: Run) -> Finish:
        return Finish("gave_up", f"Time ran out with {{target}} still standing "
                      f"(health {obj.health:.2f}).", refs)

    return drive(world, "shoot_object", args, script, limit, timeout)
