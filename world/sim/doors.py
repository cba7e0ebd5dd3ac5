"""Doors and hidden exits: state machines whose blocking feeds physics, sight and paths.

A door is open, opening, closed, closing or locked. Only a fully open door lets actors
and sight through. Hidden exits are walls until revealed. Every gate (door or hidden
exit) has one `DoorRuntime`; after any change its blocking is pushed to the physics
and sight indexes, so the three never disagree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from world.level.model import Door, Exit
from world.sim.actors import Actor
from world.sim.clock import seconds_to_ticks

if TYPE_CHECKING:
    from world.sim.world import World

# Door state -> meaning, as the view and PROTOCOL.md give it.
DOOR_STATE_MEANINGS = MappingProxyType({
    "open": "Passable; one can see and shoot through it.",
    "opening": "Swinging open; passable and see-through once open.",
    "closed": "Shut; use opens it (walks with `use_on_way` press use as they meet it), "
              "unless a panel drives it.",
    "closing": "Swinging shut.",
    "locked": "Shut and locked: its key (`key`), or its panel (`panel`), opens it.",
})
DOOR_STATES = tuple(DOOR_STATE_MEANINGS)
_DOORWAY_SLACK = 2.0  # units beyond an actor's radius that still count as "in the doorway"


@dataclass(eq=False)
class DoorRuntime:
    """The live state of one door or hidden exit.

    Attributes:
        id: The exit id.
        exit: The level's exit record.
        state: One of `DOOR_STATES` ("open" for hidden exits that are not doors).
        timer: Ticks left while opening or closing.
        close_at: Tick at which a door with open_seconds starts closing, if set.
        revealed: False for a hidden exit not yet revealed.
        waiting: True while an automatic close waits for the doorway to clear.
    """

    id: str
    exit: Exit
    state: str
    timer: int = 0
    close_at: int | None = None
    revealed: bool = True
    waiting: bool = False

    @property
    def door(self) -> Door:
        """The exit's door: asked only of gates that change state, which are doors."""
        door = self.exit.door
        if door is None:
            raise AttributeError(f"exit {self.id!r} has no door")
        return door

    @property
    def is_door(self) -> bool:
        """Whether this gate is a door (rather than a hidden opening or window)."""
        return self.exit.door is not None

    @property
    def blocking(self) -> bool:
        """Whether the gate is a wall right now."""
        return not self.revealed or (self.is_door and self.state != "open")

    def state_items(self) -> tuple:
        """The door's state for the state hash."""
        return (self.id, self.state, self.timer, self.close_at, self.revealed, self.waiting)


def _side_sign(seg, x: float, z: float) -> float:
    (ax, az), (bx, bz) = seg
    return (bx - ax) * (z - az) - (bz - az) * (x - ax)


class Doors:
    """Every gate of a level and the rules for opening, closing and unlocking them."""

    def __init__(self, world: World) -> None:
        """Create the runtime of each door and hidden exit and push their blocking."""
        self.world = world
        self.gates: dict[str, DoorRuntime] = {}
        self._area_sign: dict[str, dict[str, float]] = {}
        for gid, gate in world.layout.gates.items():
            door = gate.exit.door
            state = door.initial if door is not None else "open"
            self.gates[gid] = DoorRuntime(gid, gate.exit, state, revealed=not gate.exit.hidden)
            signs = {}
            for area_id in gate.exit.areas:
                ring = world.level.area(area_id).polygon
                cx = sum(p[0] for p in ring) / len(ring)
                cz = sum(p[1] for p in ring) / len(ring)
                signs[area_id] = math.copysign(1.0, _side_sign(gate.segment, cx, cz))
            self._area_sign[gid] = signs
        self._active: set[str] = set()
        self.version = 0
        self._blocked_cache: tuple = (-1, frozenset(), (), (frozenset(), frozenset()))
        for gid in sorted(self.gates):
            self._sync(self.gates[gid])

    # ---- helpers ----------------------------------------------------------------------
    def _sync(self, gate: DoorRuntime) -> None:
        blocking = gate.blocking
        self.world.physics.set_gate(gate.id, blocking)
        self.world.sight.set_gate(gate.id, blocking)
        self.version += 1

    def side_of(self, gate_id: str, x: float, z: float) -> str:
        """The id of the area on whose side of the gate a point lies."""
        sign = math.copysign(1.0, _side_sign(self.world.layout.gates[gate_id].segment, x, z))
        signs = self._area_sign[gate_id]
        return next((a for a, s in signs.items() if s == sign), next(iter(signs)))

    def in_doorway(self, gate_id: str) -> Actor | None:
        """The first actor (by id) whose body overlaps the gate's segment, if any."""
        gate = self.world.layout.gates[gate_id]
        (ax, az), (bx, bz) = gate.segment
        ex, ez = bx - ax, bz - az
        length2 = ex * ex + ez * ez or 1.0
        for actor in self.world.physics.members[gate.storey]:
            t = min(1.0, max(0.0, ((actor.x - ax) * ex + (actor.z - az) * ez) / length2))
            if math.hypot(actor.x - ax - t * ex, actor.z - az - t * ez) < actor.radius + (
                _DOORWAY_SLACK
            ):
                return actor
        return None

    def _start_opening(self, gate: DoorRuntime, by: str) -> None:
        gate.state = "opening"
        gate.timer = seconds_to_ticks(gate.door.opening_seconds)
        gate.waiting = False
        self.world.emit("door_opening", gate.id, by)
        if gate.timer == 0:
            self._finish(gate)
        else:
            self._active.add(gate.id)

    def _start_closing(self, gate: DoorRuntime, by: str | None) -> bool:
        blocker = self.in_doorway(gate.id)
        if blocker is not None:
            if not gate.waiting:
                self.world.emit("door_blocked", gate.id, blocker.id)
            gate.waiting = True
            return False
        gate.state = "closing"
        gate.timer = seconds_to_ticks(gate.door.opening_seconds)
        gate.close_at = None
        gate.waiting = False
        self._sync(gate)
        self.world.emit("door_closing", gate.id, by)
        if gate.timer == 0:
            self._finish(gate)
        else:
            self._active.add(gate.id)
        return True

    def _finish(self, gate: DoorRuntime) -> None:
        door = gate.door
        if gate.state == "opening":
            gate.state = "open"
            self._sync(gate)
            self.world.emit("door_opened", gate.id)
            if door.open_seconds is not None:
                gate.close_at = self.world.tick + seconds_to_ticks(door.open_seconds)
                self._active.add(gate.id)
                return
        else:
            gate.state = "closed"
            self._sync(gate)
            self.world.emit("door_closed", gate.id)
        self._active.discard(gate.id)

    # ---- rules ------------------------------------------------------------------------
    def refusal(self, actor: Actor, gate_id: str, state: str | None = None) -> str | None:
        """Why the actor cannot open or close the gate by pressing use now (None: it can).

        With `state`, the answer for the gate as if it stood in that state: what the
        player expects of a door it last saw so.
        """
        gate = self.gates[gate_id]
        door = gate.exit.door
        state = gate.state if state is None else state
        if not gate.revealed:
            return "it is a wall until revealed"
        if door is None:
            return "it is not a door"
        if door.panel is not None and state in ("closed", "locked"):
            return f"it has no handle; the panel {door.panel} opens it"
        if not actor.is_player and not door.characters_may_open and state != "open":
            return "characters may not open it"
        one_way = door.one_way_from
        if state in ("closed", "locked") and one_way is not None and (
            self.side_of(gate_id, actor.x, actor.z) != one_way
        ):
            return f"it opens only from {one_way}"
        if state == "locked":
            side = self.side_of(gate_id, actor.x, actor.z)
            free_side = door.locked_from is not None and side != door.locked_from
            if not free_side and (door.key is None or door.key not in actor.inventory):
                return f"it is locked; it needs the key {door.key}" if door.key else "it is locked"
        return None

    def use(self, actor: Actor, gate_id: str) -> None:
        """Press use on a gate: open, close, unlock with a carried key, or be refused."""
        gate = self.gates[gate_id]
        reason = self.refusal(actor, gate_id)
        if reason is not None:
            self.world.emit("door_refused", gate_id, actor.id, detail=reason)
            return
        if gate.state == "locked":
            door = gate.door
            via = door.key if door.key in actor.inventory else "free side"
            self.world.emit("door_unlocked", gate_id, actor.id, detail=via)
            self._start_opening(gate, actor.id)
        elif gate.state == "closed":
            self._start_opening(gate, actor.id)
        elif gate.state == "open":
            self._start_closing(gate, actor.id)
        elif gate.state == "closing":
            self._start_opening(gate, actor.id)

    def trigger(self, gate_id: str, mode: str, source: str) -> None:
        """Act on a gate from a panel, switch, computer, trigger or broken lock.

        Args:
            gate_id: The door or hidden exit.
            mode: "open", "toggle" or "unlock".
            source: The id of the object that acted.
        """
        gate = self.gates[gate_id]
        if not gate.revealed:
            gate.revealed = True
            self._sync(gate)
            self.world.emit("exit_revealed", gate_id, source)
            return
        if not gate.is_door:
            return
        if gate.state == "locked":
            gate.state = "closed"
            self.world.emit("door_unlocked", gate_id, source)
            if mode == "unlock":
                return
        if mode == "unlock":
            return
        if gate.state in ("closed", "closing"):
            self._start_opening(gate, source)
        elif mode == "toggle" and gate.state == "open":
            self._start_closing(gate, source)
        elif gate.state == "open" and gate.door.open_seconds is not None:
            # A panel pressed again keeps the door open for the full time.
            gate.close_at = self.world.tick + seconds_to_ticks(gate.door.open_seconds)

    def update(self) -> None:
        """Advance opening and closing timers and automatic closing."""
        if not self._active:
            return
        tick = self.world.tick
        for gid in sorted(self._active):
            gate = self.gates[gid]
            if gate.state in ("opening", "closing"):
                gate.timer -= 1
                if gate.timer <= 0:
                    self._finish(gate)
            elif gate.state == "open" and gate.close_at is not None and tick >= gate.close_at:
                if self._start_closing(gate, None):
                    continue
            elif gate.state == "open" and gate.close_at is None:
                self._active.discard(gid)

    def blocked(self, actor: Actor | None = None) -> frozenset[str]:
        """Gates not passable now; with an actor, less the ones it could open itself."""
        if self._blocked_cache[0] != self.version:
            self._blocked_cache = self._walls()
        _, walls, ordered, shut_to = self._blocked_cache
        if actor is None or not walls:
            return walls
        # Only the gates that block now can be ones the actor opens itself; those that
        # stay shut to its kind whatever their state are known without asking.
        always = shut_to[actor.is_player]
        refusal = self.refusal
        return frozenset(
            gid for gid in ordered if gid in always or refusal(actor, gid) is not None
        )

    def _walls(self) -> tuple[int, frozenset[str], tuple[str, ...], tuple[frozenset, ...]]:
        # The blocking gates (sorted), and of them those `refusal` turns down for any
        # character (index 0) or for the player (index 1) by what changes only with
        # `version` (revealed, blocking) and the level itself: a gate still hidden, an
        # exit with no door, and for characters a blocking door they may not open
        # (blocking leaves a revealed door's state other than open).
        ordered = tuple(gid for gid in sorted(self.gates) if self.gates[gid].blocking)
        for_all = frozenset(
            gid for gid in ordered
            if not self.gates[gid].revealed or self.gates[gid].exit.door is None
        )
        for_characters = for_all | frozenset(
            gid for gid in ordered
            if gid not in for_all and not self.gates[gid].door.characters_may_open
        )
        return self.version, frozenset(ordered), ordered, (for_characters, for_all)
