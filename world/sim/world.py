"""The World: one episode's mutable simulation, advanced one tick at a time.

Every public call validates its arguments completely before it changes anything, so a
refused call (a typed `WorldError`) leaves the world exactly as it was.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np

from world.errors import InvalidRequestError, UnknownIdError, WorldError
from world.level.model import CharacterTemplate, Difficulty, Level, given
from world.navmesh.mesh import NavMesh
from world.navmesh.query import PathFinder
from world.sim.actors import PLAYER_ID, Actor
from world.sim.clock import TICKS_PER_SECOND
from world.sim.combat import PLAYER_SKILL, UNARMED, Combat
from world.sim.doings import ActorDoings
from world.sim.doors import DoorRuntime, Doors
from world.sim.events import EventLog
from world.sim.hazards import Hazards
from world.sim.intent import Minds, PlayerIntent, StateItems, System
from world.sim.items import GADGET_MARKS, Items, ObjectRuntime
from world.sim.layout import shared_layout
from world.sim.mind import Planning
from world.sim.physics import Physics
from world.sim.queries import WorldQueries
from world.sim.sight import Sight

# Systems registered at this order or above (the judges, such as the objectives) run
# after the world's own updates in a tick, so they judge the tick's outcome on that tick.
JUDGE_ORDER = 900

class World(ActorDoings, WorldQueries):
    """A deterministic simulation of one level at one difficulty with one seed."""

    # The combat rules; a match world (world.match) adds its friendly-fire rule.
    combat_class: type[Combat] = Combat

    def __init__(self, level: Level, difficulty: str, seed: int) -> None:
        """Spawn the player and characters, build physics, doors, objects and timers.

        Args:
            level: The level to play.
            difficulty: One of the level's difficulty ids.
            seed: Seed of the episode's one random generator: the episode key the harness
                derives from the seed the agent is told and a secret (harness/core/keys.py).

        Raises:
            UnknownIdError: if the difficulty is not one the level offers.
        """
        offered = {d.id: d for d in level.difficulties}
        if difficulty not in offered:
            raise UnknownIdError("difficulty", difficulty, [d.id for d in level.difficulties])
        self.level = level
        self.difficulty: Difficulty = offered[difficulty]
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.tick = 0
        self.events = EventLog()
        self.ended: str | None = None
        self._systems: list[tuple[int, str, System, StateItems | None]] = []
        # The systems split by JUDGE_ORDER, in running order (kept by `add_system`).
        self._before: list[System] = []
        self._judges: list[System] = []
        # The two systems others ask, wired by name of role when they attach (None
        # without them, as in tests of the bare simulation).
        self.minds: Minds | None = None  # the characters system
        self.judge: System | None = None  # the objectives system
        self._navmesh: NavMesh | None = None
        self._paths: PathFinder | None = None
        # What the player knows, when a session keeps it (world.sim.mind): the actions
        # plan over it and update it as they go.
        self.planning = Planning()
        self.layout = shared_layout(level)
        self._rect_boxes = {
            shape.id: (*shape.box, self.layout.area_storey[shape.id])
            for shape in self.layout.shape.values() if shape.is_rect
        }
        self.physics = Physics(self.layout, margin=level.navmesh.agent_radius * 2)
        self.sight = Sight(self.layout)
        self.combat = self.combat_class(self)
        self.player = self._spawn_player()
        self.characters: dict[str, Actor] = {}
        rank = level.difficulty_rank(difficulty)
        for c in sorted(level.characters, key=lambda c: c.id):
            if level.difficulty_rank(c.min_difficulty) <= rank:
                self.spawn(c.id, c, c.at[0], c.at[1], level.area(c.area).storey,
                           math.radians(c.facing_deg))
        self.items = Items(self)
        self.objects: dict[str, ObjectRuntime] = self.items.objects
        self.doors_system = Doors(self)
        self.doors: dict[str, DoorRuntime] = self.doors_system.gates
        self.hazards = Hazards(self)
        self._found_secrets: set[str] = set()
        # Counts instant moves (which record no event), for judges that skip quiet ticks.
        self.teleports = 0

    def opposes(self, actor: Actor) -> bool:
        """Whether the player fights this actor (attacks it, fires back at it): a hostile."""
        return actor.side == "hostile"

    # ---- set-up -----------------------------------------------------------------------
    def _spawn_player(self) -> Actor:
        start = self.level.start
        places = start.places
        place = places[int(self.rng.integers(len(places)))] if len(places) > 1 else places[0]
        return self.make_player(PLAYER_ID, place.area, place.at, start.facing_deg,
                                start.inventory, start.in_hand)

    def make_player(self, actor_id: str, area: str, at: tuple[float, float], facing_deg: float,
                    inventory: tuple[str, ...], in_hand: str | None) -> Actor:
        """A player actor at a start place, carrying and holding what it starts with.

        Health, armour and speed are the level start's. A match world (world.match)
        makes one per player.
        """
        start = self.level.start
        storey = self.level.area(area).storey
        player = Actor(
            actor_id, "player", "player", at[0], self.layout.storey_y[storey], at[1],
            storey, area, facing=math.radians(facing_deg), speed=start.speed,
            radius=self.level.navmesh.agent_radius, health=start.health, max_health=1.0,
            armour=start.armour, accuracy=PLAYER_SKILL,
        )
        for oid in inventory:
            player.inventory.append(oid)
            spec = self.level.object(oid)
            if spec.kind == "weapon":
                self.combat.add_rounds(player, given(spec.weapon, oid, "weapon"),
                                       int(spec.amount or 0))
        if in_hand is not None:
            self.equip_now(player, in_hand)
        self.physics.add_actor(player)
        return player

    def spawn(self, actor_id: str, template: CharacterTemplate, x: float, z: float,
              storey: str, facing: float = 0.0) -> Actor:
        """Bring a character into the world (placed characters, waves, reinforcements).

        Difficulty multipliers apply to hostiles: health and accuracy.

        Raises:
            InvalidRequestError: if the id is taken or the point is off the level.
        """
        if actor_id == PLAYER_ID or actor_id in self.characters:
            raise InvalidRequestError(f"actor id {actor_id!r} is already in use")
        area = self._require_area(x, z, storey)
        hostile = template.side == "hostile"
        health = template.health * (self.difficulty.enemy_health if hostile else 1.0)
        accuracy = template.accuracy * (self.difficulty.enemy_accuracy if hostile else 1.0)
        actor = Actor(
            actor_id, template.kind, template.side, x, self.layout.storey_y[storey], z, storey,
            area, facing=facing, speed=template.speed, radius=self.level.navmesh.agent_radius,
            health=health, max_health=health, armour=template.armour,
            weapon=template.weapon, accuracy=min(1.0, accuracy), infinite_ammo=True,
            template=template,
        )
        if template.weapon is not None:
            self.combat.add_rounds(actor, template.weapon, 0)
        self.physics.add_actor(actor)
        self.characters[actor_id] = actor
        self.characters = dict(sorted(self.characters.items()))
        return actor

    # ---- time and plug-ins ------------------------------------------------------------
    @property
    def time_s(self) -> float:
        """Game seconds since the start."""
        return self.tick / TICKS_PER_SECOND

    def add_system(self, name: str, system: System, order: int,
                   state: StateItems | None = None) -> None:
        """Register a system that runs every tick, lowest order first (ties by name).

        Args:
            name: The system's name, unique in this world.
            system: The system.
            order: Its place in the tick (see JUDGE_ORDER).
            state: Its `state_items`, which the state hash covers; None for a system
                that keeps no state of its own.

        Raises:
            InvalidRequestError: if a system of that name is already registered.
        """
        if any(n == name for _, n, _, _ in self._systems):
            raise InvalidRequestError(f"a system named {name!r} is already registered")
        self._systems.append((order, name, system, state))
        self._systems.sort(key=lambda item: (item[0], item[1]))
        self._before = [s for o, _, s, _ in self._systems if o < JUDGE_ORDER]
        self._judges = [s for o, _, s, _ in self._systems if o >= JUDGE_ORDER]

    def systems(self) -> Iterator[tuple[str, System]]:
        """The registered systems as (name, system), in the order they run."""
        return ((name, system) for _, name, system, _ in self._systems)

    def system_states(self) -> Iterator[tuple[str, StateItems]]:
        """(name, state_items) of the systems that keep state, in the order they run."""
        return ((name, state) for _, name, _, state in self._systems if state is not None)

    def end(self, reason: str) -> None:
        """End the world for a reason; the first reason given stays."""
        if self.ended is None:
            self.ended = reason
            self.emit("episode_ended", PLAYER_ID, detail=reason)

    # ---- stepping ---------------------------------------------------------------------
    def step(self, intent: PlayerIntent | None = None) -> None:
        """Advance exactly one tick.

        Order: the player's intent, the registered systems below JUDGE_ORDER, physics
        (with stairs and area changes), doors, pickups, hazards and countdowns, then the
        systems at JUDGE_ORDER or above, which so see the tick's outcome on that tick.

        Raises:
            WorldError: if the intent names something invalid; nothing has changed then.
        """
        self.step_players(((self.player, intent),))

    def step_players(self, intents: Sequence[tuple[Actor, PlayerIntent | None]]) -> None:
        """Advance exactly one tick with one intent per player actor (see `step`).

        A world with one player passes just its own; a match world (world.match) passes
        every player's, in player order. Every intent is checked before anything changes.

        Raises:
            WorldError: if an intent names something invalid; nothing has changed then.
        """
        for actor, intent in intents:
            if intent is not None:
                self._check_intent(actor, intent)
        self.tick += 1
        for actor, intent in intents:
            if intent is not None and len(intents) > 1 and not self._still_possible(actor, intent):
                # An earlier player's doing this tick ruled it out (its target went down,
                # its pickup was taken): that player stands this tick, and its action
                # learns why when its next intent is checked.
                intent = None
            if intent is not None and actor.alive:
                self._apply_intent(actor, intent)
            elif actor.alive and actor.move_to is not None:
                actor.move_to = None
        for system in self._before:
            system.update(self)
        moved, crossings = self.physics.step()
        for actor, ramp in crossings:
            up = actor.storey == ramp.bottom_storey
            storey = ramp.top_storey if up else ramp.bottom_storey
            self.physics.place(actor, actor.x, actor.z, storey)
            actor.y = self.layout.storey_y[storey]
            self.emit("storey_changed", actor.id, ramp.id, detail=storey)
        boxes = self._rect_boxes
        for actor in moved:
            if actor.on_ramp:
                continue
            # Most moves stay inside the same rectangular area: one box test settles it.
            box = boxes.get(actor.area)
            if box is not None and actor.storey == box[4] and (
                box[0] <= actor.x <= box[2] and box[1] <= actor.z <= box[3]
            ):
                continue
            self._update_area(actor)
        for actor, intent in intents:
            if intent is not None and intent.face is not None and actor.alive:
                actor.facing = float(intent.face)
        self.doors_system.update()
        self.items.update()
        for actor, _ in intents:
            if actor is not self.player:  # the world's own player's pickups are in update
                self.items.pickups_for(actor)
        self.hazards.update()
        for system in self._judges:
            system.update(self)

    def _still_possible(self, player: Actor, intent: PlayerIntent) -> bool:
        try:
            self._check_intent(player, intent)
        except WorldError:
            return False
        return True

    def _check_intent(self, player: Actor, intent: PlayerIntent) -> None:
        if intent.equip is not None:
            self._check_equip(player, intent.equip)
        if intent.use is not None:
            self._check_use(player, intent.use)
        if intent.fire_at is not None:
            self._fire_target(intent.fire_at)
        if intent.move_to is not None:
            x, z = intent.move_to
            if not (math.isfinite(x) and math.isfinite(z)):
                raise InvalidRequestError(f"move_to must be finite numbers, got {intent.move_to}")

    def _apply_intent(self, player: Actor, intent: PlayerIntent) -> None:
        if intent.equip is not None:
            self.equip_now(player, intent.equip)
        if intent.move_to is not None and self.level.start.fixed:
            self.emit("move_refused", player.id, detail="this level fixes the player in place")
            player.move_to = None
        else:
            player.move_to = (
                None if intent.move_to is None
                else (float(intent.move_to[0]), float(intent.move_to[1]))
            )
        if intent.use is not None:
            self._do_use(player, intent.use)
        if intent.fire_at is not None:
            if intent.automatic:
                target = intent.fire_at if isinstance(intent.fire_at, str) else None
                self.emit("fired_back", player.id, target)
            self._do_fire(player, intent.fire_at)

    def _update_area(self, actor: Actor) -> None:
        area = self.layout.area_at(actor.x, actor.z, actor.storey, actor.area)
        if area is None or area == actor.area:
            return
        actor.area = area
        self.emit("area_entered", actor.id, area)
        if actor.is_player and self.level.area(area).secret and area not in self._found_secrets:
            self._found_secrets.add(area)
            self.emit("secret_found", actor.id, area)

    # ---- test and system helpers --------------------------------------------------------
    def teleport(self, actor_id: str, x: float, z: float, storey: str | None = None) -> None:
        """Move an actor instantly to a point inside an area (tests and set-ups).

        Raises:
            UnknownIdError: for an unknown actor or storey.
            InvalidRequestError: if the point lies in no area (of the storey, if given).
        """
        actor = self.actor(actor_id)
        storey = storey if storey is not None else actor.storey
        area = self._require_area(float(x), float(z), storey)
        self.physics.place(actor, float(x), float(z), storey)
        actor.y = self.layout.storey_y[storey]
        actor.move_to = None
        self.teleports += 1
        if area != actor.area:
            actor.area = area

    def damage(self, actor_id: str, amount: float, source: str | None = None) -> None:
        """Deal damage to an actor; armour absorbs first.

        Raises:
            UnknownIdError: for an unknown actor.
            InvalidRequestError: for a negative or non-finite amount.
        """
        actor = self.actor(actor_id)
        if not (math.isfinite(amount) and amount >= 0):
            raise InvalidRequestError(f"damage must be a finite number >= 0, got {amount!r}")
        self.combat.damage(actor, float(amount), source)

    def start_countdown(self, countdown_id: str) -> None:
        """Start a countdown now (the objectives system calls this)."""
        self.hazards.start_countdown(countdown_id)


__all__ = ["GADGET_MARKS", "UNARMED", "PlayerIntent", "System", "World"]
