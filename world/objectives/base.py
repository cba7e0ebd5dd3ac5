"""The verifier contract shared by every objective kind, and the world view it reads.

A verifier judges one objective of one episode from the world's own state and event
stream, never from anything the agent says. The objectives system calls `observe` once
per tick while the objective is open and asks for `progress` and `target` only when a
report is built, so the expensive navigation-mesh queries stay off the hot path.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Protocol

from world.level.model import CharacterTemplate, Difficulty, Level, Objective
from world.navmesh.query import PathFinder
from world.sim.events import Event

TODO = "todo"
DONE = "done"
FAILED = "failed"

# status -> what it means, shown in documentation and checked by tests.
STATUSES: dict[str, str] = {
    TODO: "still open: neither achieved nor lost (held conditions stay here while held)",
    DONE: "achieved; it stays done",
    FAILED: "lost for good; it stays failed",
}

Point3 = tuple[float, float, float]

# What can change a verdict besides events (a verifier's `wakes`, weakest first).
EVENTS = 0  # judged again only when something was recorded
PLAYER = 1  # ... or when the player moved
CLOCK = 2  # every tick
# The events that bring a character into play (verdicts over "every hostile" read them).
SPAWNS = ("character_spawned", "reinforcement_spawned", "character_respawned")


class ActorView(Protocol):
    """What verifiers read of an actor (the player or a character)."""

    id: str
    side: str
    x: float
    y: float
    z: float
    storey: str
    area: str
    health: float
    max_health: float
    alive: bool
    inventory: list[str]
    template: CharacterTemplate | None  # None for the player

    def distance_to(self, x: float, z: float) -> float:
        """Ground distance from the actor to a point."""
        ...


class EventStream(Protocol):
    """The world's event log as objectives read it."""

    def since(self, index: int) -> list[Event]:
        """Events recorded at or after position `index`."""
        ...

    def __len__(self) -> int: ...


class WorldView(Protocol):
    """The part of the World that objectives read and the few calls they make."""

    tick: int
    level: Level
    difficulty: Difficulty
    ended: str | None
    judge: Any  # the objectives system once installed
    teleports: int  # instant moves so far (they record no event)

    # Read-only here (objectives never replace them), so the world's own richer types fit.
    @property
    def player(self) -> ActorView:
        """The player."""
        ...

    @property
    def characters(self) -> Mapping[str, ActorView]:
        """The characters by id."""
        ...

    @property
    def events(self) -> EventStream:
        """The world's event log."""
        ...

    @property
    def objects(self) -> Mapping[str, Any]:
        """The objects' runtimes by id (read for a note's `read_tick`)."""
        ...

    @property
    def time_s(self) -> float:
        """Game seconds since the start."""
        ...

    @property
    def paths(self) -> PathFinder:
        """The path finder over the level's navigation mesh."""
        ...

    def emit(self, kind: str, subject: str, other: str | None = None,
             amount: float | None = None, detail: str | None = None) -> None:
        """Record an event at the current tick."""
        ...

    def end(self, reason: str) -> None:
        """End the world for a reason (the first reason given stays)."""
        ...

    def add_system(self, name: str, system: Any, order: int,
                   state: Callable[[], tuple] | None = None) -> None:
        """Register a system that runs every tick (with its state for the hash)."""
        ...

    def systems(self) -> Iterator[tuple[str, Any]]:
        """The registered systems as (name, system) pairs."""
        ...

    def start_countdown(self, countdown_id: str) -> None:
        """Start one of the level's countdowns now."""
        ...


def clamp01(value: float) -> float:
    """Clamp a number into 0..1 (NaN counts as 0)."""
    if math.isnan(value):
        return 0.0
    return min(1.0, max(0.0, value))


def position(actor: ActorView) -> Point3:
    """The actor's (x, y, z) position."""
    return (actor.x, actor.y, actor.z)


class Verifier:
    """Base class of one objective's judge; subclasses are registered per kind.

    Subclasses override `observe` and usually `progress` and `target`. A verifier may
    keep its own running state (timers, counters); the system owns the status.

    Attributes:
        kind: The objective kind of the level schema this class judges (the registry's
            key; every kind declares its own).
        wakes: What can change its verdict, target or progress besides events: EVENTS,
            PLAYER (the player's position) or CLOCK (time, others' positions); see
            `world.objectives.triggers`.
        reads: The event kinds after which its verdict can differ (those it scans and
            those that come with every change of the state it re-checks); None: any.
        character_side: The side its `characters` must be on, or None for any (the
            level checker enforces it).
        object_kinds: The object kinds its `object` may name, or None for any (the
            level checker enforces it).
        description: What finishes an objective of this kind, in one sentence (the
            protocol's table of objective kinds shows it); every kind declares its own,
            here only (its docstring says how it is judged).
        standing: True for conditions that hold until broken (protect, stay unseen,
            no alarm): they are never done by themselves; they fail when broken and
            are judged done when the mission succeeds with them still held. A class
            default that an instance may override (a follow with no destination).
        passive: True for objectives that time alone can hold or fulfil (every
            standing condition, and survive): the score caps their credit at the work
            achieved alongside them, so an agent that only waits earns nothing.
        objective: The level's record of this objective.
    """

    kind: ClassVar[str]
    wakes: ClassVar[int]
    reads: ClassVar[frozenset[str] | None]
    character_side: ClassVar[str | None] = None
    object_kinds: ClassVar[frozenset[str] | None] = None
    description: ClassVar[str] = ""
    standing: bool = False
    passive: bool = False

    def __init__(self, objective: Objective, world: WorldView) -> None:
        """Prepare the verifier at the start of the episode.

        Args:
            objective: The objective to judge.
            world: The world at its first tick (for start positions and sets).
        """
        self.objective = objective

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Judge one tick.

        Args:
            world: The world after this tick's simulation.
            events: Events recorded since the previous call (this tick's, usually).
            ready: Whether every objective this one follows (`after`) is done. One-off
                acts (a press, a gadget use) only count while ready; states (an item
                held, an object destroyed) are re-checked every tick.

        Returns:
            DONE or FAILED when the objective changes, None while it stays open. The
            system ignores DONE while not ready.
        """
        return None

    def progress(self, world: WorldView) -> float:
        """Partial credit in 0..1 while the objective is open (done is 1, failed 0)."""
        return 0.0

    def target(self, world: WorldView) -> Point3 | None:
        """A fixed place the player should head for, or None when there is none."""
        return None

    def steps(self, world: WorldView) -> float:
        """The share of the objective's own discrete steps done, 0..1, while it is open.

        For the stages figure (`world.objectives.stages`): targets down, frags, points
        passed, never harm dealt to one still standing nor distance walked; 0 for a kind
        whose only step is the act that completes it.
        """
        return 0.0
