"""Movement: one pymunk space per storey, static walls, gates that come and go, stairs.

Actors are dynamic circles driven through a pivot joint (see `bodies`). Every space with
something moving is stepped once per tick with dt = `clock.DT`; positions and velocities are
then read back in bulk, and only the actors whose body changed are touched in Python.
Chipmunk is deterministic for the same sequence of calls, so the same inputs give the
same floats in any process; residual velocities below `bodies.REST` are set to exactly zero so
that bodies come to rest and quiet spaces stop being stepped.
"""

from __future__ import annotations

import math

import pymunk
from pymunk._chipmunk import lib as _cp

from world.sim.actors import Actor
from world.sim.bodies import CREEP, REST, STAND_FORCE, WALK_FORCE, Bulk, Handle
from world.sim.clock import DT, TICKS_PER_SECOND
from world.sim.layout import Layout, Ramp, point_in_polygon

WALL_RADIUS = 1.0
# Bound once: looking a function up on the C library object is itself a call.
_SET_VELOCITY = _cp.cpBodySetVelocity
_SET_MAX_FORCE = _cp.cpConstraintSetMaxForce
_SPACE_STEP = _cp.cpSpaceStep
_STANDING = (0.0, 0.0, STAND_FORCE)
_NONE: frozenset[str] = frozenset()


def _ramp_zone(ramp: Ramp, margin: float) -> tuple[tuple[float, float], ...]:
    # The quad stretched along its axis, so an actor just past an end still counts as on it.
    ax, az = ramp.axis[0] * margin, ramp.axis[1] * margin
    (b0, b1, t1, t0) = ramp.quad
    return (
        (b0[0] - ax, b0[1] - az), (b1[0] - ax, b1[1] - az),
        (t1[0] + ax, t1[1] + az), (t0[0] + ax, t0[1] + az),
    )


class Physics:
    """The pymunk spaces of a level and the bodies of its actors."""

    def __init__(self, layout: Layout, margin: float = 40.0) -> None:
        """Build one space per storey with its static walls; gates start absent."""
        self.layout = layout
        self.spaces: dict[str, pymunk.Space] = {}
        self.members: dict[str, list[Actor]] = {}
        for storey in layout.storeys:
            space = pymunk.Space()
            space.iterations = 6
            # Push overlapping bodies apart within a tick or two rather than over a second.
            space.collision_bias = pow(0.4, 60)
            for a, b in layout.move_walls[storey]:
                space.add(self._wall(space, a, b))
            self.spaces[storey] = space
            self.members[storey] = []
        self.gate_shapes = {
            gid: self._wall(self.spaces[g.storey], *g.segment) for gid, g in layout.gates.items()
        }
        self.gates_present: set[str] = set()
        self._ramps: dict[str, list[tuple[Ramp, tuple, tuple]]] = {}
        for ramp in layout.ramps:
            zone = _ramp_zone(ramp, margin)
            box = (
                min(p[0] for p in zone), min(p[1] for p in zone),
                max(p[0] for p in zone), max(p[1] for p in zone),
            )
            for storey in (ramp.bottom_storey, ramp.top_storey):
                self._ramps.setdefault(storey, []).append((ramp, box, zone))
        # Per storey, the box around all its stair zones: a body off its storey's floor
        # height or inside it is checked flight by flight, any other stays on the floor.
        self._ramp_box = {
            storey: (min(b[0] for _, b, _ in rs), min(b[1] for _, b, _ in rs),
                     max(b[2] for _, b, _ in rs), max(b[3] for _, b, _ in rs),
                     layout.storey_y[storey])
            for storey, rs in self._ramps.items()
        }
        self._dirty: set[str] = set(layout.storeys)
        # The bodies that walk, move or were just told to stand: the only ones the drive
        # visits (insertion-ordered, so every process visits them alike).
        self.live: dict[Actor, None] = {}
        # Counts the ticks (and instant moves) on which any body moved: readers that
        # keep positions may reuse them while it stands still.
        self.motion = 0
        self._bulk: Bulk | None = None
        self._space_ptrs = {storey: space._space for storey, space in self.spaces.items()}

    @staticmethod
    def _wall(space: pymunk.Space, a, b) -> pymunk.Segment:
        seg = pymunk.Segment(space.static_body, a, b, WALL_RADIUS)
        seg.friction = 0.0
        seg.elasticity = 0.0
        return seg

    def set_gate(self, gate_id: str, blocking: bool) -> None:
        """Add a gate's wall segment to its space, or take it away."""
        if blocking == (gate_id in self.gates_present):
            return
        storey = self.layout.gates[gate_id].storey
        shape = self.gate_shapes[gate_id]
        if blocking:
            self.spaces[storey].add(shape)
            self.gates_present.add(gate_id)
        else:
            self.spaces[storey].remove(shape)
            self.gates_present.discard(gate_id)
        self._dirty.add(storey)

    def add_actor(self, actor: Actor) -> None:
        """Give an actor a body (driven by a control body) in the space of its storey."""
        self.motion += 1
        actor.body = Handle.make(actor.x, actor.z, actor.radius)
        actor.body.live = self.live
        self.live[actor] = None
        self.spaces[actor.storey].add(*actor.body.parts)
        self._insert(actor)

    def _insert(self, actor: Actor) -> None:
        members = self.members[actor.storey]
        members.append(actor)
        members.sort(key=lambda a: a.id)
        self._changed(actor.storey)

    def _changed(self, storey: str) -> None:
        # Bodies joined or left: chipmunk's body order changed, so the rows are rebuilt.
        self._bulk = None
        self._dirty.add(storey)

    def remove_actor(self, actor: Actor) -> None:
        """Take an actor's body out of the world (it went down)."""
        if actor.body is None:
            return
        self.motion += 1
        self.spaces[actor.storey].remove(*actor.body.parts)
        self.members[actor.storey].remove(actor)
        self._changed(actor.storey)
        self.live.pop(actor, None)
        actor.body = None
        actor.vx = actor.vz = 0.0

    def place(self, actor: Actor, x: float, z: float, storey: str) -> None:
        """Put an actor's body at a point, moving it to another storey's space if needed."""
        self.motion += 1
        if actor.body is None:
            actor.x, actor.z, actor.storey = x, z, storey
            return
        body = actor.body.body
        if storey != actor.storey:
            self.spaces[actor.storey].remove(*actor.body.parts)
            self.members[actor.storey].remove(actor)
            self._changed(actor.storey)
            actor.storey = storey
            self.spaces[storey].add(*actor.body.parts)
            self._insert(actor)
        body.position = (x, z)
        body.velocity = (0.0, 0.0)
        actor.next_vx = actor.next_vz = 0.0
        actor.x, actor.z = x, z
        self._changed(storey)

    def _drive(self) -> set[str]:
        """Command the drive of every live body for this tick; returns the storeys that move.

        `Handle.command` written out inline: this loop runs for every walker every tick.
        """
        active: set[str] = set()
        rested = []
        set_velocity, set_force = _SET_VELOCITY, _SET_MAX_FORCE
        # Module names read once: this loop runs for every live body every tick.
        hypot, dt, tps, standing = math.hypot, DT, TICKS_PER_SECOND, _STANDING
        stand, walk = STAND_FORCE, WALK_FORCE
        for actor in self.live:
            handle = actor.body
            target = actor._move_to
            if target is not None:
                # The body moves first with the velocity solved last step, so aim
                # from where that will leave it: no overshoot, no oscillation.
                x, z = actor.x, actor.z
                dx = target[0] - x - actor.next_vx * dt
                dz = target[1] - z - actor.next_vz * dt
                dist = hypot(dx, dz)
                if dist < 0.5 and abs(target[0] - x) + abs(target[1] - z) < 0.5:
                    actor.move_to = target = None
            last = handle.last
            if target is None:
                changed = False
                if last is not standing:
                    changed = last[0] != 0.0 or last[1] != 0.0 or last[2] != stand
                    if changed:
                        set_velocity(handle.cptr, (0.0, 0.0))
                        if last[2] != stand:
                            set_force(handle.dptr, stand)
                        active.add(actor.storey)
                    handle.last = standing  # the same object: later ticks skip all this
                if actor.vx or actor.vz or actor.next_vx or actor.next_vz:
                    active.add(actor.storey)
                elif not changed:
                    rested.append(actor)  # still, and told so: nothing to drive until woken
                continue
            active.add(actor.storey)
            if dist < 0.5:
                vx = vz = 0.0
            else:
                # Never overshoot the waypoint within one tick.
                v = min(actor.speed, dist * tps) / dist
                vx, vz = dx * v, dz * v
            if last[0] != vx or last[1] != vz or last[2] != walk:
                set_velocity(handle.cptr, (vx, vz))
                if last[2] != walk:
                    set_force(handle.dptr, walk)
                handle.last = (vx, vz, walk)
        for actor in rested:
            del self.live[actor]
        return active

    def step(self) -> tuple[list[Actor], list[tuple[Actor, Ramp]]]:
        """Advance every space with motion by one tick.

        Returns:
            The actors that moved, and the actors that crossed the far end of a ramp with
            the ramp, so the caller can move them to the other storey and record it.
        """
        moved: list[Actor] = []
        crossings: list[tuple[Actor, Ramp]] = []
        active = self._drive() if self.live else _NONE
        dirty = self._dirty
        if not active and not dirty:
            return moved, crossings  # nothing moves anywhere: no space to step
        bulk = self._bulk
        stepped = False
        for storey, members in self.members.items():
            if storey not in active and storey not in dirty:
                continue
            dirty.discard(storey)
            if not members:
                continue
            if bulk is None:
                # Before any space steps this tick, so every block reads as `known`.
                bulk = self._bulk = Bulk(self.spaces, self.members)
            space = self.spaces[storey]
            # pymunk's own step wrapper only adds bookkeeping this world never uses
            # (deferred additions, callbacks); what it keeps alive is released here.
            if space._removed_shapes or space._bodies_to_check:
                space._removed_shapes.clear()
                space._bodies_to_check.clear()
            _SPACE_STEP(self._space_ptrs[storey], DT)
            bulk.batches[storey].fill()
            stepped = True
        if not stepped or bulk is None:  # (a space stepped only after `bulk` was made)
            return moved, crossings
        rows, now = bulk.changes()
        settled: list[int] = []
        actors, ramps_of, ramp_box, live = bulk.actors, self._ramps, self._ramp_box, self.live
        rest, creep, tps, atan2 = REST, CREEP, TICKS_PER_SECOND, math.atan2  # read once
        for i, (x, z, vx, vz) in zip(rows, now.take(rows, axis=0).tolist(), strict=True):
            actor = actors[i]
            live[actor] = None  # it moved or its velocity changed: drive it next tick
            if (vx or vz) and -rest < vx < rest and -rest < vz < rest:
                # A residue of the solver: zero it, so the body and its space come to rest.
                settled.append(i)
                vx = vz = 0.0
            actor.next_vx, actor.next_vz = vx, vz
            ox, oz = actor.x, actor.z
            if not (vx or vz) and -creep <= x - ox <= creep and -creep <= z - oz <= creep:
                # At rest, or only nudged by the solver's overlap correction (bodies
                # packed together): not a move, so the body can drop out of the drive.
                actor.vx = actor.vz = 0.0
                continue
            actor.vx = (x - ox) * tps
            actor.vz = (z - oz) * tps
            actor.x, actor.z = x, z
            moved.append(actor)
            dirty.add(actor.storey)
            if actor._move_to is not None and (actor.vx or actor.vz):
                actor.facing = atan2(actor.vz, actor.vx)
            box = ramp_box.get(actor.storey)
            if box is not None and (
                actor.on_ramp or actor.y != box[4]
                or (box[0] <= x <= box[2] and box[1] <= z <= box[3])
            ):
                ramp = self._ramp_update(actor, ramps_of[actor.storey])
                if ramp is not None:
                    crossings.append((actor, ramp))
        if settled:
            bulk.settle(settled)
        if moved:
            self.motion += 1
        return moved, crossings

    def _ramp_update(self, actor: Actor, ramps: list[tuple[Ramp, tuple, tuple]]) -> Ramp | None:
        x, z = actor.x, actor.z
        for ramp, (x0, z0, x1, z1), zone in ramps:
            if x < x0 or x > x1 or z < z0 or z > z1 or not point_in_polygon(x, z, zone):
                continue
            t = ramp.t(x, z)
            if not actor.on_ramp and (t > 0.5) == (actor.storey == ramp.bottom_storey):
                # A flight is stepped onto only from its own storey's end: the far end's
                # footprint is floor of the other storey (a hall above the bottom end).
                continue
            actor.y = ramp.height(t)
            actor.on_ramp = True
            # The far storey takes the body over while its rim still clears the end of
            # the flight, not once its centre is past it: a floor of this storey may
            # hang over that end (a landing above the foot of a flight), and its edge
            # stays a wall here, since cutting it would open a drop into the stairwell.
            # A body held back by that wall rests one body and wall radius short of it.
            # Capped, so that on a very short flight the two ends never hand a body back
            # and forth.
            reach = min(0.25, (actor.radius + 2.0 * WALL_RADIUS) / ramp.length)
            if (actor.storey == ramp.bottom_storey and t >= 1.0 - reach) or (
                actor.storey == ramp.top_storey and t <= reach
            ):
                return ramp
            return None
        actor.y = self.layout.storey_y[actor.storey]
        actor.on_ramp = False
        return None
