"""Validation of the world's public calls: ids, reach, carried items and fire targets.

Every check runs before anything changes, so a refused call (a typed `WorldError`)
leaves the world exactly as it was. `World` inherits these helpers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from world.errors import InvalidRequestError, UnknownIdError
from world.sim.actors import PLAYER_ID, Actor
from world.sim.items import CODE_KINDS

if TYPE_CHECKING:  # the attributes `World` sets, named for the type checker only
    from world.sim.doors import DoorRuntime
    from world.sim.items import ObjectRuntime
    from world.sim.layout import Layout


class RequestChecks:
    """Argument checks and target lookups shared by use, equip, fire and item calls."""

    reach: float = 120.0
    # Set by `World.__init__`; declared here so the helpers' uses are checked.
    player: Actor
    characters: dict[str, Actor]
    layout: Layout
    doors: dict[str, DoorRuntime]
    objects: dict[str, ObjectRuntime]

    def all_actors(self) -> list[Actor]:
        """The player followed by the characters in id order."""
        return [self.player, *self.characters.values()]

    def actor(self, actor_id: str) -> Actor:
        """The player or a character by id.

        Raises:
            UnknownIdError: naming the known actor ids.
        """
        if actor_id in (PLAYER_ID, self.player.id):  # a match player's own id too
            return self.player
        found = self.characters.get(actor_id)
        if found is None:
            raise UnknownIdError("actor", actor_id, [PLAYER_ID, *self.characters])
        return found

    def _live_actor(self, actor_id: str) -> Actor:
        actor = self.actor(actor_id)
        if not actor.alive:
            raise InvalidRequestError(f"actor {actor_id!r} is down and cannot act")
        return actor

    def _require_area(self, x: float, z: float, storey: str | None) -> str:
        storeys = list(self.layout.storeys)
        if storey is not None and storey not in self.layout.storey_y:
            raise UnknownIdError("storey", storey, storeys)
        candidates = [storey] if storey is not None else storeys
        for s in candidates:
            area = self.layout.area_at(x, z, s)
            if area is not None:
                return area
        raise InvalidRequestError(
            f"position ({x}, {z}) lies in no area of storey {', '.join(candidates)}; "
            f"storeys: {', '.join(storeys)}"
        )

    def _target_point(self, target_id: str) -> tuple[float, float, str]:
        if target_id in self.doors:
            (ax, az), (bx, bz) = self.layout.gates[target_id].segment
            return (ax + bx) / 2, (az + bz) / 2, self.layout.gates[target_id].storey
        if target_id in self.objects:
            obj = self.objects[target_id]
            if obj.x is None or obj.z is None or obj.storey is None:
                raise InvalidRequestError(f"object {target_id!r} is carried, not placed")
            return obj.x, obj.z, obj.storey
        actor = self.actor(target_id) if target_id in self.characters or (
            target_id in (PLAYER_ID, self.player.id)) else None
        if actor is None:
            known = sorted({*self.doors, *self.objects, *self.characters})
            raise UnknownIdError("door, object or character", target_id, known)
        return actor.x, actor.z, actor.storey

    def distance_to(self, actor: Actor, target_id: str) -> float:
        """Ground distance from an actor to a door (its segment), object or character.

        Raises:
            UnknownIdError: if no such target exists.
        """
        if target_id in self.doors:
            gate = self.layout.gates[target_id]
            if gate.storey != actor.storey:
                return math.inf
            (ax, az), (bx, bz) = gate.segment
            ex, ez = bx - ax, bz - az
            t = ((actor.x - ax) * ex + (actor.z - az) * ez) / ((ex * ex + ez * ez) or 1.0)
            t = min(1.0, max(0.0, t))
            return math.hypot(actor.x - ax - t * ex, actor.z - az - t * ez)
        x, z, storey = self._target_point(target_id)
        return math.hypot(actor.x - x, actor.z - z) if storey == actor.storey else math.inf

    def within_reach(self, actor: Actor, object_id: str) -> bool:
        """Whether an object, door or character is close enough for the actor to use."""
        return self.distance_to(actor, object_id) <= self.reach

    def _require_reach(self, actor: Actor, target_id: str) -> None:
        distance = self.distance_to(actor, target_id)
        if distance > self.reach:
            shown = "on another storey" if math.isinf(distance) else f"{distance:.0f} units away"
            raise InvalidRequestError(
                f"{target_id!r} is {shown} from {actor.id!r}; use reaches {self.reach:.0f} units"
            )

    def _check_use(self, actor: Actor, target_id: str) -> None:
        self._target_point(target_id)
        if target_id in self.objects:
            obj = self.objects[target_id]
            if not obj.present:
                state = "broken" if obj.broken else "not in the world (taken)"
                raise InvalidRequestError(f"object {target_id!r} is {state}")
        if target_id == actor.id:
            raise InvalidRequestError(f"actor {actor.id!r} cannot use itself")
        self._require_reach(actor, target_id)

    def check_code_on(self, actor_id: str, object_id: str, reach: bool = True) -> Actor:
        """Raise what `enter_code` would raise, changing nothing; returns the actor."""
        actor = self._live_actor(actor_id)
        self._target_point(object_id)
        if object_id not in self.objects or self.objects[object_id].kind not in CODE_KINDS:
            raise InvalidRequestError(f"{object_id!r} is not a keypad; codes are entered "
                                      "on keypads")
        if reach:
            self._require_reach(actor, object_id)
        return actor

    def _check_equip(self, actor: Actor, object_id: str) -> None:
        if object_id not in self.objects:
            raise UnknownIdError("object", object_id, sorted(self.objects))
        if object_id not in actor.inventory:
            raise InvalidRequestError(
                f"{actor.id!r} does not carry {object_id!r}; carried: "
                f"{', '.join(repr(i) for i in actor.inventory) or 'nothing'}"
            )

    def _fire_target(self, target: Any) -> tuple[tuple[float, float], str, Any, bool, float]:
        if isinstance(target, str):
            if target in self.objects:
                obj = self.objects[target]
                if obj.x is None or obj.z is None or obj.storey is None or (
                        not obj.present and not obj.broken):
                    raise InvalidRequestError(f"object {target!r} is not standing in the world")
                return (obj.x, obj.z), obj.storey, target, False, 15.0
            if target in self.characters or target in (PLAYER_ID, self.player.id):
                actor = self.actor(target)
                if not actor.alive:
                    raise InvalidRequestError(f"actor {target!r} is already down")
                return (actor.x, actor.z), actor.storey, actor, actor.moving, actor.radius
            known = sorted({*self.objects, *self.characters, PLAYER_ID})
            raise UnknownIdError("character or object", target, known)
        # A plain tuple skips the ABC check; the types are a tuple, since `int | float`
        # builds a union object at every call (this runs on every shot at a point).
        if (type(target) is tuple or isinstance(target, Sequence)) and len(target) == 3 and all(
            isinstance(v, (int, float)) and math.isfinite(v) for v in target
        ):
            x, y, z = (float(v) for v in target)
            storeys = self.layout.storeys
            # One storey is the nearest without measuring (raw control fires at a point
            # every tick it holds fire).
            storey = storeys[0] if len(storeys) == 1 else min(
                storeys, key=lambda s: abs(self.layout.storey_y[s] - y))
            return (x, z), storey, None, False, 0.0
        raise InvalidRequestError(
            f"fire target must be a character or object id or a point (x, y, z), got {target!r}"
        )
