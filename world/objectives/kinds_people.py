"""Verifiers for objectives about characters, and the arena's frag race.

Neutralise, protect, escort, follow and intercept name characters; frags counts who
put whom down.

A character listed by an objective but absent from the episode (it appears only from a
higher difficulty) is treated as never there: nothing to neutralise, nothing to lose.
"""

from __future__ import annotations

from collections.abc import Sequence

from world.level.model import Objective
from world.objectives.base import (
    CLOCK,
    DONE,
    EVENTS,
    FAILED,
    SPAWNS,
    ActorView,
    Point3,
    Verifier,
    WorldView,
    clamp01,
    position,
)
from world.objectives.route import PLACE_AREA, PLACE_OBJECTIVE, RouteMeter, area_anchor
from world.sim.actors import PLAYER_ID
from world.sim.clock import seconds_to_ticks
from world.sim.events import Event


def _present(world: WorldView, ids: Sequence[str]) -> list[ActorView]:
    """The listed characters that exist in this episode, in list order."""
    return [world.characters[i] for i in ids if i in world.characters]


def _harm(actor: ActorView) -> float:
    """How far an actor is from standing to down, 0..1 (down is 1)."""
    if not actor.alive:
        return 1.0
    top = actor.max_health or 1.0
    return clamp01(1.0 - actor.health / top)


def _down_share(actors: Sequence[ActorView]) -> float:
    """The share of the actors that are down (0 when there are none)."""
    return sum(not a.alive for a in actors) / len(actors) if actors else 0.0


def destination_of(actor: ActorView) -> str | None:
    """The area a character walks to: its destination, else its route's last place."""
    template = actor.template
    if template is None:
        return None
    if template.destination:
        return template.destination
    return template.route[-1].area if template.route else None


class Neutralise(Verifier):
    """Judge of `neutralise` objectives; `description` says what finishes one.

    The zone's hostiles are those inside it at the start plus any standing in it now,
    so one that walks out still has to be dealt with. Down is a lasting state, so the
    objective completes as soon as it is ready.
    """

    kind = "neutralise"
    wakes = EVENTS
    reads = frozenset({"actor_down", "area_entered", *SPAWNS})
    character_side = "hostile"
    description = "Take down the listed characters and, with a zone, every hostile in it."

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.zone = objective.area
        ids = list(objective.characters)
        if self.zone is not None:
            ids += [
                c.id for _, c in sorted(world.characters.items())
                if c.side == "hostile" and c.alive and c.area == self.zone and c.id not in ids
            ]
        self.ids = tuple(ids)

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Done while ready, every listed one is down and no live hostile is in the zone."""
        if not ready or any(c.alive for c in _present(world, self.ids)):
            return None
        if self.zone is not None and any(
            c.alive and c.side == "hostile" and c.area == self.zone
            for c in world.characters.values()
        ):
            return None
        return DONE

    def progress(self, world: WorldView) -> float:
        """Mean harm over the targets: a wounded boss is partly dealt with."""
        targets = _present(world, self.ids)
        return sum(_harm(c) for c in targets) / len(targets) if targets else 0.0

    def steps(self, world: WorldView) -> float:
        """The share of the targets down (a wounded one is no step)."""
        return _down_share(_present(world, self.ids))


class Protect(Verifier):
    """Judge of `protect` objectives; `description` says what finishes one."""

    kind = "protect"
    wakes = EVENTS
    reads = frozenset({"actor_down", *SPAWNS})
    description = "Keep characters alive: held until one goes down, which fails it at once."

    standing = True

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Failed as soon as a listed character is down, whatever the order."""
        chars = _present(world, self.objective.characters)
        return FAILED if any(not c.alive for c in chars) else None


class Escort(Verifier):
    """Judge of `escort` objectives; `description` says what finishes one."""

    kind = "escort"
    wakes = CLOCK  # progress follows the escorted characters
    reads = None
    character_side = "friendly"
    description = "Bring characters alive into an area; failed if one of them goes down."

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.area = objective.area or ""
        goal = area_anchor(world.level, self.area)
        self.meters = {
            c.id: RouteMeter(goal, position(c), (PLACE_OBJECTIVE, objective.id))
            for c in _present(world, objective.characters)
        }

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Failed when one is down; done while ready and all stand in the area."""
        chars = _present(world, self.objective.characters)
        if any(not c.alive for c in chars):
            return FAILED
        if ready and chars and all(c.area == self.area for c in chars):
            return DONE
        return None

    def progress(self, world: WorldView) -> float:
        """Mean route progress of the escorted characters toward the area."""
        chars = _present(world, self.objective.characters)
        if not chars:
            return 0.0
        return sum(self.meters[c.id].progress(world, position(c)) for c in chars) / len(chars)

    def steps(self, world: WorldView) -> float:
        """The share of the escorted characters standing in the area."""
        chars = _present(world, self.objective.characters)
        return sum(c.area == self.area for c in chars) / len(chars) if chars else 0.0

    def target(self, world: WorldView) -> Point3 | None:
        """An interior point of the area the characters must reach."""
        return area_anchor(world.level, self.area)


class Follow(Verifier):
    """Judge of `follow` objectives; `description` says what finishes one.

    Range is judged only while ready (the follow starts when the chain reaches it).
    Out of range for longer than `grace_s` fails it for good, as does a death. Without
    a destination the follow is a standing condition: held until broken.
    """

    kind = "follow"
    wakes = CLOCK  # distance to moving characters, and a grace timer
    reads = None
    character_side = "friendly"
    description = ("Stay within `distance` of moving characters until they reach their "
                   "destination; standing while one of them has none.")

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.distance = objective.distance or 0.0
        self.grace = seconds_to_ticks(objective.grace_s or 0.0)
        self.out_since: int | None = None
        chars = _present(world, objective.characters)
        self.ends = {c.id: destination_of(c) for c in chars}
        self.standing = not chars or any(end is None for end in self.ends.values())
        self.meters = {
            c.id: RouteMeter(area_anchor(world.level, end), position(c), (PLACE_AREA, end))
            for c in chars if (end := self.ends[c.id]) is not None
        }
        # Where each character was on the last tick the player was in range: credit
        # goes only to the part of the walk that was actually followed.
        self.followed: dict[str, Point3] = {c.id: position(c) for c in chars}

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Failed on a death or a grace overrun; done when all arrive with the player near."""
        chars = _present(world, self.objective.characters)
        if any(not c.alive for c in chars):
            return FAILED
        if not ready:
            return None
        player = world.player
        near = all(c.distance_to(player.x, player.z) <= self.distance for c in chars)
        if near:
            self.out_since = None
            self.followed = {c.id: position(c) for c in chars}
        else:
            if self.out_since is None:
                self.out_since = world.tick
            if world.tick - self.out_since > self.grace:
                return FAILED
        arrived = all(c.area == self.ends.get(c.id) for c in chars)
        return DONE if near and arrived and not self.standing else None

    def progress(self, world: WorldView) -> float:
        """Mean route progress of the characters up to where they were last followed."""
        if not self.meters:
            return 0.0
        total = sum(m.progress(world, self.followed[cid]) for cid, m in self.meters.items())
        return total / len(self.meters)

    def steps(self, world: WorldView) -> float:
        """The followed part of the walk: only a player in range moves it on."""
        return self.progress(world)


class Intercept(Verifier):
    """Judge of `intercept` objectives; `description` says what finishes one."""

    kind = "intercept"
    wakes = EVENTS
    reads = frozenset({"actor_down", "area_entered", *SPAWNS})
    description = "Stop characters before they reach their destination; failed if one gets there."

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.ends = {c.id: destination_of(c) for c in _present(world, objective.characters)}

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Failed when one stands alive in its destination; done once all are down."""
        chars = _present(world, self.objective.characters)
        if any(c.alive and self.ends.get(c.id) and c.area == self.ends[c.id] for c in chars):
            return FAILED
        return DONE if ready and all(not c.alive for c in chars) else None

    def progress(self, world: WorldView) -> float:
        """Mean harm over the characters to stop."""
        chars = _present(world, self.objective.characters)
        return sum(_harm(c) for c in chars) / len(chars) if chars else 0.0

    def steps(self, world: WorldView) -> float:
        """The share of the characters to stop that are down."""
        return _down_share(_present(world, self.objective.characters))


# The player's events that say who its latest shot was aimed at, and by whom.
_PLAYER_SHOTS = frozenset({"fired_back", "shot_fired"})


class Frags(Verifier):
    """Judge of `frags` objectives; `description` says what finishes one.

    A frag is an `actor_down` event whose cause is another actor (the player or a
    character). When the player and a rival reach the count on the same tick, the
    failure wins. A player frag whose killing shot was automatic return fire (a
    `fired_back` event just before the shot) does not count: an agent that only waits
    while the gun answers attackers must not win an arena. Shots land on the tick they
    are fired, so the killing shot is among the events judged with the kill, and only
    kills wake this verifier (shots are too frequent to judge every one).
    """

    kind = "frags"
    wakes = EVENTS
    reads = frozenset({"actor_down"})
    description = "Arena: be first to `count` frags; failed if any other actor gets there first."

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.count = objective.count or 1
        self.frags: dict[str, int] = {}

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Count frags; failure first, then done while ready at the count."""
        fired_back: str | None = None  # the target of return fire, until its shot
        automatic: dict[str, bool] = {}  # victim -> the player's latest shot was automatic
        for e in events:
            if e.subject == PLAYER_ID and e.kind in _PLAYER_SHOTS:
                if e.kind == "fired_back":
                    fired_back = e.other
                elif e.other is not None:
                    automatic[e.other], fired_back = fired_back == e.other, None
                continue
            if e.kind != "actor_down" or e.other is None or e.other == e.subject:
                continue
            if e.other == PLAYER_ID and automatic.get(e.subject, False):
                continue
            # Hazards and objects also put actors down; only actors score frags.
            if e.other == PLAYER_ID or e.other in world.characters:
                self.frags[e.other] = self.frags.get(e.other, 0) + 1
        if any(n >= self.count for who, n in self.frags.items() if who != PLAYER_ID):
            return FAILED
        return DONE if ready and self.player_frags >= self.count else None

    @property
    def player_frags(self) -> int:
        """Frags scored by the player so far."""
        return self.frags.get(PLAYER_ID, 0)

    def progress(self, world: WorldView) -> float:
        """The player's frags over the count."""
        return clamp01(self.player_frags / self.count)

    def steps(self, world: WorldView) -> float:
        """The player's frags over the count (automatic return fire scores none)."""
        return self.progress(world)
