"""The one tick loop every action runs in.

An executor writes its behaviour as a script: a generator that yields what the player
does next tick (a `PlayerIntent`, or an `Act` when a direct world call must happen just
before the tick) and finally returns a `Finish`. The driver owns everything the actions
share: the time limit, the interrupts, the progress watchdog, return fire (the reflex,
in a fighting action or when the action asks for it: `catalog.reflex_on`), the distance
walked and the window of events.

Precedence when several things happen on one tick: death first, then the script's own
end (a job finished on the tick it was finished is reported as such), then the level's
stage, an objective changing and damage, in the order of `watch.INTERRUPTS`; the
watchdog and the time limit last.

A world refusal before the first tick propagates: the action is invalid and the world
is exactly as it was. After ticks have run it ends the action as `target_gone`, with a
full result.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

from world.actions.catalog import reflex_on
from world.actions.result import ActionResult, DoorBlock, Point3
from world.actions.returnfire import ReturnFire
from world.actions.timing import Limit
from world.actions.trail import Trail
from world.actions.watch import Baseline, ProgressWatchdog, check_interrupts
from world.errors import WorldError
from world.sim.clock import seconds_to_ticks
from world.sim.world import PlayerIntent, World

# The watchdog's window and the least progress (in world units) that window must show,
# as a share of what the walking pace would cover in it.
STUCK_WINDOW_S = 1.5
STUCK_MIN_SHARE = 0.1
STUCK_MIN_UNITS = 20.0
# How often, in ticks, the player takes in its surroundings during an action: what it
# passes on a walk becomes known even when the walk ends out of sight of it.
PERCEIVE_TICKS = 5

def perceive_now(world: World) -> None:
    """Take in the surroundings at once (for a script that must know before the next look)."""
    mind = world.planning.mind
    if mind is not None:
        mind.update(world)


@dataclass(frozen=True)
class Act:
    """A direct world call to make just before a tick, with the intent for that tick."""

    call: Callable[[World], None]
    intent: PlayerIntent | None = None


@dataclass(frozen=True)
class Finish:
    """How a script ends.

    Attributes:
        reason: An end reason name.
        template: The sentence, with `{name}` fields for ids.
        refs: The ids the fields stand for.
        door: The door in the way, for door_closed.
    """

    reason: str
    template: str
    refs: Mapping[str, str] = field(default_factory=dict)
    door: DoorBlock | None = None


Script = Generator["PlayerIntent | Act | None", None, Finish]


class Run:
    """What a script can see of the action it belongs to.

    Attributes:
        world: The world.
        limit: The time limit.
        ticks: Ticks run so far.
        progress: Distance still to go, set by walking scripts for the watchdog; None
            while the script waits on purpose or does not walk.
        segment: Where the player was before and after the last tick.
    """

    def __init__(self, world: World, limit: Limit) -> None:
        """Start an action's bookkeeping at the world's current tick."""
        self.world = world
        self.limit = limit
        self.ticks = 0
        self.progress: float | None = None
        here = world.player.position
        self.segment: tuple[Point3, Point3] = (here, here)

    @property
    def ticks_left(self) -> int:
        """Ticks left before the time limit."""
        return self.limit.ticks - self.ticks


def _split(step: PlayerIntent | Act | None) -> tuple[Callable[[World], None] | None, Any]:
    if isinstance(step, Act):
        return step.call, step.intent
    return None, step


def _with_return_fire(
    intent: PlayerIntent | None, shooter: ReturnFire | None
) -> PlayerIntent | None:
    if shooter is None or (intent is not None and intent.fire_at is not None):
        return intent
    target = shooter.target()
    if target is None:
        return intent
    return dataclasses.replace(intent or PlayerIntent(), fire_at=target, automatic=True)


def drive(
    world: World,
    action: str,
    args: Mapping[str, Any],
    script: Callable[[Run], Script],
    limit: Limit,
    on_timeout: Callable[[Run], Finish],
    adjusted: tuple[Point3, float] | None = None,
    tolerate: frozenset[str] = frozenset(),
) -> ActionResult:
    """Run a script tick by tick until it ends, is interrupted or runs out of time.

    The player shoots back at attackers (`ReturnFire`) only in a fighting action or
    when the arguments ask for it (`catalog.reflex_on`): it never fights unless the
    agent's action is a fighting one or asks to (PROTOCOL.md, "What the player does
    by reflex").

    Args:
        world: The world to advance.
        action: The action's name.
        args: Its arguments, as given.
        script: Makes the generator that decides each tick.
        limit: The time limit.
        on_timeout: Says how the action ended when the time limit is reached.
        adjusted: The moved target and how far it was moved, if it was.
        tolerate: Ids whose damage to the player does not interrupt the action.

    Returns:
        The action's result.
    """
    run = Run(world, limit)
    first_event = len(world.events)
    seen = first_event
    player = world.player
    pace = max(player.speed, 1.0)
    window = seconds_to_ticks(STUCK_WINDOW_S)
    watchdog = ProgressWatchdog(
        window, max(STUCK_MIN_UNITS, STUCK_MIN_SHARE * pace * STUCK_WINDOW_S)
    )
    shooter = ReturnFire(world) if reflex_on(action, args) else None
    mind = world.planning.mind
    trail = Trail(player.position)
    distance = 0.0
    steps = script(run)
    try:
        step = next(steps)
        finish = None
    except StopIteration as stop:
        step, finish = None, stop.value
    while finish is None:
        if run.ticks >= limit.ticks:
            finish = on_timeout(run)
            break
        call, intent = _split(step)
        try:
            if call is not None:
                call(world)
            base = Baseline(player.health, player.armour, tolerate)
            before = player.position
            world.step(_with_return_fire(intent, shooter))
        except WorldError as exc:
            # Before the first tick a refusal is an invalid action and the world is as it
            # was (world calls check before they change anything); once ticks have run,
            # the action has a result like any other.
            if run.ticks == 0:
                raise
            finish = refused_midway(exc)
            break
        run.ticks += 1
        if mind is not None and run.ticks % PERCEIVE_TICKS == 0:
            mind.update(world)
        after = player.position
        run.segment = (before, after)
        trail.add(run.ticks, after)
        distance += math.hypot(after[0] - before[0], after[2] - before[2])
        new_events = world.events.since(seen)
        seen = len(world.events)
        if shooter is not None:
            shooter.observe(new_events)
        interrupt = check_interrupts(world, new_events, base)
        if interrupt is not None and interrupt[0] == "dead":
            finish = Finish(*interrupt)
            break
        try:
            step = steps.send(None)
        except StopIteration as stop:
            finish = stop.value
            break
        except WorldError as exc:
            finish = refused_midway(exc)
            break
        if interrupt is not None:
            finish = Finish(*interrupt)
            break
        if watchdog.feed(run.progress):
            finish = Finish(
                "stuck",
                f"Walked for {STUCK_WINDOW_S:g} s without getting closer "
                f"(still {run.progress:.0f} units to go); something blocks the way.",
            )
            break
    steps.close()
    return ActionResult(
        action=action,
        args=args,
        end_reason=finish.reason,
        ticks=run.ticks,
        distance_moved=distance,
        detail_template=finish.template,
        events=tuple(world.events.since(first_event)),
        adjusted_target=None if adjusted is None else adjusted[0],
        adjusted_by=0.0 if adjusted is None else adjusted[1],
        door=finish.door,
        refs=finish.refs,
        capped=limit.capped,
        time_limit_ticks=limit.ticks,
        path=trail.points() if run.ticks else (),
    )


def refused_midway(exc: WorldError) -> Finish:
    """How an action ends when the world refuses its next step after ticks have run.

    Scripts notice a target that went away themselves; this is the backstop, so that a
    refusal mid-way is never reported as an invalid action after the world has moved.
    """
    why = str(exc).replace("{", "{{").replace("}", "}}")
    return Finish("target_gone", f"Stopped: the next step was no longer possible ({why}).")


def decided(action: str, args: Mapping[str, Any], finish: Finish, **extra: Any) -> ActionResult:
    """A result for an action that ends before any tick runs (refused, unreachable...).

    Args:
        action: The action's name.
        args: Its arguments.
        finish: How it ended.
        **extra: Further `ActionResult` fields (adjusted_target, capped, ...).

    Returns:
        The result, with no ticks, no distance and no events.
    """
    return ActionResult(
        action=action,
        args=args,
        end_reason=finish.reason,
        ticks=0,
        distance_moved=0.0,
        detail_template=finish.template,
        door=finish.door,
        refs=finish.refs,
        **extra,
    )
