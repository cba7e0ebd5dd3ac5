"""Reachability check: can the player get to everything the objectives need?

The search runs on the navigation mesh. Polygons joined without crossing a door edge
form one region (openings and stair ramps are plain mesh edges, so a gap too narrow for
the agent simply leaves two regions). Door edges become directed region-to-region links
whose passability depends on what the player can already reach: keys, panels, switches
and secret triggers. The link set grows to a fixed point.

A level with an exit area is searched twice: entering the exit area while counted
objectives are open ends the mission, so what the objectives need outside it must be
reachable without stepping into it (the exit area's floor is kept in regions of its
own, and every way into it is barred for that search).
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
from shapely.geometry import Point, Polygon

from world.level.model import Exit, Level, Place, given
from world.levelcheck.codes import notes_with
from world.levelcheck.refs import OPENERS, Problem
from world.navmesh.build import BuiltNavMesh

TOLERANCE = 1e-3


@dataclass(frozen=True)
class DoorLink:
    """A directed way through a door between two mesh regions.

    Attributes:
        source: Region the player passes from.
        target: Region the player passes to.
        exit_id: The exit (door or hidden passage).
        from_area: Area on the source side.
    """

    source: int
    target: int
    exit_id: str | None  # None: an opening into or out of the area kept apart
    from_area: str


class Regions:
    """Mesh polygons grouped into door-free regions, with point location by area."""

    def __init__(self, built: BuiltNavMesh, apart: str | None = None) -> None:
        """Group the polygons.

        Args:
            built: The level's mesh and polygon places.
            apart: An area whose floor forms regions of its own (the exit area): an
                opening between it and another area becomes a link that is always
                passable, so a search can bar the way in.
        """
        mesh = built.mesh
        graph = nx.Graph()
        graph.add_nodes_from(range(mesh.polygon_count))
        links: list[tuple[int, int, str | None]] = []
        places = built.places
        for p, row in enumerate(mesh.neighbours):
            for k, q in enumerate(row):
                if q < 0:
                    continue
                door = mesh.doors[p][k]
                if door is None and (places[p] == apart) == (places[q] == apart):
                    graph.add_edge(p, q)
                else:
                    links.append((p, q, door))
        self.region: dict[int, int] = {}
        for number, members in enumerate(nx.connected_components(graph)):
            for p in members:
                self.region[p] = number
        self.links = tuple(
            DoorLink(self.region[p], self.region[q], door, built.places[p]) for p, q, door in links
        )
        self.places = built.places
        self.shapes = [Polygon(mesh.points[list(poly)]) for poly in mesh.polygons]
        self.pairs = {
            frozenset((built.places[p], built.places[q]))
            for p, row in enumerate(mesh.neighbours)
            for q in row
            if q >= 0 and built.places[p] != built.places[q]
        }

    def of_area(self, area: str) -> set[int]:
        """Regions holding some of an area's floor.

        Args:
            area: Area id.

        Returns:
            Region numbers.
        """
        return {self.region[p] for p, place in enumerate(self.places) if place == area}

    def of_place(self, place: Place, reach: float) -> int | None:
        """Region of the floor nearest a point of an area, if within reach.

        Args:
            place: Area and point.
            reach: Greatest distance from the floor.

        Returns:
            Region number, or None when no floor of the area is that close.
        """
        point = Point(place.at)
        best: tuple[float, int] | None = None
        for p, where in enumerate(self.places):
            if where == place.area:
                d = self.shapes[p].distance(point)
                if best is None or d < best[0]:
                    best = (d, p)
        if best is None or best[0] > reach + TOLERANCE:
            return None
        return self.region[best[1]]


def _panel(exit_: Exit) -> set[str]:
    """The panel that opens an exit's door, if it has one."""
    door = exit_.door
    return {door.panel} if door is not None and door.panel else set()


def _passable(exit_: Exit | None, link: DoorLink, have: set[str], openers: set[str]) -> bool:
    if exit_ is None:
        return True  # an opening into or out of the area kept apart
    remote = bool(openers & have)
    if exit_.hidden and not remote:
        return False
    door = exit_.door
    if door is None:
        return True
    if door.one_way_from is not None and link.from_area != door.one_way_from:
        return False
    if door.panel is not None and not remote:
        return False
    locked = door.initial == "locked" and door.locked_from in (None, link.from_area)
    return not locked or remote or (door.key is not None and door.key in have)


def reachable_regions(level: Level, regions: Regions, start: int,
                      barred: frozenset[int] = frozenset()) -> set[int]:
    """Regions the player can reach from the start region, opening doors as they can.

    Args:
        level: The level.
        regions: The mesh regions.
        start: The start region.
        barred: Regions never entered from outside them (the exit area's, while work
            is open); a search that starts in one may still leave it.

    Returns:
        Every reachable region.
    """
    exits = {e.id: e for e in level.exits}
    openers = {
        e: {o.id for o in level.objects if o.kind in OPENERS and e in o.targets}
        | _panel(exits[e])
        for e in exits
    }
    located = [
        (o.id, regions.of_place(Place(area=o.area, at=o.at), 2 * level.navmesh.agent_radius))
        for o in level.objects
        if o.area is not None and o.at is not None
    ] + [  # a talking character, where it starts, is heard like a note is read
        (c.id, regions.of_place(Place(area=c.area, at=c.at), 2 * level.navmesh.agent_radius))
        for c in level.characters if c.words is not None
    ]
    carried = set(level.start.inventory)
    keypad_notes = {o.id: {n.id for n in notes_with(level, o.code)}
                    for o in level.objects if o.kind == "keypad" and o.code is not None}
    graph = nx.DiGraph()
    graph.add_node(start)
    reached = {start}
    while True:
        have = carried | {oid for oid, region in located if region in reached}
        # A keypad opens nothing until a note holding its code has been reached too.
        have -= {k for k, notes in keypad_notes.items() if not notes & have}
        for link in regions.links:
            if link.target in barred and link.source not in barred:
                continue
            exit_ = exits[link.exit_id] if link.exit_id is not None else None
            shut = openers[link.exit_id] if link.exit_id is not None else set()
            if _passable(exit_, link, have, shut):
                graph.add_edge(link.source, link.target)
        grown = {start} | nx.descendants(graph, start)
        if grown == reached:
            return reached
        reached = grown


def _needs(level: Level) -> list[tuple[str, str, str, tuple[Place, ...] | str]]:
    """(path, objective label, thing label, area id or places any of which will do)."""
    objects = {o.id: o for o in level.objects}
    characters = {c.id: c for c in level.characters}
    needs: list[tuple[str, str, str, tuple[Place, ...] | str]] = []
    for i, objective in enumerate(level.objectives):
        label = f"objective {objective.id!r}"
        path = f"$.objectives[{i}]"
        if objective.area is not None:
            needs.append((f"{path}.area", label, f"area {objective.area!r}", objective.area))
        obj = objects.get(objective.object or "")
        if obj is not None and obj.area is not None and obj.at is not None:
            place = Place(area=obj.area, at=obj.at)
            needs.append((f"{path}.object", label, f"object {obj.id!r}", (place,)))
        for k, cid in enumerate(objective.characters):
            if cid in characters:
                c = characters[cid]
                place = Place(area=c.area, at=c.at)
                needs.append((f"{path}.characters[{k}]", label, f"character {cid!r}", (place,)))
        gadgets = [
            o for o in objects.values() if o.kind == "gadget" and o.gadget == objective.gadget
        ]
        if objective.kind == "gadget_on_object" and not any(
                o.area is None or o.at is None for o in gadgets):
            # Any one gadget of the right sort will do.
            places = tuple(Place(area=given(g.area, g.id, "area"), at=given(g.at, g.id, "at"))
                           for g in gadgets)
            names = " or ".join(repr(g.id) for g in gadgets)
            needs.append((f"{path}.gadget", label, f"gadget {names}", places))
        for k, point in enumerate(objective.points):
            needs.append((f"{path}.points[{k}]", label, f"waypoint {k + 1}", (point,)))
        note = objects.get(objective.revealed_by or "")
        if note is not None and note.area is not None and note.at is not None:
            # Never known, never done: the note that reveals it must be reachable too.
            needs.append((f"{path}.revealed_by", label, f"note {note.id!r}",
                          (Place(area=note.area, at=note.at),)))
    if level.exit_area is not None:
        area = level.exit_area.area
        needs.append(("$.exit_area.area", "the mission exit", f"area {area!r}", area))
    return needs


def reach_problems(level: Level, built: BuiltNavMesh) -> list[Problem]:
    """Things the objectives need that cannot be reached from the start.

    Also reports walkable exits and stairs that left no passage on the mesh.

    Args:
        level: A level whose references and geometry are sound.
        built: Its navigation mesh.

    Returns:
        The problems found, each unreachable thing once.
    """
    exit_area = level.exit_area.area if level.exit_area is not None else None
    regions = Regions(built, apart=exit_area)
    problems: list[Problem] = []
    for i, exit_ in enumerate(level.exits):
        if exit_.walkable and frozenset(exit_.areas) not in regions.pairs:
            problems.append((f"$.exits[{i}]", "leaves no passage on the navigation mesh"))
    for i, stairs in enumerate(level.stairs):
        for end in (stairs.bottom, stairs.top):
            if frozenset((stairs.id, end.area)) not in regions.pairs:
                message = f"the ramp does not meet the floor of area {end.area!r}"
                problems.append((f"$.stairs[{i}]", message))
    r = level.navmesh.agent_radius
    start = regions.of_place(Place(area=level.start.area, at=level.start.at), r)
    if start is None:
        return [*problems, ("$.start", "the start is not on the walkable floor")]
    reached = reachable_regions(level, regions, start)
    exit_regions = frozenset(regions.of_area(exit_area)) if exit_area is not None else None
    # Where the objectives' needs may lie with work open: reached without entering the
    # exit area, or in it.
    early = (reachable_regions(level, regions, start, exit_regions) | exit_regions
             if exit_regions is not None else reached)
    reported: set[str] = set()
    for path, owner, thing, target in _needs(level):
        if thing in reported:
            continue
        where = (regions.of_area(target) if isinstance(target, str)
                 else {regions.of_place(place, 2 * r) for place in target} - {None})
        if not where & reached:
            reported.add(thing)
            message = f"{owner} needs {thing}, which cannot be reached from the start"
            problems.append((path, message))
        elif not where & early:
            # Outside the exit area, and only a way through it leads there.
            reported.add(thing)
            problems.append((path, f"{owner} needs {thing}, which can be reached only "
                             f"through the exit area {exit_area!r}: entering it while "
                             "work is open ends the mission"))
    return problems
