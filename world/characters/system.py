"""The characters system: every character's mind, cameras, alarms, waves and arena bots.

Added to a world with `CharactersSystem.attach(world)`. Each tick it reads the new
events (gunfire heard, hits, characters down, characters used), runs waves, alarms and
cameras, lets the characters whose turn it is perceive and decide (a look or a
decision whose inputs are unchanged since the last one is not worked out again: see
`senses.look` and `settle`), and then does the only per-tick work: handing walkers
their next waypoint when they reach one, and firing for those whose shot is due.
"""

from __future__ import annotations

import math
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np

from world.characters import friendly, senses, settle, walker
from world.characters.alarms import Alarms
from world.characters.alertness import ALERT_LEVELS, ALERTED, IN_COMBAT
from world.characters.bots import BOT_BEHAVIOUR, Bots
from world.characters.cameras import Cameras
from world.characters.hostile import REACTIONS
from world.characters.mind import Mind, Point3
from world.characters.shooting import Shooters
from world.characters.tuning import THINK_TICKS, Tuning
from world.characters.waves import Waves
from world.errors import WorldError
from world.level.model import CharacterTemplate
from world.sim.actors import Actor
from world.sim.clock import TICKS_PER_SECOND
from world.sim.world import World

SYSTEM_NAME = "characters"
SYSTEM_ORDER = 10
# Gunfire is heard in batches every few ticks: a tenth of a second late at most, and the
# listeners' positions are gathered once per batch instead of once per shot.
HEAR_TICKS = 3
_EAR = attrgetter("x", "y", "z")


class CharactersSystem:
    """Perception and behaviour of every character of one world."""

    def __init__(self, world: World) -> None:
        """Give every character present a mind and index cameras, alarms and waves.

        Args:
            world: The world whose characters this system drives.
        """
        self.world = world
        self.tuning = Tuning.of(world.level, world.difficulty.id)
        self.minds: dict[str, Mind] = {}
        self._order: list[Mind] = []
        # Minds by think slot: a mind thinks on the ticks where (tick + index) is a
        # multiple of THINK_TICKS, so each tick reads its slot instead of testing all.
        self._slots: list[list[Mind]] = [[] for _ in range(THINK_TICKS)]
        self._wake: dict[int, list[Mind]] = {}
        self._shooters = Shooters(self._order)
        self._shots: list = []
        self.cameras = Cameras(world, self.tuning)
        self.alarms = Alarms(world, self.tuning)
        self.waves = Waves(world, self.tuning)
        self.bots = Bots(world)
        self._bot_ids: set[str] = set()
        # Cosine of half a view angle, per angle in degrees (perception's cone test).
        self.cos_half: dict[float, float] = {}
        # Counts downs and respawns (the event readers bump it), to key cached listeners.
        self.lives = 0
        self._ears: tuple | None = None
        self._ear_rows: tuple | None = None
        # For the current listeners' array (`hear`): who hears a shooter, per shooter,
        # and each listener's last shot heard, per batch of shots.
        self.earshot: tuple[np.ndarray | None, dict, dict] = (None, {}, {})
        for actor in world.characters.values():
            self._adopt(actor)
        self._seen_events = len(world.events)

    @classmethod
    def attach(cls, world: World) -> CharactersSystem:
        """Create the system for a world and register it to run every tick.

        Args:
            world: The world.

        Returns:
            The registered system.
        """
        system = cls(world)
        world.add_system(SYSTEM_NAME, system, SYSTEM_ORDER, system.state_items)
        world.minds = system
        return system

    # ---- minds ------------------------------------------------------------------------
    def _adopt(self, actor: Actor) -> Mind:
        t: CharacterTemplate = actor.template
        mind = Mind(
            id=actor.id, index=len(self._order), behaviour=t.behaviour,
            hostile=t.side == "hostile", post=actor.position, post_storey=actor.storey,
            post_facing=actor.facing, route=tuple(p.at for p in t.route),
            last_update=self.world.tick,
        )
        if t.behaviour == BOT_BEHAVIOUR:
            self._bot_ids.add(actor.id)
        self.minds[actor.id] = mind
        self._order.append(mind)
        self._slots[-mind.index % THINK_TICKS].append(mind)
        return mind

    def is_bot(self, actor_id: str) -> bool:
        """Whether a character is an arena bot."""
        return actor_id in self._bot_ids

    def template(self, actor: Actor) -> CharacterTemplate:
        """The level's record of what the character is."""
        return actor.template

    def route_storey(self, mind: Mind, index: int) -> str:
        """The storey of one of a mind's route points."""
        place = self.world.characters[mind.id].template.route[index]
        return self.world.level.area(place.area).storey

    def area_centre(self, area_id: str) -> Point3:
        """The middle of an area's outline, on its floor."""
        ring = self.world.level.area(area_id).polygon
        x = sum(p[0] for p in ring) / len(ring)
        z = sum(p[1] for p in ring) / len(ring)
        return (x, self.world.level.area_y(area_id), z)

    def bot_opponents(self) -> list[Actor]:
        """Everyone an arena bot may fight: the player and every bot, alive, by id."""
        world = self.world
        out = [world.player] if world.player.alive else []
        out += [world.characters[i] for i in sorted(self._bot_ids)
                if world.characters[i].alive]
        return out

    def _ear_table(self) -> tuple[Any, ...]:
        """(key, minds, actors, hearing ranges, index by id) of the living characters."""
        key = (len(self._order), self.lives)
        ears = self._ears
        if ears is None or ears[0] != key:
            # Who is alive changes only with a down, a respawn or a newcomer.
            chars = self.world.characters
            minds = [m for m in self._order if chars[m.id].alive]
            actors = [chars[m.id] for m in minds]
            ranges = [float(a.template.hearing_range) for a in actors]
            ears = self._ears = (key, minds, actors, ranges,
                                 {m.id: i for i, m in enumerate(minds)})
        return ears

    def listening(self) -> tuple[list[Mind], list[Actor], list[float]]:
        """Living characters (minds and actors, in think order) and their hearing ranges."""
        ears = self._ear_table()
        return ears[1], ears[2], ears[3]

    def listeners(self) -> tuple[list[Mind], np.ndarray]:
        """Living characters and their ears (x, y, z, hearing range), for gunfire in bulk."""
        key, minds, actors, ranges, _ = self._ear_table()
        motion = self.world.physics.motion
        if self._ear_rows is not None and self._ear_rows[0] == (key, motion):
            return minds, self._ear_rows[1]  # nobody moved since: the same positions
        ears = np.empty((len(actors), 4))
        if actors:
            # One C-level pass over the actors; numpy's own tuple conversion is slower.
            ears[:, :3] = np.fromiter(chain.from_iterable(map(_EAR, actors)), float,
                                      3 * len(actors)).reshape(-1, 3)
            ears[:, 3] = ranges
        self._ear_rows = ((key, motion), ears)
        return minds, ears

    def listener_index(self) -> dict[str, int]:
        """Each listener's position in `listeners` (valid until a down or a respawn)."""
        index: dict[str, int] = self._ear_table()[4]
        return index

    # ---- spawning and alerting -----------------------------------------------------------
    def spawn_at(self, actor_id: str, template: CharacterTemplate, spawn_point: str,
                 toward: Point3) -> Actor | None:
        """Bring a character in at a spawn point; hostiles arrive alerted toward a point.

        Args:
            actor_id: The new character's id.
            template: What it is.
            spawn_point: The spawn point object's id.
            toward: Where the trouble is (the player's position).

        Returns:
            The new actor, or None if the world refused it (the id or place was bad).
        """
        world = self.world
        place = world.level.object(spawn_point).place
        storey = world.level.area(place.area).storey
        (x, z) = place.at
        facing = math.atan2(toward[2] - z, toward[0] - x)
        try:
            actor = world.spawn(actor_id, template, x, z, storey, facing)
        except WorldError:
            return None
        mind = self._adopt(actor)
        if mind.hostile and not self.is_bot(actor_id):
            mind.last_known = toward
            mind.last_stimulus = world.tick
            senses.set_meter(self, mind, ALERT_LEVELS[ALERTED].threshold + 0.05)
        return actor

    def alert_zone(self, zone: tuple[str, ...] | None, toward: Point3) -> None:
        """Alert every living hostile (in the zone's areas, if given) toward a point."""
        world = self.world
        for mind in self._order:
            actor = world.characters[mind.id]
            if not mind.hostile or not actor.alive or self.is_bot(mind.id):
                continue
            if zone is not None and actor.area not in zone:
                continue
            mind.last_known = toward
            mind.last_stimulus = world.tick
            if mind.meter < senses.HEARD_LEVEL:
                senses.set_meter(self, mind, senses.HEARD_LEVEL)

    # ---- the tick ---------------------------------------------------------------------
    def update(self, world: World) -> None:
        """Advance every character by one tick."""
        tick = world.tick
        events = world.events.since(self._seen_events)
        self._seen_events = len(world.events)
        if events:
            self._shots.extend(e for e in events if e.kind == "shot_fired")
            senses.read_events(self, events)
        if self._shots and tick % HEAR_TICKS == 0:
            senses.hear(self, self._shots)
            self._shots = []
        self.waves.update(self, world)
        self.alarms.update(self, world)
        self.cameras.update(world)
        chars = world.characters
        thinkers = self._slots[tick % THINK_TICKS]
        if thinkers:
            self._think(world, thinkers)
        woken = self._wake.pop(tick, None)
        if woken:
            for mind in woken:
                actor = chars[mind.id]
                if actor.alive and walker.steer(actor, mind):
                    self._schedule(actor, mind)
        if self._shooters:
            self._shooters.fire(world)

    def _think(self, world: World, thinkers: list[Mind]) -> None:
        chars = world.characters
        bot_ids = self._bot_ids
        living: list[tuple[Actor, Mind]] = []
        watchers: list[tuple[Actor, Mind]] = []
        bots: list[tuple[Actor, Mind]] = []
        for mind in thinkers:
            actor = chars[mind.id]
            if not actor.alive:
                if mind.respawn_at is not None and world.tick >= mind.respawn_at:
                    self.bots.respawn(self, actor, mind)
                    if actor.alive:
                        living.append((actor, mind))  # back in the game: decides, unseeing
                continue
            living.append((actor, mind))
            if mind.id in bot_ids:
                bots.append((actor, mind))
            elif mind.hostile:
                watchers.append((actor, mind))
            else:
                senses.calm(self, mind)
        if watchers:
            senses.look(self, watchers)
        for actor, mind in bots:
            senses.bot_look(self, actor, mind)
        player = world.player
        settled_now = settle.now
        player_at = (player.x, player.z, player.alive)
        for actor, mind in living:
            if mind.settled is not None:
                if mind.settled == settled_now(actor, mind, player_at):
                    continue  # the same inputs as the last decision: the same outcome
                mind.settled = None
            if mind.hostile:
                REACTIONS[mind.rank](self, actor, mind)
            else:
                friendly.decide(self, actor, mind)
            if mind.doors:
                walker.open_doors_ahead(world, actor, mind)
            if mind.waypoints:
                walker.unstick(world, actor, mind)
                if mind.waypoints and actor.move_to is None:
                    walker.steer(actor, mind)  # the physics dropped a reached waypoint
                self._schedule(actor, mind)
            else:
                mind.stall = None  # what unstick does for a walker with nowhere to go
            self._shooters.update(mind)
            if mind.id not in bot_ids:
                mind.settled = settle.key(actor, mind, player)

    def _schedule(self, actor: Actor, mind: Mind) -> None:
        # Wake the walker when it should reach its waypoint, if that comes before its
        # next decision: the only per-tick steering there is.
        if not mind.waypoints or actor.move_to is None:
            return
        wx, wz = mind.waypoints[0]
        eta = math.hypot(actor.x - wx, actor.z - wz) / max(actor.speed, 1.0) * TICKS_PER_SECOND
        ticks = max(1, math.ceil(eta - walker.ARRIVE / max(actor.speed, 1.0) * TICKS_PER_SECOND))
        if ticks < THINK_TICKS:
            self._wake.setdefault(self.world.tick + ticks, []).append(mind)

    # ---- views ------------------------------------------------------------------------
    def alertness(self, actor_id: str) -> str:
        """The alertness level name of a character."""
        return self.minds[actor_id].alertness

    def fighting(self) -> list[str]:
        """Ids of the characters in combat (the alertness rank of fighting), in think order."""
        return [m.id for m in self._order if m.rank == IN_COMBAT]

    def following(self, actor_id: str) -> bool:
        """Whether a character follows the player."""
        return self.minds[actor_id].following

    def state_items(self) -> tuple:
        """The system's own state, for the world's state hash."""
        wake = tuple((t, tuple(m.id for m in ms)) for t, ms in sorted(self._wake.items()))
        return (
            tuple(m.state_items() for m in self._order),
            self._shooters.state_items(),
            wake,
            self._seen_events,
            tuple(e.as_tuple() for e in self._shots),
            self.cameras.state_items(),
            self.alarms.state_items(),
            self.waves.state_items(),
            self.bots.state_items(),
        )
