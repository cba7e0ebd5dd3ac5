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

import numpy as np
import pymunk
import pymunk.batch

# The C entry points behind pymunk's body properties and batch module: the per-tick loop
# calls them directly because pymunk's Python layer costs more than the work itself.
from pymunk._chipmunk import ffi as _ffi
from pymunk._chipmunk import lib as _cp

# Force limits of the walking drive: a walker overpowers someone standing, so bodies
# push each other aside, but two walkers pushing head-on stall rather than pass.
WALK_FORCE = 40000.0
STAND_FORCE = 4000.0

_FIELDS = pymunk.batch.BodyFields.POSITION | pymunk.batch.BodyFields.VELOCITY
_SPARE_ROWS = 4
_GET_EACH = _ffi.addressof(_cp, "pmSpaceBodyGetIteratorFuncBatched")


class Handle:
    """An actor's pymunk parts plus the last drive command, so unchanged commands cost nothing."""

    __slots__ = ("body", "changed", "control", "cptr", "dptr", "drive", "last", "parts", "ptr")

    def __init__(self, body: pymunk.Body, shape: pymunk.Shape, control: pymunk.Body,
                 drive: pymunk.PivotJoint) -> None:
        self.body, self.control, self.drive = body, control, drive
        self.parts = (body, shape, control, drive)
        self.ptr, self.cptr, self.dptr = body._body, control._body, drive._constraint
        self.last = (0.0, 0.0, STAND_FORCE)
        self.changed = False

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

    def __init__(self, space: pymunk.Space, bodies: list[pymunk.Body]) -> None:
        """Find the row of each body and allocate the array chipmunk writes into."""
        probe = pymunk.batch.Buffer()
        pymunk.batch.get_space_bodies(space, pymunk.batch.BodyFields.BODY_ID, probe)
        ids = np.frombuffer(probe.int_buf(), dtype=np.uintp).tolist()
        where = {body_id: row for row, body_id in enumerate(ids)}
        self.rows = np.array([where[b.id] for b in bodies], dtype=np.intp)
        # Chipmunk grows its array one push before it is full, so leave spare rows.
        self.buf = np.zeros((len(ids) + _SPARE_ROWS, 4))
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

    def read(self) -> np.ndarray:
        """The given bodies' (x, z, vx, vz) now, one row each, in the caller's order."""
        self._array.num = 0
        _cp.cpSpaceEachBody(self._space, _GET_EACH, self._data)
        return self.buf[self.rows]
