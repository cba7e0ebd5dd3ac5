"""Building blocks the templates share: a level under construction and seeded room grids.

A room grid is a set of rectangular cells with column widths and row depths drawn from
the generator; a randomised spanning tree over a connected subset of cells gives the
room graph, so the graph itself (not only positions) changes from seed to seed. Every
exit lies on the edge two cells share, which is what the level format asks of an exit.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

DOOR_WIDTH = 200
WALL_MARGIN = 120  # objects and characters keep this far from walls


@dataclass(frozen=True)
class Room:
    """One rectangular area of a grid: its id, storey, grid cell and extent."""

    id: str
    storey: str
    cell: tuple[int, int]
    x0: int
    z0: int
    x1: int
    z1: int

    def polygon(self) -> list[list[int]]:
        """The outline, counter-clockwise from (x0, z0)."""
        return [[self.x0, self.z0], [self.x1, self.z0], [self.x1, self.z1], [self.x0, self.z1]]

    def centre(self) -> list[int]:
        """The middle of the room."""
        return [(self.x0 + self.x1) // 2, (self.z0 + self.z1) // 2]

    def spot(self, rng: random.Random, margin: int = WALL_MARGIN) -> list[int]:
        """A point drawn inside the room, `margin` from its walls, on a 10-unit grid."""
        return [rng.randrange(self.x0 + margin, self.x1 - margin + 1, 10),
                rng.randrange(self.z0 + margin, self.z1 - margin + 1, 10)]

    def corner(self, index: int, margin: int = WALL_MARGIN) -> list[int]:
        """One of the four corners (0..3, counter-clockwise from x0,z0), `margin` inside."""
        xs = (self.x0 + margin, self.x1 - margin, self.x1 - margin, self.x0 + margin)
        zs = (self.z0 + margin, self.z0 + margin, self.z1 - margin, self.z1 - margin)
        return [xs[index % 4], zs[index % 4]]


@dataclass
class Grid:
    """Rooms on one storey and the links between them (the room graph)."""

    rooms: dict[str, Room]
    links: list[tuple[str, str]]
    by_cell: dict[tuple[int, int], str] = field(default_factory=dict)

    def neighbours(self, room: str) -> list[str]:
        """The rooms linked to `room`, sorted."""
        return sorted({b for a, b in self.links if a == room}
                      | {a for a, b in self.links if b == room})

    def distances(self, start: str,
                  blocked: frozenset[tuple[str, str]] = frozenset()) -> dict[str, int]:
        """Rooms reachable from `start` with their link counts, not crossing `blocked` links."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.neighbours(here):
                if there not in seen and _key(here, there) not in blocked:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return seen

    def path(self, start: str, goal: str) -> list[str]:
        """The shortest room path from start to goal (both included)."""
        back: dict[str, str | None] = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.neighbours(here):
                if there not in back:
                    back[there] = here
                    queue.append(there)
        out: list[str] = []
        node: str | None = goal
        while node is not None:
            out.append(node)
            node = back[node]
        return out[::-1]


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def link_key(a: str, b: str) -> tuple[str, str]:
    """The order-free key of a link between two rooms."""
    return _key(a, b)


def room_grid(rng: random.Random, *, storey: str, prefix: str, cols: int, rows: int,
              rooms: int, loops: float = 0.0, origin: tuple[int, int] = (0, 0),
              sizes: tuple[int, ...] = (600, 800, 1000, 1200),
              first: tuple[int, int] | None = None) -> Grid:
    """Draw a grid of `cols` x `rows` cells and grow a tree of `rooms` cells over it.

    Args:
        rng: The level's one generator.
        storey: Storey id of every room.
        prefix: Room ids are `<prefix>_<n>` in the order the tree grew.
        cols: The grid's width in cells.
        rows: The grid's depth in cells.
        rooms: How many cells become rooms (at most cols * rows).
        loops: Chance that each further pair of neighbouring rooms is linked too.
        origin: The grid's lowest corner.
        sizes: Column widths and row depths to draw from.
        first: The cell the tree starts from (default: drawn).
    """
    widths = [rng.choice(sizes) for _ in range(cols)]
    depths = [rng.choice(sizes) for _ in range(rows)]
    xs = [origin[0] + sum(widths[:i]) for i in range(cols + 1)]
    zs = [origin[1] + sum(depths[:j]) for j in range(rows + 1)]
    start = first if first is not None else (rng.randrange(cols), rng.randrange(rows))
    order = [start]
    tree: list[tuple[tuple[int, int], tuple[int, int]]] = []
    chosen = {start}
    while len(order) < min(rooms, cols * rows):
        frontier = sorted({(c, n) for c in order for n in _cells_next_to(c, cols, rows)
                           if n not in chosen})
        parent, cell = rng.choice(frontier)
        chosen.add(cell)
        order.append(cell)
        tree.append((parent, cell))
    grid = Grid({}, [])
    for n, (i, j) in enumerate(order):
        room = Room(f"{prefix}_{n}", storey, (i, j), xs[i], zs[j], xs[i + 1], zs[j + 1])
        grid.rooms[room.id] = room
        grid.by_cell[(i, j)] = room.id
    grid.links = [(grid.by_cell[a], grid.by_cell[b]) for a, b in tree]
    extra = sorted({_key(grid.by_cell[c], grid.by_cell[n]) for c in order
                    for n in _cells_next_to(c, cols, rows) if n in chosen})
    linked = {_key(a, b) for a, b in grid.links}
    grid.links += [pair for pair in extra if pair not in linked and rng.random() < loops]
    return grid


def _cells_next_to(cell: tuple[int, int], cols: int, rows: int) -> list[tuple[int, int]]:
    i, j = cell
    return [(a, b) for a, b in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1))
            if 0 <= a < cols and 0 <= b < rows]


def shared_edge(a: Room, b: Room) -> tuple[list[int], list[int]]:
    """The stretch of wall two neighbouring rooms share, as a segment."""
    if a.x1 == b.x0 or b.x1 == a.x0:
        x = a.x1 if a.x1 == b.x0 else a.x0
        return [x, max(a.z0, b.z0)], [x, min(a.z1, b.z1)]
    z = a.z1 if a.z1 == b.z0 else a.z0
    return [max(a.x0, b.x0), z], [min(a.x1, b.x1), z]


def door_segment(rng: random.Random, a: Room, b: Room, width: int = DOOR_WIDTH) -> list[list[int]]:
    """A gap `width` long drawn along the wall two rooms share, clear of its ends."""
    p, q = shared_edge(a, b)
    axis = 1 if p[0] == q[0] else 0
    low, high = p[axis] + 100, q[axis] - 100 - width
    at = rng.randrange(low, max(low, high) + 1, 10)
    one, two = list(p), list(p)
    one[axis], two[axis] = at, at + width
    return [one, two]


def room_graph_hash(data: dict[str, Any]) -> str:
    """A hash of a level's room graph shape (not its ids, names or sizes).

    Areas are joined by walkable exits and stairs; graphs are compared by their
    Weisfeiler-Lehman hash.
    """
    graph = nx.Graph()
    graph.add_nodes_from(a["id"] for a in data["areas"])
    graph.add_edges_from(tuple(e["areas"]) for e in data.get("exits", []) if e["kind"] != "window")
    graph.add_edges_from((s["bottom"]["area"], s["top"]["area"]) for s in data.get("stairs", []))
    return nx.weisfeiler_lehman_graph_hash(graph)


class LevelDraft:
    """A level dict under construction, with ids kept unique and lists in build order."""

    def __init__(self, level_id: str, title: str, brief: str) -> None:
        self.data: dict[str, Any] = {
            "format_version": 1, "id": level_id, "title": title, "brief": brief,
            "categories": [], "difficulties": DIFFICULTIES,  # categories: the template's
            "budgets": {"max_decisions": 100, "max_game_seconds": 120},
            "navmesh": {"agent_radius": 20, "step_height": 30},
            "storeys": [], "areas": [], "stairs": [], "exits": [], "objects": [],
            "characters": [], "waves": [], "hazards": [], "start": {}, "objectives": [],
        }

    def storey(self, storey_id: str, y: int) -> None:
        """Add a storey at height y."""
        self.data["storeys"].append({"id": storey_id, "y": y})

    def rooms(self, grid: Grid, names: list[str], rng: random.Random) -> None:
        """Add a grid's rooms as areas (names drawn from `names`) and its links as exits."""
        pool = list(names)
        rng.shuffle(pool)
        for n, room in enumerate(grid.rooms.values()):
            name = pool[n % len(pool)] + ("" if n < len(pool) else f" {n // len(pool) + 1}")
            self.area(room, name)
        for a, b in grid.links:
            self.exit(f"{a}_{b}", "door", a, b, door_segment(rng, grid.rooms[a], grid.rooms[b]),
                      {"initial": "closed"})

    def area(self, room: Room, name: str, **extra: Any) -> None:
        """Add a room as an area."""
        self.data["areas"].append({"id": room.id, "name": name, "storey": room.storey,
                                   "polygon": room.polygon(), **extra})

    def exit(self, exit_id: str, kind: str, a: str, b: str, segment: list[list[int]],
             door: dict[str, Any] | None = None) -> dict[str, Any]:
        """Add an exit between two areas; doors get `door` (closed by default)."""
        entry: dict[str, Any] = {"id": exit_id, "kind": kind, "areas": [a, b], "segment": segment}
        if kind == "door":
            entry["door"] = door or {"initial": "closed"}
        self.data["exits"].append(entry)
        return entry

    def find_exit(self, a: str, b: str) -> dict[str, Any]:
        """The exit joining two areas."""
        return next(e for e in self.data["exits"] if sorted(e["areas"]) == sorted([a, b]))

    def add(self, section: str, **entry: Any) -> dict[str, Any]:
        """Append an entry to a section (objects, characters, waves...)."""
        self.data[section].append(entry)
        return entry

    def objective(self, objective_id: str, kind: str, text: str, **fields: Any) -> None:
        """Add an objective."""
        self.data["objectives"].append({"id": objective_id, "kind": kind, "text": text, **fields})

    def finish(self) -> dict[str, Any]:
        """The level dict, empty optional lists dropped (the schema's defaults fill them)."""
        keep = ("areas", "objectives", "categories")
        return {k: v for k, v in self.data.items() if v != [] or k in keep}


DIFFICULTIES: list[dict[str, Any]] = [
    {"id": "easy", "enemy_health": 0.8, "enemy_accuracy": 0.6, "enemy_damage": 0.7,
     "enemy_reaction_s": 0.9},
    {"id": "normal", "enemy_accuracy": 0.65, "enemy_damage": 0.75, "enemy_reaction_s": 0.75},
    {"id": "hard", "enemy_health": 1.0, "enemy_accuracy": 0.8, "enemy_damage": 0.85,
     "enemy_reaction_s": 0.6, "enemy_sight": 1.1, "reinforcements": 1.5},
]
"""Every generated level offers these, easiest first; templates add opposition per level."""

# The difficulty order, easiest first: shipped levels declare these too, and readers
# (comparisons, the run index) sort difficulties by it.
DIFFICULTY_ORDER: tuple[str, ...] = tuple(d["id"] for d in DIFFICULTIES)
