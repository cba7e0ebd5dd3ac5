"""The map of what the player knows, built from the observations alone.

A person playing through `harness play` sees what a program agent sees: the messages of
the protocol. This module keeps what those messages said (areas by the points seen in
them, ways out, doors, objects, characters, the player's positions turn by turn) and
draws it two ways: as a plan in the record map's shape for the run page's map drawing
(harness/pages/map_svg.py), and as a small text grid for a terminal. An area's outline
is the box around the points known in it, a sketch, never the level's real floor.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.pages.endstate import CharacterEnd, EndState
from harness.pages.trace import Point3, TurnLeg, as_point

PAD = 120.0  # world units around the points known in an area: the sketch of its floor
MARK = 40.0  # half the length of the line drawn for a way out or a door


@dataclass
class _Area:
    name: str
    storey: str | None = None
    points: list[tuple[float, float, float]] = field(default_factory=list)


class KnownMap:
    """What the observations said so far; `add` each observation in turn order."""

    def __init__(self) -> None:
        self.areas: dict[str, _Area] = {}
        self.storey_y: dict[str, float] = {}
        self.ways: dict[str, dict[str, Any]] = {}
        self.doors: dict[str, dict[str, Any]] = {}
        self.objects: dict[str, dict[str, Any]] = {}
        self.characters: dict[str, dict[str, Any]] = {}
        self.carried: set[str] = set()
        self.targets: set[str] = set()
        self.positions: list[tuple[int, int, Point3]] = []  # (turn, tick, where)
        self.exit_area: str | None = None
        self.current: str | None = None

    def _area(self, area_id: Any, name: Any = "") -> _Area | None:
        if not isinstance(area_id, str):
            return None
        area = self.areas.setdefault(area_id, _Area(str(name or area_id)))
        if name:
            area.name = str(name)
        return area

    def _seen_in(self, area_id: Any, at: Point3 | None, name: Any = "") -> None:
        # The area is known once named; a point seen in it widens its box.
        known = self._area(area_id, name)
        if known is not None and at is not None:
            known.points.append(at)

    def add(self, observation: dict[str, Any]) -> None:
        """Take in one observation message."""
        view = observation.get("view") or {}
        player = view.get("player") or {}
        here = view.get("area") or {}
        where = as_point(player.get("position"))
        self.current = here.get("id")
        area = self._area(here.get("id"), here.get("name"))
        if area is not None:
            area.storey = here.get("storey") or area.storey
            if where is not None:
                area.points.append(where)
                if area.storey is not None:
                    low = self.storey_y.get(area.storey, where[1])
                    self.storey_y[area.storey] = min(low, where[1])
        if where is not None:
            self.positions.append((int(observation.get("turn", 0)),
                                   int(observation.get("tick", 0)), where))
        for way in here.get("ways_out") or []:
            self.ways[way["id"]] = {**way, "from": here.get("id")}
            at = as_point(way.get("position"))
            # Stairs seen from the other storey are not a point of that storey's area.
            sides = (here.get("id"),) if way.get("other_storey") else (here.get("id"),
                                                                        way.get("to"))
            for side in sides:
                self._seen_in(side, at, way.get("to_name") if side == way.get("to") else "")
        for door in view.get("doors") or []:
            self.doors[door["id"]] = door
            at = as_point(door.get("position"))
            for side in door.get("between") or []:
                self._seen_in(side, at)
        for obj in view.get("objects") or []:
            self.objects[obj["id"]] = obj
            self._seen_in(obj.get("area"), as_point(obj.get("position")))
        for who in view.get("characters") or []:
            self.characters[who["id"]] = who
            # A character only heard gives its area, not a point in it.
            heard = who.get("seen") == "heard"
            self._seen_in(who.get("area"), None if heard else as_point(who.get("position")))
        self.carried = {c.get("id") for c in player.get("carried") or []}
        self.targets = {t for o in view.get("objectives") or [] for t in o.get("targets") or []}
        self.exit_area = (view.get("exit") or {}).get("area") or self.exit_area

    def storey_of(self, y: float) -> str | None:
        """The known storey a height is on (the highest at or below it), None if none."""
        below = [(sy, s) for s, sy in self.storey_y.items() if sy <= y + 1.0]
        return max(below)[1] if below else (min((sy, s) for s, sy in self.storey_y.items())[1]
                                            if self.storey_y else None)

    def _area_storey(self, area: _Area) -> str | None:
        if area.storey is not None:
            return area.storey
        heights = [p[1] for p in area.points]
        return self.storey_of(min(heights)) if heights else None

    def boxes(self) -> dict[str, tuple[str, str, tuple[float, float, float, float]]]:
        """Each drawable area: id -> (name, storey, (min x, min z, max x, max z) padded)."""
        out = {}
        for area_id, area in self.areas.items():
            storey = self._area_storey(area)
            if storey is None or not area.points:
                continue
            xs = [p[0] for p in area.points]
            zs = [p[2] for p in area.points]
            out[area_id] = (area.name, storey, (min(xs) - PAD, min(zs) - PAD,
                                                max(xs) + PAD, max(zs) + PAD))
        return out

    def plan(self) -> dict[str, Any] | None:
        """The known map in the record map's shape (schemas/record/map.schema.json)."""
        boxes = self.boxes()
        if not boxes:
            return None
        storeys = [{"id": s, "y": y} for s, y in sorted(self.storey_y.items(), key=lambda i: i[1])]
        areas = [{"id": a, "name": name, "storey": storey, "secret": False,
                  "exit": a == self.exit_area,
                  "polygon": [[lx, lz], [hx, lz], [hx, hz], [lx, hz]]}
                 for a, (name, storey, (lx, lz, hx, hz)) in boxes.items()]
        exits = []
        for way in self.ways.values():
            if way.get("door") is None:
                exits.append(self._mark(way["id"], way.get("via") or "opening",
                                        way.get("position"), None))
        for door in self.doors.values():
            exits.append(self._mark(door["id"], "door", door.get("position"),
                                    door.get("state") or "closed"))
        objects = []
        for obj in self.objects.values():
            at = as_point(obj.get("position"))
            storey = self.storey_of(at[1]) if at is not None else None
            if at is not None and storey is not None:
                objects.append({"id": obj["id"], "kind": obj.get("kind"),
                                "name": obj.get("name") or obj["id"], "at": [at[0], at[2]],
                                "storey": storey, "target": obj["id"] in self.targets})
        return {"version": 1, "storeys": storeys, "areas": areas,
                "exits": [e for e in exits if e is not None], "stairs": [], "hazards": [],
                "objects": objects}

    def _mark(self, ident: str, kind: str, position: Any, door: str | None
              ) -> dict[str, Any] | None:
        at = as_point(position)
        storey = self.storey_of(at[1]) if at is not None else None
        if at is None or storey is None:
            return None
        return {"id": ident, "kind": "opening" if kind == "stairs" else kind,
                "storey": storey, "hidden": False, "door": door,
                "segment": [[at[0] - MARK, at[2]], [at[0] + MARK, at[2]]]}

    def end_state(self) -> EndState:
        """Doors, characters and objects as last perceived, for the map drawing."""
        end = EndState(doors={d: str(door.get("state")) for d, door in self.doors.items()})
        for ident, who in self.characters.items():
            side = "friendly" if who.get("friendly") else "hostile"
            end.characters[ident] = CharacterEnd(
                ident, str(who.get("kind")), side, as_point(who.get("position")),
                down=bool(who.get("down")),
                seen=who.get("seen") == "now")
        end.taken = {o for o in self.objects if o in self.carried}
        end.broken = {o for o, obj in self.objects.items() if obj.get("state") == "broken"}
        return end

    def legs(self) -> list[TurnLeg]:
        """The player's route: a straight line from each turn's position to the next."""
        legs = []
        for index, (turn, tick, at) in enumerate(self.positions):
            nxt = self.positions[index + 1][2] if index + 1 < len(self.positions) else None
            route = (at,) if nxt is None else (at, nxt)
            legs.append(TurnLeg(turn, tick, 0, route, nxt is not None))
        return legs
