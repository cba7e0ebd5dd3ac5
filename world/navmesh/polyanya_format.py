"""Readers for Polyanya mesh files (format version 2) and MovingAI scenario files.

Mesh files give 2D coordinates (x, y); they become our plane coordinates (x, z) with
height 0 and a single storey "0".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from world.navmesh.mesh import NavMesh

SINGLE_STOREY = "0"


@dataclass(frozen=True)
class Scenario:
    """One pathfinding query with its exact any-angle shortest length.

    Attributes:
        bucket: Scenario bucket number.
        map_name: Name of the mesh or map file.
        start: Start point (x, z).
        goal: Goal point (x, z).
        length: Exact Euclidean shortest-path length.
    """

    bucket: int
    map_name: str
    start: tuple[float, float]
    goal: tuple[float, float]
    length: float


class _Tokens:
    """Whitespace-separated tokens that remember their line numbers."""

    def __init__(self, text: str, name: str) -> None:
        self.name = name
        self._items: list[tuple[str, int]] = [
            (tok, lineno)
            for lineno, line in enumerate(text.splitlines(), start=1)
            for tok in line.split()
        ]
        self._pos = 0
        self._last_line = len(text.splitlines())

    def error(self, message: str, line: int | None = None) -> ValueError:
        where = line if line is not None else self.line()
        return ValueError(f"{self.name}, line {where}: {message}")

    def line(self) -> int:
        if self._pos < len(self._items):
            return self._items[self._pos][1]
        return self._last_line

    def next(self, what: str) -> tuple[str, int]:
        if self._pos >= len(self._items):
            raise self.error(f"unexpected end of file, expected {what}")
        item = self._items[self._pos]
        self._pos += 1
        return item

    def integer(self, what: str, low: int, high: int) -> int:
        tok, line = self.next(what)
        try:
            value = int(tok)
        except ValueError:
            raise self.error(f"expected an integer for {what}, found {tok!r}", line) from None
        if not low <= value <= high:
            raise self.error(f"{what} {value} is outside {low}..{high}", line)
        return value

    def number(self, what: str) -> float:
        tok, line = self.next(what)
        try:
            value = float(tok)
        except ValueError:
            raise self.error(f"expected a number for {what}, found {tok!r}", line) from None
        if not np.isfinite(value):
            raise self.error(f"{what} is not finite: {tok!r}", line)
        return value

    def rest(self) -> Iterator[tuple[str, int]]:
        yield from self._items[self._pos :]


def parse_mesh(text: str, name: str = "<mesh>") -> NavMesh:
    """Parse Polyanya mesh text (format version 2) into a NavMesh.

    Args:
        text: The file contents.
        name: Name used in error messages (usually the file path).

    Returns:
        The mesh, at height 0 on storey "0".

    Raises:
        ValueError: Naming the file, the line and what is wrong.
    """
    tokens = _Tokens(text, name)
    header, line = tokens.next("the header 'mesh'")
    if header != "mesh":
        raise tokens.error(f"expected header 'mesh', found {header!r}", line)
    tokens.integer("format version (only 2 is supported)", 2, 2)
    n_vertices = tokens.integer("vertex count", 1, 10**9)
    n_polygons = tokens.integer("polygon count", 1, 10**9)
    points = np.zeros((n_vertices, 2), dtype=float)
    for i in range(n_vertices):
        points[i, 0] = tokens.number(f"x of vertex {i}")
        points[i, 1] = tokens.number(f"y of vertex {i}")
        count = tokens.integer(f"neighbour count of vertex {i}", 0, 10**6)
        for _ in range(count):
            tokens.integer(f"neighbour polygon of vertex {i}", -1, n_polygons - 1)
    polygons: list[list[int]] = []
    neighbours: list[list[int]] = []
    for p in range(n_polygons):
        line = tokens.line()
        n = tokens.integer(f"vertex count of polygon {p}", 3, 10**6)
        verts = [tokens.integer(f"vertex of polygon {p}", 0, n_vertices - 1) for _ in range(n)]
        nbrs = [tokens.integer(f"neighbour of polygon {p}", -1, n_polygons - 1) for _ in range(n)]
        xy = points[verts]
        area2 = float(np.sum(xy[:, 0] * np.roll(xy[:, 1], -1) - np.roll(xy[:, 0], -1) * xy[:, 1]))
        if area2 <= 0.0:
            raise tokens.error(f"polygon {p} is not counter-clockwise (or has zero area)", line)
        polygons.append(verts)
        # Format v2: p[i] lies across v[i-1]..v[i]; our edge k runs v[k]..v[k+1].
        neighbours.append([nbrs[(k + 1) % n] for k in range(n)])
    for tok, line in tokens.rest():
        raise tokens.error(f"unexpected trailing data {tok!r}", line)
    _check_symmetric(polygons, neighbours, tokens)
    heights = np.zeros(n_vertices, dtype=float)
    return NavMesh.from_arrays(
        points, heights, polygons, neighbours, None, [SINGLE_STOREY] * n_polygons
    )


def _check_symmetric(
    polygons: list[list[int]], neighbours: list[list[int]], tokens: _Tokens
) -> None:
    # Every neighbour must list us back across the same (reversed) edge, or the
    # search would walk through walls.
    edge_owner: dict[tuple[int, int], tuple[int, int]] = {}
    for p, verts in enumerate(polygons):
        n = len(verts)
        for k in range(n):
            edge_owner[(verts[k], verts[(k + 1) % n])] = (p, k)
    for p, verts in enumerate(polygons):
        n = len(verts)
        for k in range(n):
            q = neighbours[p][k]
            if q < 0:
                continue
            owner = edge_owner.get((verts[(k + 1) % n], verts[k]))
            if owner is None or owner[0] != q or neighbours[q][owner[1]] != p:
                raise ValueError(
                    f"{tokens.name}: polygon {p} names polygon {q} as neighbour across "
                    f"vertices {verts[k]}-{verts[(k + 1) % n]}, but {q} does not share that edge"
                    " with it"
                )


def read_mesh(path: str | Path) -> NavMesh:
    """Read a Polyanya mesh file (format version 2).

    Args:
        path: File to read.

    Returns:
        The mesh.

    Raises:
        ValueError: If the file is malformed (the message names file and line).
    """
    return parse_mesh(Path(path).read_text(encoding="utf-8"), str(path))


def parse_scenarios(text: str, name: str = "<scen>") -> list[Scenario]:
    """Parse MovingAI scenario text (``version 1``, tab-separated columns).

    Args:
        text: The file contents.
        name: Name used in error messages.

    Returns:
        The scenarios in file order.

    Raises:
        ValueError: Naming the file, the line and what is wrong.
    """
    lines = text.splitlines()
    if not lines or lines[0].split() != ["version", "1"]:
        raise ValueError(f"{name}, line 1: expected 'version 1'")
    scenarios = []
    for lineno, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        cols = line.split("\t") if "\t" in line else line.split()
        if len(cols) != 9:
            raise ValueError(f"{name}, line {lineno}: expected 9 columns, found {len(cols)}")
        try:
            sx, sz, gx, gz, length = (float(c) for c in cols[4:9])
            bucket = int(cols[0])
        except ValueError:
            raise ValueError(f"{name}, line {lineno}: malformed number") from None
        scenarios.append(Scenario(bucket, cols[1], (sx, sz), (gx, gz), length))
    return scenarios


def read_scenarios(path: str | Path) -> list[Scenario]:
    """Read a MovingAI scenario file.

    Args:
        path: File to read.

    Returns:
        The scenarios in file order.
    """
    return parse_scenarios(Path(path).read_text(encoding="utf-8"), str(path))
