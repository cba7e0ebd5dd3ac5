"""What the player knows: one per episode, read by the view, the ids and the routes.

The player knows an area once it has stood in it or seen into it (through an opening, a
window, stairs or an open door of the area it stands in, within sight), an object once it
was in view (or lay in the area the player stood in), a character once it was in view (or,
roughly placed, once its unsilenced shot was heard), and a door once it stood on a way out
of an area the player was in. The level's briefing may
reveal more at the start: the floor plan, some areas, some objects. Nothing else is known,
so nothing else may be shown or named.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from world.actions.approach import gone_why
from world.characters.views import weapon_seen
from world.level.model import Level
from world.sim.world import World

SIGHT_RANGE = 3000.0  # how far the player makes out things it has a clear line to
HEARING_RANGE = 2000.0  # how far the player hears an unsilenced shot through walls
HEARD_GRID = 200.0  # a shot heard but not seen is placed only this roughly
# Ways out the player sees through from inside an area: an opening, a window, stairs; a
# door only while it stands open.
SEE_THROUGH_DOOR = frozenset({"open", "opening"})
DOOR_STEP = 15.0  # a door is looked at this far in front of its line, on the player's side
# Id groups whose knowledge is kept here (ways out are known with their areas' doors).
GROUPS = ("area", "door", "way", "object", "character")


@dataclass(frozen=True)
class Sighting:
    """A character as the player last perceived it.

    Attributes:
        position: Where it was (x, y, z).
        area: The area it stood in, or None.
        tick: When it was perceived.
        health: Its health then (0..1).
        down: Whether it was down then.
        heard: Whether it was only heard (a shot), so its place is approximate and
            nothing else about it is known.
        weapon: The weapon type it was seen holding (None: bare hands, or only heard).
        armed: Whether that weapon is a gun (a heard shot tells it is).
    """

    position: tuple[float, float, float]
    area: str | None
    tick: int
    health: float
    down: bool
    heard: bool = False
    weapon: str | None = None
    armed: bool = False


def sees(world: World, pos: tuple[float, float, float], storey: str) -> bool:
    """Whether the player has a clear line to a point within sight range."""
    p = world.player
    if storey != p.storey or math.hypot(pos[0] - p.x, pos[2] - p.z) > SIGHT_RANGE:
        return False
    return bool(world.line_of_sight((p.x, p.z), (pos[0], pos[2]), storey))


def way_lines(world: World, area: str) -> list[tuple[str, str, str, tuple]]:
    """(id, area beyond, kind, line) of every way out of an area that is not hidden."""
    out: list[tuple[str, str, str, tuple]] = []
    for e in world.level.exits:
        runtime = world.doors.get(e.id)
        if area in e.areas and (runtime is None or runtime.revealed):
            out.append((e.id, e.areas[1] if e.areas[0] == area else e.areas[0], e.kind,
                        e.segment))
    for s in world.level.stairs:
        for end, other in ((s.bottom, s.top), (s.top, s.bottom)):
            if end.area == area:
                out.append((s.id, other.area, "stairs", end.edge))
    return out


def _door_point(world: World, door_id: str) -> tuple[tuple[float, float, float], str]:
    """The point of a door the player looks at (its middle, a step on its own side)."""
    exit_ = world.level.exit(door_id)
    (ax, az), (bx, bz) = exit_.segment
    mx, mz = (ax + bx) / 2, (az + bz) / 2
    p = world.player
    d = math.hypot(p.x - mx, p.z - mz)
    if d > 1e-6:
        # The door line itself stands in the way of a line to its exact middle.
        mx, mz = mx + (p.x - mx) / d * DOOR_STEP, mz + (p.z - mz) / d * DOOR_STEP
    area = exit_.areas[0]
    return (mx, world.level.area_y(area), mz), world.level.area(area).storey


def ask_in_one_pass(world: World, points: list[tuple[float, float, float, str]]) -> None:
    """Test the player's lines to these points (x, y, z, storey) in one array pass.

    The answers land in the sight memo, so the `sees` calls that follow read them
    instead of testing one line each (numpy's cost per call dominates): the same
    answers, one pass instead of one per point.
    """
    p = world.player
    keys = [(p.x, p.z, x, z) for x, _y, z, storey in points
            if storey == p.storey and math.hypot(x - p.x, z - p.z) <= SIGHT_RANGE]
    if keys:
        world.sight.segments_clear(keys, p.storey)


class Knowledge:
    """One episode's record of what the player knows; `update` after every action."""

    def __init__(self, level: Level, start_area: str | None = None) -> None:
        """What a player knows at the start (`start_area`: a match player's, else the level's)."""
        brief = level.briefing
        self.level = level
        self.areas: set[str] = {level.start.area if start_area is None else start_area}
        self.visited: set[str] = set()
        self.objects: set[str] = set()
        self.doors: set[str] = set()
        # Each known door's state as last perceived, and the tick it was last in sight.
        self.door_states: dict[str, str] = {}
        self.door_seen: dict[str, int] = {}
        self.characters: dict[str, Sighting] = {}
        # Objects the player has perceived gone (taken, broken), with why (a template).
        self.gone: dict[str, str] = {}
        self.floor_plan = bool(brief and brief.floor_plan)
        self._way_ids = frozenset([*(e.id for e in level.exits), *(s.id for s in level.stairs)])
        self._heard_from = 0  # the first world event not yet listened to
        self._walked_from = 0  # the first world event not yet read for areas entered
        self._doors_of_visited: tuple[int, int] = (-1, -1)
        # The points of the known doors at this update (`_ask_sight_lines`).
        self._door_points: dict[str, tuple[tuple[float, float, float], str]] = {}
        # The area under each object's spot (the layout never changes), for `_news`.
        self._spot_areas: dict[tuple[float, float, str], str | None] = {}
        if brief is not None:
            self.areas.update(brief.areas)
            self.objects.update(brief.objects)
            self.areas.update(a for a in (level.object(o).area for o in brief.objects) if a)
        if self.floor_plan:
            # A floor plan shows no secret rooms: those are found.
            self.areas.update(a.id for a in level.areas if not a.secret)
        briefed = set(brief.areas) if brief is not None else set()
        self.doors.update(e.id for e in level.exits
                          if e.kind == "door" and (self.floor_plan or set(e.areas) & briefed))
        # Doors whose lock the player found by trying them (a lock shows otherwise only
        # on a door marked for a key).
        self.locks_found: set[str] = set()
        # A briefed door is drawn as the level starts it.
        self.door_states.update((e.id, self._looks(e.id, e.door.initial)) for e in level.exits
                                if e.id in self.doors and e.door is not None)

    def update(self, world: World) -> None:
        """Learn from this moment: where the player is, what it sees."""
        here = world.actor_area(world.player) or world.player.area
        self._read_areas_entered(world)
        if here is not None:
            self.visited.add(here)
        self.areas.update(self.visited)
        # The doors of the areas stood in change only with those areas or a door's
        # change (a hidden one revealed), so they are looked up again only then.
        doors_of_visited = (len(self.visited), world.doors_system.version)
        if doors_of_visited != self._doors_of_visited:
            self._doors_of_visited = doors_of_visited
            for area in self.visited:
                for way_id, _, kind, _ in way_lines(world, area):
                    if kind == "door":
                        self.doors.add(way_id)
        # The ways out of the area stood in, read once for both uses below (nothing
        # between them changes a door).
        ways = way_lines(world, here) if here is not None else []
        if here is not None:
            self._look_through(world, ways)
        self._ask_sight_lines(world)
        self._see_doors(world, ways)
        for oid, obj in world.objects.items():
            if obj.holder == world.player.id:
                self.objects.add(oid)
            if obj.x is None or obj.holder is not None or not obj.present:
                continue
            if not self._news(world, oid, obj.spot):
                continue
            x, z, storey = obj.spot
            pos = (x, world.level.storey(storey).y, z)
            if obj.area == here or sees(world, pos, storey):
                self.objects.add(oid)
                self.gone.pop(oid, None)
                # Seeing a thing is seeing into the area it lies in.
                self.areas.add(world.area_at(x, z, storey) or here or "")
        self._see_gone(world, here)
        self._listen(world)
        for cid, actor in world.characters.items():
            if sees(world, actor.position, actor.storey):
                weapon, armed = weapon_seen(world, actor)
                self.characters[cid] = Sighting(
                    actor.position, actor.area, world.tick,
                    round(max(0.0, actor.health), 3), not actor.alive,
                    weapon=weapon, armed=armed)
                if actor.area is not None:
                    self.areas.add(actor.area)
        self.areas.discard("")

    def moved(self, object_id: str, announced: bool) -> None:
        """An object lies somewhere new (a match's flag dropped, or sent home).

        Announced (the rules say where it went: a flag sent home), the player knows it
        there; otherwise it forgets the object until it sees it at its new place.
        """
        self.gone.pop(object_id, None)
        if announced:
            self.objects.add(object_id)
        else:
            self.objects.discard(object_id)

    def _read_areas_entered(self, world: World) -> None:
        # `visited_areas` read from the events not read before (the log only grows), so
        # an update costs the same late in a long episode as early.
        pid = world.player.id
        self.visited.update(e.other for e in world.events.since(self._walked_from)
                            if e.kind == "area_entered" and e.subject == pid
                            and e.other is not None)
        if world.player.area is not None:
            self.visited.add(world.player.area)
        self._walked_from = len(world.events)

    def _ask_sight_lines(self, world: World) -> None:
        # Every line `update` may test below, asked at once (`ask_in_one_pass`).
        # Each door's point is kept for `_see_doors`, which looks at the same doors
        # from the same spot right after (nothing between them moves or changes a door).
        self._door_points = {d: _door_point(world, d) for d in self.doors if d in world.doors}
        points = [(*point, storey) for point, storey in self._door_points.values()]
        points += [(x, 0.0, z, storey) for oid, obj in world.objects.items()
                   if obj.x is not None and obj.holder is None and obj.present
                   and self._news(world, oid, obj.spot)
                   for x, z, storey in (obj.spot,)]
        points += [(a.x, 0.0, a.z, a.storey) for a in world.characters.values()]
        ask_in_one_pass(world, points)

    def _news(self, world: World, oid: str, spot: tuple[float, float, str]) -> bool:
        # Whether seeing a placed object now could teach anything: not when it is known,
        # not known gone, and the area under it is known (or it lies in none), which is
        # all a sighting adds. Those are left out of the sight tests.
        if oid not in self.objects or oid in self.gone:
            return True
        area = self._spot_areas.get(spot, "")
        if area == "":
            area = self._spot_areas[spot] = world.area_at(*spot)
        return area is not None and area not in self.areas

    def _see_doors(self, world: World, ways: list[tuple[str, str, str, tuple]]) -> None:
        # A door's state is perceived while it is on a way out of the player's area or
        # in sight; one first known now (its area just stood in) is seen as it is.
        own = {way_id for way_id, *_ in ways}
        for door_id in sorted(self.doors):
            runtime = world.doors.get(door_id)
            if runtime is None:
                continue
            if door_id in own or door_id not in self.door_states or sees(
                    world, *self._door_points[door_id]):
                self.door_states[door_id] = self._looks(door_id, runtime.state)
                self.door_seen[door_id] = world.tick

    def _looks(self, door_id: str, state: str) -> str:
        # How a door in this state looks: a lock shows on a door marked for a key (its
        # colour, its label) or once the player tried it; otherwise a locked door looks
        # like any closed one.
        door = self.level.exit(door_id).door
        if state != "locked" or door_id in self.locks_found or (
                door is not None and door.key is not None):
            return state
        return "closed"

    def door_state(self, world: World, door_id: str) -> str:
        """A door's state as the player last perceived it.

        A door it never saw looks as the level shows it from outside: as it starts.
        """
        known = self.door_states.get(door_id)
        if known is not None:
            return known
        door = self.level.exit(door_id).door
        return self._looks(door_id, door.initial if door is not None else "open")

    def _see_gone(self, world: World, here: str | None) -> None:
        # A known object is known gone once the player took it, or saw its spot (or
        # stood in its area) after it was taken or broken; until then it is still there.
        for oid in sorted(self.objects):
            obj = world.objects.get(oid)
            # A pickup back in place (it respawns) stays gone until it is seen again:
            # `update` forgets it gone on sight.
            if obj is None or obj.present or oid in self.gone:
                continue
            why = gone_why(world, oid)
            if why is None:
                continue
            seen = obj.holder == world.player.id or (
                obj.x is not None and (
                    obj.area == here
                    or sees(world, (obj.spot[0], world.level.storey(obj.spot[2]).y, obj.spot[1]),
                            obj.spot[2])))
            if seen:
                self.gone[oid] = why

    def _listen(self, world: World) -> None:
        # A character never seen that fires an unsilenced shot within earshot becomes
        # known as heard: roughly where, and nothing more.
        p = world.player
        for e in world.events.since(self._heard_from):
            if e.kind == "door_refused" and e.other == p.id and e.subject in world.doors:
                # Tried and refused: the player knows how the door stands now.
                self._tried(world, e.subject)
                continue
            actor = world.characters.get(e.subject)
            if e.kind != "shot_fired" or e.amount or actor is None:
                continue
            old = self.characters.get(e.subject)
            if (old is not None and not old.heard) or actor.storey != p.storey:
                continue
            if math.hypot(actor.x - p.x, actor.z - p.z) > HEARING_RANGE:
                continue
            x, y, z = actor.position
            self.characters[e.subject] = Sighting(
                (round(x / HEARD_GRID) * HEARD_GRID, y, round(z / HEARD_GRID) * HEARD_GRID),
                None, e.tick, 1.0, False, heard=True, armed=True)
        self._heard_from = len(world.events)

    def _tried(self, world: World, door_id: str) -> None:
        runtime = world.doors[door_id]
        if runtime.state == "locked":
            self.locks_found.add(door_id)
        if runtime.revealed and door_id in self.doors:
            self.door_states[door_id] = self._looks(door_id, runtime.state)
            self.door_seen[door_id] = world.tick

    def _look_through(self, world: World, ways: list[tuple[str, str, str, tuple]]) -> None:
        p = world.player
        for way_id, beyond, kind, line in ways:
            if kind == "door" and world.doors[way_id].state not in SEE_THROUGH_DOOR:
                continue
            mid = ((line[0][0] + line[1][0]) / 2, (line[0][1] + line[1][1]) / 2)
            if math.hypot(mid[0] - p.x, mid[1] - p.z) <= SIGHT_RANGE:
                self.areas.add(beyond)

    def knows(self, world: World, group: str, level_id: str) -> bool:
        """Whether the player knows a thing of an id group (see `GROUPS`)."""
        if group == "area":
            return level_id in self.areas
        if group == "object":
            return level_id in self.objects
        if group == "character":
            return level_id in self.characters
        runtime = world.doors.get(level_id)
        if runtime is not None and not runtime.revealed:
            return False
        if group == "door":
            return level_id in self.doors
        # A way out is known when it leads out of an area the player has been in, or
        # is on the briefing's floor plan.
        if level_id not in self._way_ids:
            return False
        return self.floor_plan or any(
            way_id == level_id for area in self.visited for way_id, *_ in way_lines(world, area))

    def object_place_known(self, object_id: str) -> bool:
        """Whether the player knows where an object lies (seen or briefed)."""
        return object_id in self.objects
