"""A character's mind: what it knows, what it is doing and where it is walking.

The actor (position, health, weapon) belongs to the world; the mind is the system's own
state beside it, folded into the state hash through `Mind.state_items`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from world.characters.alertness import LEVEL_NAMES, rank_of

Point3 = tuple[float, float, float]

NEVER = -(10**9)


@dataclass(eq=False)
class Mind:
    """Runtime state of one character's behaviour.

    Attributes:
        id: The character's id (the actor's id).
        index: Position in the stable think order; staggers decisions across ticks.
        behaviour: The level's behaviour name (guard, patrol, follow_player, ...).
        hostile: Whether the character fights the player.
        post: Where the character started (x, y, z), where guards return to.
        post_storey: Storey of the post.
        post_facing: Heading at the post, in radians.
        route: Route points (x, z) for patrols and route walkers.
        route_storeys: Storey of each route point.
        meter: Alertness meter in [0, 1] (see `alertness`); change it with `set_meter`.
        rank: Alertness rank the meter gives (index into the alertness table).
        last_stimulus: Tick of the last sight, sound or hit.
        last_update: Tick the meter was last brought up to date.
        sees: Whether the player was in view at the last look.
        last_known: Where the player (or the noise) was last perceived.
        activity: What the character is doing now (a key of the activity tables).
        route_index: Next route point to walk to.
        until: Tick at which the current activity's timer runs out.
        following: Whether the character follows the player.
        target: Id of the actor it fights (the player, or another bot in an arena).
        next_shot: Earliest tick for the next shot.
        burst_left: Shots left in the current burst (bosses).
        waypoints: Remaining (x, z) waypoints of the current path, nearest first.
        path_goal: Goal of the current path.
        doors: Doors the current path passes, in order.
        frags: Opponents this character has put down (arena).
        respawn_at: Tick at which a downed bot comes back (None: not waiting).
        done: Whether a route walker has reached its destination.
        stall: Headway toward the current waypoint (waypoint x, z, closest distance,
            tick it was reached, stalls so far on this walk), or None when not walking.
        settled: What the last decision read, kept when it settled the mind so that the
            next decisions are skipped while it stays the same (see `settle`); derived
            state, so not part of the hash.
        plans: The latest paths planned, by (goal, doors shut, storey): (start x, z,
            waypoints, doors passed); one is walked again when asked for from about
            the same start (see `walker.plan`).
        glance: The last look for the player: (eye and scene, seen, distance fraction),
            reused while neither changes (derived state, not part of the hash).
    """

    id: str
    index: int
    behaviour: str
    hostile: bool
    post: Point3
    post_storey: str
    post_facing: float
    route: tuple[tuple[float, float], ...] = ()
    meter: float = 0.0
    rank: int = 0
    last_stimulus: int = NEVER
    last_update: int = 0
    sees: bool = False
    last_known: Point3 | None = None
    activity: str = "routine"
    route_index: int = 0
    until: int = 0
    following: bool = False
    target: str | None = None
    next_shot: int = 0
    burst_left: int = 0
    waypoints: list[tuple[float, float]] = field(default_factory=list)
    path_goal: Point3 | None = None
    doors: tuple[str, ...] = ()
    frags: int = 0
    respawn_at: int | None = None
    done: bool = False
    stall: tuple[float, float, float, int, int] | None = None
    settled: tuple | None = None
    glance: tuple | None = None
    plans: dict[tuple, tuple] = field(default_factory=dict)

    def set_meter(self, value: float) -> bool:
        """Set the alertness meter (clamped to [0, 1]); returns whether the rank changed."""
        self.meter = min(1.0, max(0.0, value))
        rank = rank_of(self.meter)
        changed = rank != self.rank
        self.rank = rank
        return changed

    @property
    def alertness(self) -> str:
        """Alertness level name."""
        return LEVEL_NAMES[self.rank]

    def clear_path(self) -> None:
        """Forget the current path."""
        self.waypoints = []
        self.path_goal = None
        self.doors = ()

    def state_items(self) -> tuple:
        """Everything about the mind that determines what it does next."""
        return (
            self.id, round(self.meter * 1e6), self.last_stimulus, self.last_update, self.sees,
            None if self.last_known is None else tuple(round(c * 100) for c in self.last_known),
            self.activity, self.route_index, self.until, self.following, self.target,
            self.next_shot, self.burst_left,
            tuple((round(x * 100), round(z * 100)) for x, z in self.waypoints),
            self.doors, self.frags, self.respawn_at, self.done,
            None if self.stall is None else (round(self.stall[2] * 100), *self.stall[3:]),
            tuple((round(p[0][0] * 100), round(p[0][1] * 100)) for p in self.plans.values()),
        )
