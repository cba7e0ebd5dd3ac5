"""What an actor does to the world on request: use, equip, fire, items on things, codes.

`World` inherits these with the checks of `RequestChecks`: each public call validates
first (a refused call changes nothing), then acts and records its events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from world.errors import InvalidRequestError
from world.sim.actors import Actor
from world.sim.requests import RequestChecks

if TYPE_CHECKING:  # the attributes `World` sets, named for the type checker only
    from world.level.model import Level
    from world.sim.combat import Combat, ShotResult
    from world.sim.doors import Doors
    from world.sim.events import EventLog
    from world.sim.intent import Target
    from world.sim.items import Items


class ActorDoings(RequestChecks):
    """The world's public doings, and the event log they write to."""

    # Set by `World.__init__`; declared here so the doings' uses are checked.
    level: Level
    player: Actor
    tick: int
    events: EventLog
    combat: Combat
    items: Items
    doors_system: Doors

    def emit(self, kind: str, subject: str, other: str | None = None,
             amount: float | None = None, detail: str | None = None) -> None:
        """Record an event at the current tick."""
        self.events.record(self.tick, kind, subject, other, amount, detail)

    # ---- use ----------------------------------------------------------------------------
    def _do_use(self, actor: Actor, target_id: str) -> None:
        if target_id in self.doors:
            self.doors_system.use(actor, target_id)
        elif target_id in self.objects:
            self.items.use(actor, self.objects[target_id])
        else:
            self.emit("object_used", actor.id, target_id, detail="character")
            if actor.id == self.player.id and self.level.words_of(target_id):
                # A talking character (issue 37) gives its words as a note does, each time.
                self.emit("words_heard", actor.id, target_id)

    def use(self, actor_id: str, target_id: str) -> None:
        """Press use on a door, an object or a character within reach.

        Doors open, close or refuse (an event says why); pickups are taken; panels,
        switches and computers act on their targets; using a character records an event.

        Raises:
            UnknownIdError: for an unknown actor or target.
            InvalidRequestError: if the actor is down, the object is gone or out of reach.
        """
        actor = self._live_actor(actor_id)
        self._check_use(actor, target_id)
        self._do_use(actor, target_id)

    # ---- equip --------------------------------------------------------------------------
    def equip_now(self, actor: Actor, object_id: str) -> None:
        """Take a carried object in hand without validation (internal and start-up use)."""
        # A reload whose time has come is finished first (the counter already shows it
        # done); only one still under way is broken off.
        self.combat.settle(actor)
        actor.in_hand = object_id
        spec = self.level.object(object_id)
        actor.weapon = spec.weapon if spec.kind == "weapon" else (
            None if actor.is_player else actor.weapon
        )
        actor.reload_until = 0
        self.emit("item_equipped", actor.id, object_id)

    def equip(self, actor_id: str, object_id: str) -> None:
        """Take a carried object in hand; a weapon becomes the one fired.

        Drawing the gun already in hand again reloads it when its magazine is not full.

        Raises:
            UnknownIdError: for an unknown actor or object.
            InvalidRequestError: if the actor does not carry the object.
        """
        actor = self._live_actor(actor_id)
        self._check_equip(actor, object_id)
        if actor.in_hand == object_id and actor.weapon is not None:
            # The gun already in hand, drawn again: its magazine is topped up, as a player
            # reloads between fights rather than only when it runs dry.
            self.combat.top_up(actor)
            return
        self.equip_now(actor, object_id)

    # ---- fire ---------------------------------------------------------------------------
    def _do_fire(self, actor: Actor, target: Target) -> ShotResult:
        aim, storey, resolved, moving, radius = self._fire_target(target)
        if resolved is actor:
            raise InvalidRequestError(f"actor {actor.id!r} cannot shoot itself")
        return self.combat.fire(actor, aim, storey, resolved, moving, radius)

    def fire(self, actor_id: str, target: Target) -> ShotResult:
        """Fire the actor's weapon at an actor, an object or a point (x, y, z).

        Rate of fire, magazine and reload are respected: a weapon that is not ready does
        not fire and the result says why. A hit is rolled with the world's generator.

        Raises:
            UnknownIdError: for an unknown actor or target id.
            InvalidRequestError: for a malformed point, a target already down, the shooter down.
        """
        actor = self._live_actor(actor_id)
        self._fire_target(target)
        return self._do_fire(actor, target)

    # ---- items on things ----------------------------------------------------------------
    def check_item_on(self, actor_id: str, item_id: str, object_id: str,
                      reach: bool = True) -> Actor:
        """Raise what `use_item_on` would raise, changing nothing; returns the actor.

        With reach=False distance is not checked (an action checks before walking up).
        """
        actor = self._live_actor(actor_id)
        self._check_equip(actor, item_id)
        self._target_point(object_id)
        kind = self.objects[item_id].kind
        usable = {"gadget", "key", "poison"}
        if kind not in usable:
            raise InvalidRequestError(
                f"{item_id!r} is a {kind}; items that can be used on things: "
                f"{', '.join(sorted(usable))}"
            )
        if kind == "key" and object_id not in self.doors:
            raise InvalidRequestError(f"a key works on doors; {object_id!r} is not a door")
        if kind == "poison" and object_id not in self.characters:
            raise InvalidRequestError(f"poison works on characters; {object_id!r} is not one")
        if reach:
            self._require_reach(actor, object_id)
        return actor

    def enter_code(self, actor_id: str, object_id: str, code: str) -> str:
        """Key a code into a keypad within reach; returns accepted, refused or locked_out.

        Raises:
            UnknownIdError: for an unknown actor or object.
            InvalidRequestError: if the object is not a keypad or is out of reach.
        """
        actor = self.check_code_on(actor_id, object_id)
        return self.items.enter_code(actor, self.objects[object_id], code)

    def use_item_on(self, actor_id: str, item_id: str, object_id: str) -> None:
        """Use a carried item on an object, door or character within reach.

        Gadgets mark objects (camera: photographed, data_copier: copied, device: planted),
        keys work a door's lock, poison hurts a character (armour does not help).

        Raises:
            UnknownIdError: for an unknown actor, item or target.
            InvalidRequestError: if the item is not carried, does nothing there, or the
                target is out of reach.
        """
        actor = self.check_item_on(actor_id, item_id, object_id)
        kind = self.objects[item_id].kind
        if kind == "gadget":
            self.items.mark(actor, self.objects[item_id], object_id)
        elif kind == "key":
            self.doors_system.use(actor, object_id)
        else:
            actor.inventory.remove(item_id)
            if actor.in_hand == item_id:
                actor.in_hand = None
            self.emit("item_used", actor.id, item_id, detail=object_id)
            spec = self.objects[item_id].spec
            self.combat.damage(self.characters[object_id], spec.amount or 0.0, actor.id,
                               through_armour=True)
