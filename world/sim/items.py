"""Objects at run time: pickups, usable objects, breakables, gadgets and secret triggers.

What each kind of object does is declared in tables (`PICKUPS`, `TARGET_MODES`,
`GADGET_MARKS`) rather than spread over branches, so a new kind is one entry.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from world.level.model import Level, LevelObject, given
from world.sim.actors import Actor
from world.sim.clock import seconds_to_ticks

if TYPE_CHECKING:
    from world.sim.world import World

PICKUP_MARGIN = 40.0  # units beyond the actor's radius within which pickups are taken
GADGET_MARKS = {"camera": "photographed", "data_copier": "copied", "device": "planted"}
# Object kinds that go into the taker's inventory (the view's `carried`) -> what they do there.
CARRIED_KINDS = MappingProxyType({
    "weapon": "A gun or melee weapon; `equip` it to hold it; `ammo` is its rounds.",
    "key": "Opens its doors: walking through with use on the way, or `use_item_on`.",
    "gadget": "A camera, data copier or device for `use_item_on` an object.",
    "poison": "For `use_item_on` a character within reach.",
})
# How a used (or broken) object acts on the gates it targets.
TARGET_MODES = {
    "panel": "open",
    "switch": "toggle",
    "computer": "open",
    "secret_trigger": "open",
    "breakable": "unlock",
    "keypad": "open",  # only once the right code is entered, never on a press of use
}
# Kinds whose press of use acts on nothing: a note is read, a keypad waits for a code.
READ_KINDS = frozenset({"note"})
CODE_KINDS = frozenset({"keypad"})
# What entering a code on a keypad came to (the `code_entered` event's detail).
CODE_OUTCOMES = ("accepted", "refused", "locked_out")


@dataclass(eq=False)
class ObjectRuntime:
    """The live state of one level object.

    Attributes:
        id: The object id.
        spec: The level's record of it.
        x: Position across the ground (None for objects carried from the start).
        z: Position across the ground.
        storey: Storey it stands on, if placed.
        present: Whether it stands in the world now (not taken, not broken).
        holder: Id of the actor carrying it, if any.
        health: Remaining health of a breakable object.
        broken: Whether gunfire destroyed it.
        respawn_at: Tick at which a taken pickup comes back.
        uses: How many times use was pressed on it.
        active: For alarms: whether it is sounding.
        marks: Gadget results on it ("photographed", "copied", "planted").
        triggered: For secret triggers: whether it has fired.
        wrong_codes: For keypads: wrong codes entered so far.
        accepted: For keypads: whether the right code was entered.
        read_tick: For notes: the tick the player first read it (orders the objectives
            it reveals in the view), or None.
        area: The area it lies in (its level area; a match flag moves, `Items.move`).
    """

    id: str
    spec: LevelObject
    x: float | None
    z: float | None
    storey: str | None
    present: bool
    holder: str | None = None
    health: float | None = None
    broken: bool = False
    respawn_at: int | None = None
    uses: int = 0
    active: bool = False
    marks: list[str] = field(default_factory=list)
    triggered: bool = False
    wrong_codes: int = 0
    accepted: bool = False
    read_tick: int | None = None
    area: str | None = None

    @property
    def locked_out(self) -> bool:
        """For keypads: whether too many wrong codes shut it for good."""
        return self.kind in CODE_KINDS and self.wrong_codes >= self.spec.attempts

    @property
    def kind(self) -> str:
        """The object kind."""
        return self.spec.kind

    @property
    def spot(self) -> tuple[float, float, str]:
        """Where a placed object stands: x, z and storey (only a match's flag moves).

        Raises:
            ValueError: for an object that started carried.
        """
        if self.x is None or self.z is None or self.storey is None:
            raise ValueError(f"object {self.id!r} is not placed")
        return self.x, self.z, self.storey

    def state_items(self) -> tuple:
        """The object's state for the state hash."""
        return (
            self.id, self.present, self.holder, self.health, self.broken, self.respawn_at,
            self.uses, self.active, tuple(self.marks), self.triggered,
        ) + ((self.wrong_codes, self.accepted) if self.kind in CODE_KINDS else ())


def look_alikes(level: Level) -> frozenset[str]:
    """Ids of decoys and of the real things they copy (issue 37).

    These are taken only by a press of use, never by walking over them: a walk past one
    must not make the choice that a note's words are meant to make.
    """
    return level.look_alikes


def _take_into_inventory(world: World, actor: Actor, obj: ObjectRuntime, auto: bool) -> bool:
    if obj.id not in actor.inventory:
        actor.inventory.append(obj.id)
    world.emit("item_picked_up", actor.id, obj.id)
    return True


def _take_weapon(world: World, actor: Actor, obj: ObjectRuntime, auto: bool) -> bool:
    weapon = obj.spec.weapon
    first = obj.id not in actor.inventory
    if first:
        actor.inventory.append(obj.id)
    rounds = int(obj.spec.amount or 0)
    world.combat.add_rounds(actor, given(weapon, obj.id, "weapon"), rounds)
    world.emit("item_picked_up", actor.id, obj.id, float(rounds), weapon)
    if actor.in_hand is None and first:
        world.equip_now(actor, obj.id)
    return True


def _take_ammo(world: World, actor: Actor, obj: ObjectRuntime, auto: bool) -> bool:
    rounds = int(obj.spec.amount or 0)
    world.combat.add_rounds(actor, given(obj.spec.weapon, obj.id, "weapon"), rounds)
    world.emit("item_picked_up", actor.id, obj.id, float(rounds), obj.spec.weapon)
    return True


def _take_armour(world: World, actor: Actor, obj: ObjectRuntime, auto: bool) -> bool:
    if auto and actor.armour >= 1.0:
        return False  # as in shooters: walking over armour you cannot use leaves it there
    gained = min(1.0, actor.armour + (obj.spec.amount or 0.0)) - actor.armour
    actor.armour += gained
    world.emit("item_picked_up", actor.id, obj.id, gained)
    world.emit("armour_gained", actor.id, obj.id, gained)
    return True


def _take_medkit(world: World, actor: Actor, obj: ObjectRuntime, auto: bool) -> bool:
    if auto and actor.health >= actor.max_health:
        return False
    gained = max(0.0, min(actor.max_health, actor.health + (obj.spec.amount or 0.0)) - actor.health)
    actor.health += gained
    world.emit("item_picked_up", actor.id, obj.id, gained)
    world.emit("healed", actor.id, obj.id, gained)
    return True


# kind -> what taking it does; returns False when an automatic pickup leaves it lying.
PICKUPS: dict[str, Callable[[World, Actor, ObjectRuntime, bool], bool]] = {
    "weapon": _take_weapon,
    "ammo": _take_ammo,
    "armour": _take_armour,
    "medkit": _take_medkit,
    "key": _take_into_inventory,
    "gadget": _take_into_inventory,
    "poison": _take_into_inventory,
}
PICKUP_KINDS = frozenset(PICKUPS)  # the kinds taken by walking to them


class Items:
    """Every object of a level and what happens when actors take, use or shoot them."""

    def __init__(self, world: World) -> None:
        """Create the runtime of each object; start inventory objects are held by the player."""
        self.world = world
        self.objects: dict[str, ObjectRuntime] = {}
        carried = set(world.level.start.inventory)
        for spec in sorted(world.level.objects, key=lambda o: o.id):
            storey = world.level.area(spec.area).storey if spec.area else None
            x, z = spec.at if spec.at is not None else (None, None)
            self.objects[spec.id] = ObjectRuntime(
                spec.id, spec, x, z, storey, present=spec.placed and spec.id not in carried,
                holder="player" if spec.id in carried else None, health=spec.health,
                area=spec.area,
            )
        # Auto pickups and proximity triggers are checked against the player every tick.
        # Per storey (placed objects never change storey): only the player's storey's
        # are looked at.
        # Each with its place, which never changes (placed objects are never moved).
        self._pickups_on: dict[str, list[tuple[ObjectRuntime, float, float]]] = {}
        self._proximity: list[tuple[ObjectRuntime, float, float, str]] = []
        chosen_by_hand = look_alikes(world.level)
        for obj in self.objects.values():
            if obj.x is None or obj.z is None or obj.storey is None:
                continue
            if obj.id in chosen_by_hand:
                continue  # taken only by a press of use: walking past must not choose
            if obj.kind in PICKUPS:
                self._pickups_on.setdefault(obj.storey, []).append((obj, obj.x, obj.z))
            elif obj.kind == "secret_trigger" and obj.spec.trigger == "proximity":
                self._proximity.append((obj, obj.x, obj.z, obj.storey))
        self._respawning: set[str] = set()

    def move(self, obj: ObjectRuntime, x: float, z: float, storey: str,
             area: str | None, holder: Actor | None = None) -> None:
        """Lay an object down at a new place, out of anyone's hands (a match's flag).

        Its `holder` (the actor carrying it, if any) lets go of it; it lies there to be
        seen and taken again.
        """
        if holder is not None:
            if obj.id in holder.inventory:
                holder.inventory.remove(obj.id)
            if holder.in_hand == obj.id:
                holder.in_hand = None
        on = self._pickups_on.get(obj.storey or "", [])
        on[:] = [entry for entry in on if entry[0] is not obj]
        obj.x, obj.z, obj.storey, obj.area = x, z, storey, area
        obj.present, obj.holder = True, None
        if obj.kind in PICKUPS:
            self._pickups_on.setdefault(storey, []).append((obj, x, z))

    def take(self, actor: Actor, obj: ObjectRuntime, auto: bool) -> bool:
        """Take a pickup lying in the world; returns whether it was taken."""
        if not PICKUPS[obj.kind](self.world, actor, obj, auto):
            return False
        if obj.spec.decoy_of is not None:
            self.world.emit("decoy_taken", actor.id, obj.id)
        obj.present = False
        if obj.kind in CARRIED_KINDS:
            obj.holder = actor.id
        if obj.spec.respawn_s is not None:
            obj.respawn_at = self.world.tick + seconds_to_ticks(obj.spec.respawn_s)
            self._respawning.add(obj.id)
        return True

    def use(self, actor: Actor, obj: ObjectRuntime) -> None:
        """Press use on an object within reach."""
        if obj.kind in PICKUPS:
            self.take(actor, obj, auto=False)
            return
        obj.uses += 1
        self.world.emit("object_used", actor.id, obj.id)
        if obj.kind in READ_KINDS:
            if obj.read_tick is None and actor.id == self.world.player.id:
                obj.read_tick = self.world.tick
            self.world.emit("note_read", actor.id, obj.id)
            return
        if obj.kind in CODE_KINDS:
            return  # a keypad takes a code (`enter_code`), not a press
        if obj.kind == "alarm":
            self.set_alarm(obj.id, False, actor.id)
        self.act_on_targets(obj, TARGET_MODES.get(obj.kind, "open"))
        if obj.kind == "secret_trigger":
            obj.triggered = True

    def enter_code(self, actor: Actor, obj: ObjectRuntime, code: str) -> str:
        """Key a code into a keypad; returns one of `CODE_OUTCOMES`.

        The right code opens the doors it drives (again on every later right code); a
        wrong one counts, and the last wrong one allowed locks the keypad out for good and
        raises its alarm, if it has one. A locked-out keypad takes no code, right or not.
        """
        if obj.locked_out:
            outcome = "locked_out"
        elif code == obj.spec.code:
            outcome, obj.accepted = "accepted", True
        else:
            outcome, obj.wrong_codes = "refused", obj.wrong_codes + 1
        self.world.emit("code_entered", actor.id, obj.id, float(obj.wrong_codes), outcome)
        if outcome == "accepted":
            self.act_on_targets(obj, TARGET_MODES["keypad"])
        elif outcome == "refused" and obj.locked_out:
            self.world.emit("keypad_locked", obj.id, actor.id)
            if obj.spec.alarm is not None:
                self.set_alarm(obj.spec.alarm, True, obj.id)
        return outcome

    def act_on_targets(self, obj: ObjectRuntime, mode: str) -> None:
        """Apply an object's effect to each of its targets: gates, alarms."""
        for target in obj.spec.targets:
            if target in self.world.doors:
                self.world.doors_system.trigger(target, mode, obj.id)
            elif target in self.objects and self.objects[target].kind == "alarm":
                self.set_alarm(target, False, obj.id)

    def set_alarm(self, alarm_id: str, on: bool, source: str | None) -> None:
        """Start or stop an alarm sounding (cameras and characters raise; switches stop)."""
        alarm = self.objects[alarm_id]
        if alarm.active == on:
            return
        alarm.active = on
        self.world.emit("alarm_raised" if on else "alarm_off", alarm_id, source)

    def damage(self, obj: ObjectRuntime, amount: float, source: str) -> None:
        """Gunfire on an object: breakables lose health and break at 0."""
        if obj.health is None or obj.broken:
            return
        obj.health = max(0.0, obj.health - amount)
        self.world.emit("damage_taken", obj.id, source, amount)
        if obj.health <= 0.0:
            obj.broken = True
            obj.present = False
            self.world.emit("object_broken", obj.id, source)
            self.act_on_targets(obj, TARGET_MODES["breakable"])

    def mark(self, actor: Actor, gadget: ObjectRuntime, target_id: str) -> None:
        """Use a gadget on an object or character: it records the gadget's result."""
        kind = given(gadget.spec.gadget, gadget.id, "gadget")
        if target_id in self.objects:
            marks = self.objects[target_id].marks
            if GADGET_MARKS[kind] not in marks:
                marks.append(GADGET_MARKS[kind])
        self.world.emit("gadget_used", actor.id, target_id, detail=kind)

    def update(self) -> None:
        """Respawn pickups, take pickups the player walks over, fire proximity triggers."""
        world = self.world
        if self._respawning:
            for oid in sorted(self._respawning):
                obj = self.objects[oid]
                if obj.respawn_at is not None and world.tick >= obj.respawn_at:
                    obj.present, obj.respawn_at, obj.holder = True, None, obj.holder
                    self._respawning.discard(oid)
                    world.emit("item_respawned", oid)
        self.pickups_for(world.player)

    def pickups_for(self, player: Actor) -> None:
        """Take the pickups a player walks over and fire the triggers it comes near."""
        if not player.alive:
            return
        px, pz, storey = player.x, player.z, player.storey
        reach = player.radius + PICKUP_MARGIN
        for obj, ox, oz in self._pickups_on.get(storey, ()):
            if obj.present and abs(ox - px) <= reach and (
                math.hypot(ox - px, oz - pz) <= reach
            ):
                self.take(player, obj, auto=True)
        for obj, ox, oz, on in self._proximity:
            if not obj.triggered and on == storey and (
                math.hypot(ox - px, oz - pz) <= (obj.spec.radius or 0.0)
            ):
                obj.triggered = True
                self.act_on_targets(obj, TARGET_MODES["secret_trigger"])
