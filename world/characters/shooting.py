"""Who is firing, and the tick's gunfire of every character whose next shot is due.

A character in combat that sees its target joins the shooters (kept in think order for
the state hash). Rather than testing every shooter every tick, each shooter's next
shot tick sits in a heap, so a tick visits only the shooters whose shot is due; the
due shooters fire in think order, as one volley.
"""

from __future__ import annotations

import heapq
import math
from typing import TYPE_CHECKING

from world.characters.alertness import IN_COMBAT
from world.characters.boss import next_shot_delay
from world.characters.mind import Mind
from world.sim.actors import PLAYER_ID
from world.sim.combat import UNARMED

if TYPE_CHECKING:
    from world.sim.actors import Actor
    from world.sim.world import World


class Shooters:
    """The characters in a fight with a clear view of their target, and their firing."""

    def __init__(self, order: list[Mind]) -> None:
        """Start with nobody firing.

        Args:
            order: Every mind in think order (index i holds the mind of index i); the
                heap names shooters by index.
        """
        self.order = order
        self.minds: list[Mind] = []  # in think order
        self.ids: set[str] = set()  # ids of `minds`, for membership in O(1)
        # (next shot tick, mind index): one entry per scheduled shot; an entry whose mind
        # left the shooters or was given another tick since is stale and skipped.
        self._due: list[tuple[int, int]] = []
        # next_shot_delay's answers by (kind, rate, burst left): a handful per level.
        self._rhythm: dict[tuple[str, float, int], tuple[int, int]] = {}

    def __bool__(self) -> bool:
        """Whether anyone is firing."""
        return bool(self.minds)

    def update(self, mind: Mind) -> None:
        """After a decision: join or leave the shooters as the mind now wants."""
        wants = mind.hostile and mind.sees and mind.rank == IN_COMBAT
        present = mind.id in self.ids
        if wants and not present:
            self.ids.add(mind.id)
            self.minds.append(mind)
            self.minds.sort(key=lambda m: m.index)
            heapq.heappush(self._due, (mind.next_shot, mind.index))
        elif present and not wants:
            self.drop(mind)

    def drop(self, mind: Mind) -> None:
        """Stop a mind firing."""
        self.ids.discard(mind.id)
        self.minds.remove(mind)

    def _schedule(self, mind: Mind, tick: int) -> None:
        mind.next_shot = tick
        heapq.heappush(self._due, (tick, mind.index))

    def _due_now(self, tick: int) -> list[Mind]:
        # The shooters whose shot is due, in think order.
        due, order, ids = self._due, self.order, self.ids
        found: dict[int, Mind] = {}
        while due and due[0][0] <= tick:
            at, index = heapq.heappop(due)
            mind = order[index]
            if mind.id in ids and mind.next_shot == at:
                found[index] = mind
        return [found[i] for i in sorted(found)]

    def fire(self, world: World) -> None:
        """Fire every shooter whose next shot is due, all in one volley."""
        tick = world.tick
        chars = world.characters
        weapons = world.combat.weapons
        ready: list[tuple[Mind, Actor, Actor, float]] = []
        for mind in self._due_now(tick):
            actor = chars[mind.id]
            target_id = mind.target or PLAYER_ID
            target = world.player if target_id == PLAYER_ID else chars.get(target_id)
            if not actor.alive or target is None or not target.alive:
                self.drop(mind)
                continue
            weapon = weapons[actor.weapon or UNARMED]  # `Combat.weapon_of`, inline
            if weapon.melee and math.hypot(target.x - actor.x, target.z - actor.z) > (
                weapon.range + target.radius
            ):
                self._schedule(mind, tick + 1)  # no swinging at thin air
                continue
            actor.facing = math.atan2(target.z - actor.z, target.x - actor.x)
            ready.append((mind, actor, target, weapon.shots_per_s))
        if not ready:
            return
        # Every shot of the tick at once: lines of fire and hit rolls in bulk.
        results = world.combat.volley([(actor, target) for _, actor, target, _ in ready])
        rhythm = self._rhythm
        for (mind, actor, _, rate), result in zip(ready, results, strict=True):
            if result is None:
                self.drop(mind)
            elif result.fired:
                beat = (actor.kind, rate, mind.burst_left)
                after = rhythm.get(beat)
                if after is None:
                    after = rhythm[beat] = next_shot_delay(*beat)
                delay, mind.burst_left = after
                self._schedule(mind, tick + delay)
            elif result.reason == "reloading":
                self._schedule(mind, max(tick + 1, actor.reload_until))
            else:
                self._schedule(mind, tick + 1)

    def state_items(self) -> tuple:
        """The shooters' ids in think order, for the state hash."""
        return tuple(m.id for m in self.minds)
