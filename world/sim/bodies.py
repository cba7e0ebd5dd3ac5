"""Actor bodies in pymunk, and a bulk view of one space's bodies as a numpy array.

Each actor is a dynamic circle with infinite moment, driven by a kinematic control body
through a pivot joint with no positional bias: setting the control body's velocity asks
for a walking velocity that the solver reconciles with walls and other bodies in the
same pass. (Setting the body's own velocity would move it before contacts are solved,
so a body walking into a wall would creep through it.)

Reading positions back one body at a time costs more than the physics step itself, so
`SpaceBatch` copies every body's position and velocity of a space into one array with
a single call into chipmunk after each step.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pymunk
import pymunk.batch

# The C entry points behind pymunk's body properties and batch module: the per-tick loop
# calls them directly because pymunk's Python layer costs more than the work itself.
from pymunk._chipmunk import ffi as _ffi
from pymunk._chipmunk import lib as _cp

from world.sim import kernels

# Force limits of the walking drive: a walker overpowers someone standing, so bodies
# push each other aside, but two walkers pushing head-on stall rather than pass.
WALK_FORCE = 40000.0
STAND_FORCE = 4000.0
REST = 1e-6  # units per second: slower than this counts as standing still
# World units: a standing body that overlaps another is nudged by the solver's position
# correction alone, by ever smaller amounts (1e-14 a tick) that would keep its space
# stepping forever; a shift this small counts as no move.
CREEP = 1e-9

_FIELDS = pymunk.batch.BodyFields.POSITION | pymunk.batch.BodyFields.VELOCITY
_SPARE_ROWS = 4
# Up to this many residues settled at once, element writes cost less than list indexing.
FEW_RESIDUES = 12
_AT_REST = (0.0, 0.0)
_GET_EACH = _ffi.addressof(_cp, "pmSpaceBodyGetIteratorFuncBatched")
_EACH_BODY = _cp.cpSpaceEachBody


class Handle:
    """An actor's pymunk parts plus the last drive command, so unchanged commands cost nothing."""

    __slots__ = ("body", "changed", "control", "cptr", "dptr", "drive", "last", "live", "parts",
                 "ptr")

    def __init__(self, body: pymunk.Body, shape: pymunk.Shape, control: pymunk.Body,
                 drive: pymunk.PivotJoint) -> None:
        self.body, self.control, self.drive = body, control, drive
        self.parts = (body, shape, control, drive)
        self.ptr, self.cptr, self.dptr = body._body, control._body, drive._constraint
        self.last = (0.0, 0.0, STAND_FORCE)
        self.changed = False
        # The physics' register of bodies to drive (set when the body joins a world).
        self.live: dict[Any, None] = {}

    @classmethod
    def make(cls, x: float, z: float, radius: float) -> Handle:
        """A standing body at a ground point with its control body and drive."""
        body = pymunk.Body(1.0, math.inf)
        body.position = (x, z)
        shape = pymunk.Circle(body, radius)
        shape.friction = 0.0
        shape.elasticity = 0.0
        control = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        control.position = (x, z)
        drive = pymunk.PivotJoint(control, body, (0, 0), (0, 0))
        drive.max_bias = 0.0
        drive.max_force = STAND_FORCE
        return cls(body, shape, control, drive)

    def command(self, vx: float, vz: float, force: float) -> None:
        """Ask the drive for a walking velocity with a force limit."""
        last = self.last
        self.changed = last[0] != vx or last[1] != vz or last[2] != force
        if self.changed:
            _cp.cpBodySetVelocity(self.cptr, (vx, vz))
            if last[2] != force:
                _cp.cpConstraintSetMaxForce(self.dptr, force)
            self.last = (vx, vz, force)

    def stop(self) -> None:
        """Bring the body to rest exactly (the solver leaves tiny residues)."""
        _cp.cpBodySetVelocity(self.ptr, (0.0, 0.0))


class SpaceBatch:
    """Positions and velocities of a space's bodies, read in one call after each step.

    The row order is chipmunk's own body order, which changes only when bodies are added
    or removed; `rows` maps the given bodies (in the caller's order) to their rows. The
    batch must be rebuilt after any body joins or leaves the space.
    """

    def __init__(self, space: pymunk.Space, bodies: list[pymunk.Body],
                 buf: np.ndarray | None = None) -> None:
        """Find the row of each body and point chipmunk at the array it writes into.

        Args:
            space: The space.
            bodies: Its bodies the caller wants, in the caller's order.
            buf: Where to write, a C-contiguous (n, 4) block of at least `rows_needed`
                rows (a slice of a larger array shared by several spaces); None makes one.
        """
        probe = pymunk.batch.Buffer()
        pymunk.batch.get_space_bodies(space, pymunk.batch.BodyFields.BODY_ID, probe)
        ids = np.frombuffer(probe.int_buf(), dtype=np.uintp).tolist()
        where = {body_id: row for row, body_id in enumerate(ids)}
        self.rows = np.array([where[b.id] for b in bodies], dtype=np.intp)
        self.buf = np.zeros((self.rows_needed(space), 4)) if buf is None else buf
        self._space = space._space
        # Chipmunk appends into a growable array; pointing it at our own buffer, exactly
        # as large as the space has bodies, lets it fill numpy memory in place.
        self._keep = _ffi.from_buffer("cpFloat[]", self.buf)
        self._array = _cp.pmFloatArrayNew(0)
        self._array.arr = self._keep
        self._array.max = self.buf.size
        self._array.num = 0
        self._data = _ffi.new("pmBatchedData *")
        self._data.fields = _FIELDS.value
        self._data.floatArray = self._array
        self._data.intArray = _cp.pmIntArrayNew(0)

    @staticmethod
    def rows_needed(space: pymunk.Space) -> int:
        """Rows a buffer for a space needs: one per body (controls too) plus spares."""
        # Chipmunk grows its array one push before it is full, so leave spare rows.
        return len(space.bodies) + _SPARE_ROWS

    def fill(self) -> None:
        """Copy every body's (x, z, vx, vz) into the buffer, in chipmunk's order."""
        self._array.num = 0
        _EACH_BODY(self._space, _GET_EACH, self._data)

    def read(self) -> np.ndarray:
        """The given bodies' (x, z, vx, vz) now, one row each, in the caller's order."""
        self.fill()
        return self.buf[self.rows]


class Bulk:
    """Every space's actor bodies as the rows of one array, read after each step.

    Each space's batch writes into its own block of one shared buffer, so however many
    spaces were stepped, finding what changed is one pass of numpy calls over all
    actors. Rows are the actors space by space (in the spaces' order), each space's in
    its members' order. Rebuild after any body joins or leaves a space.

    Attributes:
        actors: The actor of each row.
        batches: The batch of each space that has actors.
        rows: Each actor's row in the shared buffer.
        known: What the actors knew after the last step (x, z, vx, vz), to find the
            rows that changed.
        shifted: Which actors moved in the last step (their displacement velocity must
            be cleared when they stop).
    """

    def __init__(self, spaces: Mapping[str, pymunk.Space],
                 members: Mapping[str, Sequence[Any]]) -> None:
        """Lay out the buffer and read every space once, so all blocks hold the present."""
        sizes = {st: SpaceBatch.rows_needed(spaces[st]) for st, ms in members.items() if ms}
        self.buf = np.zeros((sum(sizes.values()), 4))
        self.batches: dict[str, SpaceBatch] = {}
        self.actors: list[Any] = []
        rows, offset = [], 0
        for storey, size in sizes.items():
            batch = SpaceBatch(spaces[storey], [a.body.body for a in members[storey]],
                               self.buf[offset:offset + size])
            batch.fill()
            self.batches[storey] = batch
            rows.append(batch.rows + offset)
            self.actors.extend(members[storey])
            offset += size
        self.rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.intp)
        self._row_list: list[int] = self.rows.tolist()
        # The buffer as one flat run of doubles: a memoryview's element writes cost a
        # fraction of numpy's (see `settle`).
        # (A view of nothing cannot be cast; with no actors there is nothing to settle.)
        self._flat = self.buf.data.cast("B").cast("d") if self.buf.size else None
        self.known = np.array([(a.x, a.z, a.next_vx, a.next_vz) for a in self.actors],
                              dtype=float).reshape(-1, 4)
        self.shifted = np.array([bool(a.vx or a.vz) for a in self.actors], dtype=bool)
        self._tolerance = np.array([CREEP, CREEP, 0.0, 0.0])
        self._changed = np.empty(len(self.rows), dtype=np.intp)  # the compiled pass's rows

    def changes(self) -> tuple[list[int], np.ndarray]:
        """Rows that changed since the last call, and every row's (x, z, vx, vz) now.

        A position counts as changed when it moved more than `CREEP`; a velocity on any
        change. Spaces not stepped since their last read keep their block, which
        matches `known`. Residual velocities are the caller's to clear (`settle`).
        """
        if kernels.COMPILED:  # the same in one compiled loop
            now = np.empty_like(self.known)
            n = kernels.body_changes(self.buf, self.rows, self.known, CREEP, self.shifted, now,
                                     self._changed)
            self.known = now
            return self._changed[:n].tolist(), now
        # A fresh array: it becomes `known` as it stands (`take` is numpy's cheaper
        # spelling of indexing by an array).
        now = self.buf.take(self.rows, axis=0)
        change = now - self.known
        changed = np.abs(change, out=change) > self._tolerance
        # Four bools of a row read as one 32-bit word: nonzero when anything changed.
        rows = (changed.view(np.uint32)[:, 0] | self.shifted).nonzero()[0].tolist()
        np.logical_or(changed[:, 0], changed[:, 1], out=self.shifted)
        self.known = now
        return rows, now

    def settle(self, rows: list[int]) -> None:
        """Bring the bodies of some rows to rest exactly (the solver leaves tiny residues)."""
        actors, set_velocity = self.actors, _cp.cpBodySetVelocity
        for i in rows:
            set_velocity(actors[i].body.ptr, _AT_REST)  # `Handle.stop`, written out
        if len(rows) > FEW_RESIDUES:
            self.buf[self.rows[rows], 2:4] = 0.0
            self.known[rows, 2:4] = 0.0
            return
        # A tick mostly leaves a handful of residues (a pack of bodies pressed together),
        # and for so few, element writes through flat memoryviews (a row is 4 doubles)
        # cost less than numpy's indexing by a list or its own element writes.
        buf, known, row_of = self._flat, self.known.data.cast("B").cast("d"), self._row_list
        if buf is None:  # no actors: nothing was stepped
            return
        for i in rows:
            r = 4 * row_of[i]
            buf[r + 2] = buf[r + 3] = 0.0
            k = 4 * i
            known[k + 2] = known[k + 3] = 0.0
