"""Each sector's floor as a polygon, from the lines that bound it.

A sector's boundary is every line with the sector on exactly one side (a two-sided
line with the same sector on both sides is decoration, dropped). The lines are
polygonized into faces and a face belongs to the sector when a ray from a point inside
it crosses the boundary an odd number of times (even-odd fill), which is how Doom's
renderer treats sectors drawn inside sectors and unclosed decorations.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon

from world.doom.wad import MapData

Segments = np.ndarray  # (n, 4): x1, y1, x2, y2


def sector_of_sides(found: MapData) -> tuple[np.ndarray, np.ndarray]:
    """Per line, the sector on its front and on its back (-1 for none)."""
    front = np.array([found.sides[ln.front].sector if ln.front is not None else -1
                      for ln in found.lines], dtype=np.int64)
    back = np.array([found.sides[ln.back].sector if ln.back is not None else -1
                     for ln in found.lines], dtype=np.int64)
    return front, back


def line_segments(found: MapData) -> Segments:
    """Every line as x1, y1, x2, y2 in map units."""
    v = np.array(found.vertices, dtype=np.float64).reshape(-1, 2)
    ends = np.array([(ln.v1, ln.v2) for ln in found.lines], dtype=np.int64).reshape(-1, 2)
    return np.hstack([v[ends[:, 0]], v[ends[:, 1]]])


def _odd_crossings(points: np.ndarray, segs: Segments) -> np.ndarray:
    """Per point, whether a ray to +x crosses the segments an odd number of times."""
    px, py = points[:, 0:1], points[:, 1:2]
    x1, y1, x2, y2 = (segs[:, i][None, :] for i in range(4))
    straddles = (y1 > py) != (y2 > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        cross_x = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
    return ((straddles & (cross_x > px)).sum(axis=1) % 2) == 1


def sector_polygons(found: MapData) -> tuple[Polygon | MultiPolygon | None, ...]:
    """Per sector, its floor (None when its lines enclose nothing)."""
    segs = line_segments(found)
    front, back = sector_of_sides(found)
    out: list[Polygon | MultiPolygon | None] = []
    for sector in range(len(found.sectors)):
        mine = (front == sector) != (back == sector)
        own = segs[mine]
        if len(own) < 3:
            out.append(None)
            continue
        lines = shapely.linestrings(own.reshape(-1, 2, 2))
        faces = list(shapely.get_parts(shapely.polygonize(lines.tolist())))
        if not faces:
            out.append(None)
            continue
        points = np.array([f.representative_point().coords[0] for f in faces])
        kept = [f for f, inside in zip(faces, _odd_crossings(points, own), strict=True) if inside]
        if not kept:
            out.append(None)
            continue
        shape = shapely.union_all(kept)
        out.append(shape if shape.is_valid else shapely.make_valid(shape))
    return tuple(out)
