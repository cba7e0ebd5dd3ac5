"""The level as 3D solids (trimesh): floors, walls with their heights, doors, windows, stairs.

The level format is a plan: polygons on storeys at heights. The third dimension that
the plan leaves open is fixed here, once: a storey's walls reach the storey above (or
`TOP_WALL_HEIGHT` on the top storey), doors are `DOOR_HEIGHT` high, windows span
`WINDOW_SILL` to `WINDOW_HEAD`. Coordinates stay the level's: x and z on the ground,
y up (glTF's convention too), in world units.

Walls stand on every area boundary, once where two areas share an edge, except where an
exit or a stair end lies on it: an opening leaves the wall open to the top, a door and
a window leave wall above (and a window below), and the door or window itself is a
thin panel in the gap.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely.geometry import LineString, MultiLineString, Polygon

from world.level.model import Exit, Level, Segment

if TYPE_CHECKING:
    import trimesh

TOP_WALL_HEIGHT = 300.0  # walls of the top storey, about 3 m
DOOR_HEIGHT = 210.0
WINDOW_SILL = 90.0
WINDOW_HEAD = 210.0
FLOOR_THICKNESS = 10.0
WALL_THICKNESS = 10.0
PANEL_THICKNESS = 4.0  # door leaves and window panes
PATH_RADIUS = 5.0
PATH_LIFT = 20.0  # the walked path floats above the floor so it is not hidden in it
_LIFT = np.array((0.0, PATH_LIFT, 0.0))
_GAP = 0.5  # how far from an exit's line a wall counts as lying on it
_SHORTEST = 1.0  # wall pieces shorter than this are rounding, not walls


@dataclass(frozen=True)
class Solid:
    """One named piece of the model.

    Attributes:
        name: `kind/storey/id` (`wall/<storey>/<n>`; `stairs/<bottom storey>/<id>`;
            `path/-/route`), unique in the model.
        kind: floor, wall, door, window, stairs or path.
        storey: The storey it stands on ("-" for the path).
        mesh: Its closed triangle mesh.
    """

    name: str
    kind: str
    storey: str
    mesh: trimesh.Trimesh


def wall_heights(level: Level) -> dict[str, float]:
    """Each storey's wall height: up to the next storey, or TOP_WALL_HEIGHT on the top one."""
    ys = sorted({s.y for s in level.storeys})
    above = {y: next((h for h in ys if h > y), None) for y in ys}
    return {s.id: TOP_WALL_HEIGHT if (top := above[s.y]) is None else top - s.y
            for s in level.storeys}


def level_solids(level: Level) -> list[Solid]:
    """Every floor, wall piece, door, window and flight of stairs of a level, in level order."""
    heights = wall_heights(level)
    solids = [Solid(f"floor/{a.storey}/{a.id}", "floor", a.storey,
                    _floor(a.polygon, level.storey(a.storey).y)) for a in level.areas]
    for storey in level.storeys:
        solids += _storey_walls(level, storey.id, storey.y, heights[storey.id])
    for stairs in level.stairs:
        bottom, top = level.area(stairs.bottom.area), level.area(stairs.top.area)
        solids.append(Solid(f"stairs/{bottom.storey}/{stairs.id}", "stairs", bottom.storey,
                            _ramp(stairs.bottom.edge, level.storey(bottom.storey).y,
                                  stairs.top.edge, level.storey(top.storey).y)))
    return solids


def _trimesh() -> ModuleType:
    # Start-up cost: trimesh takes over a second to import and only `harness export`
    # builds solids, so every other command (and each test's subprocess) goes without.
    import trimesh

    return trimesh


def path_solid(points: Sequence[tuple[float, float, float]]) -> Solid | None:
    """A thin tube along a walked route (x, y, z points on the floor), or None if it never moved."""
    trimesh = _trimesh()
    pieces = []
    for a, b in itertools.pairwise(points):
        start = np.array(a, dtype=float) + _LIFT
        end = np.array(b, dtype=float) + _LIFT
        if np.linalg.norm(end - start) >= _SHORTEST:
            pieces.append(trimesh.creation.cylinder(radius=PATH_RADIUS, sections=8,
                                                    segment=np.array([start, end])))
    if not pieces:
        return None
    return Solid("path/-/route", "path", "-", trimesh.util.concatenate(pieces))


def _floor(polygon: Sequence[tuple[float, float]], y: float) -> trimesh.Trimesh:
    # Extruded along +z in the plan's (x, z) frame, then turned so the slab's top is at y.
    slab = _trimesh().creation.extrude_polygon(Polygon(polygon), FLOOR_THICKNESS)
    swap = np.array([[1, 0, 0, 0], [0, 0, 1, y - FLOOR_THICKNESS], [0, 1, 0, 0], [0, 0, 0, 1]],
                    dtype=float)
    slab.apply_transform(swap)  # a mirror: trimesh turns the faces back outwards
    return slab


def _box(a: tuple[float, float], b: tuple[float, float], y0: float, y1: float,
         thickness: float) -> trimesh.Trimesh:
    """An upright box along the plan segment a-b, from height y0 to y1."""
    length = math.dist(a, b)
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    # Rotating about y by -angle maps the box's x axis onto the segment's direction.
    trimesh = _trimesh()
    turn = trimesh.transformations.rotation_matrix(-angle, (0.0, 1.0, 0.0))
    turn[:3, 3] = ((a[0] + b[0]) / 2, (y0 + y1) / 2, (a[1] + b[1]) / 2)
    return trimesh.creation.box(extents=(length, y1 - y0, thickness), transform=turn)


# The ramp's six faces over its corners (0-1 the bottom edge, 2-3 the top edge, each on
# the walking surface; 4-7 the same corners a floor's thickness lower), two triangles each.
_RAMP_FACES = np.array([(0, 1, 2), (0, 2, 3), (4, 6, 5), (4, 7, 6), (0, 4, 5), (0, 5, 1),
                        (1, 5, 6), (1, 6, 2), (2, 6, 7), (2, 7, 3), (3, 7, 4), (3, 4, 0)])


def _ramp(bottom: Segment, y0: float, top: Segment, y1: float) -> trimesh.Trimesh:
    """A slab from the bottom edge up to the top edge, a floor's thickness deep.

    Built from its eight corners directly (a convex hull would need scipy, which only the
    Doom extra installs, and `harness export` must work on the core install).
    """
    a, b = bottom
    # The top edge runs the same way as the bottom one, so the side faces do not cross.
    c, d = top if math.dist(a, top[1]) <= math.dist(a, top[0]) else (top[1], top[0])
    surface = [(a[0], y0, a[1]), (b[0], y0, b[1]), (c[0], y1, c[1]), (d[0], y1, d[1])]
    corners = np.array(surface + [(x, y - FLOOR_THICKNESS, z) for x, y, z in surface])
    faces = _RAMP_FACES
    # Signed volume (sum of the triangles' tetrahedra): negative means the faces point in.
    if np.linalg.det(corners[faces]).sum() < 0:
        faces = faces[:, ::-1]
    return _trimesh().Trimesh(vertices=corners, faces=faces, process=False)


def _gap_pieces(ex: Exit, y: float, height: float) -> list[tuple[str, float, float]]:
    """What fills an exit's gap in the wall: (kind, from, to) heights above the floor."""
    top = y + height
    if ex.kind == "door":
        head = y + min(DOOR_HEIGHT, height)
        return [("door", y, head), ("wall", head, top)]
    if ex.kind == "window":
        sill, head = y + min(WINDOW_SILL, height), y + min(WINDOW_HEAD, height)
        return [("wall", y, sill), ("window", sill, head), ("wall", head, top)]
    return []  # an opening is open to the top


def _storey_walls(level: Level, storey: str, y: float, height: float) -> list[Solid]:
    areas = [a for a in level.areas if a.storey == storey]
    exits = [e for e in level.exits if level.area(e.areas[0]).storey == storey]
    ends = [end.edge for s in level.stairs for end in (s.bottom, s.top)
            if level.area(end.area).storey == storey]
    outline = shapely.unary_union([LineString([*a.polygon, a.polygon[0]]) for a in areas])
    gaps = [LineString(seg).buffer(_GAP, cap_style="flat")
            for seg in [e.segment for e in exits] + ends]
    walls = outline.difference(shapely.unary_union(gaps)) if gaps else outline
    solids = [Solid(f"wall/{storey}/{n}", "wall", storey,
                    _box(a, b, y, y + height, WALL_THICKNESS))
              for n, (a, b) in enumerate(_segments(walls))]
    for ex in exits:
        a, b = ex.segment
        for kind, y0, y1 in _gap_pieces(ex, y, height):
            if y1 - y0 < _SHORTEST:
                continue
            name = (f"{kind}/{storey}/{ex.id}" if kind != "wall"
                    else f"wall/{storey}/{len(solids)}")
            thick = WALL_THICKNESS if kind == "wall" else PANEL_THICKNESS
            solids.append(Solid(name, kind, storey, _box(a, b, y0, y1, thick)))
    return solids


def _segments(lines: shapely.Geometry) -> Iterable[tuple[tuple[float, float], tuple[float, float]]]:
    """The straight pieces of what is left of an outline, long enough to be walls, in order."""
    parts = [g for g in shapely.get_parts(lines) if isinstance(g, LineString) and not g.is_empty]
    if not parts:
        return
    for line in shapely.get_parts(shapely.line_merge(MultiLineString(parts))):
        coords = [(float(x), float(z)) for x, z in line.coords]
        for a, b in itertools.pairwise(coords):
            if math.dist(a, b) >= _SHORTEST:
                yield a, b
