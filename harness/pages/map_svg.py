"""The data behind the per-storey SVG maps, computed in Python; templates only draw it.

Seen from above: level x runs to the right and level z runs up the page, so an SVG
point is (x, -z). Every size (strokes, markers, text) is a multiple of one unit
derived from the level's extent, so small and large levels read alike.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Polygon

from harness.pages.endstate import EndState
from harness.pages.trace import DamageMark, Point3, TurnLeg
from world.level.model import Level
from world.observe.ids import IdMap

# Door end state -> CSS class of the door line (the legend is drawn from this table too).
DOOR_CLASSES: dict[str, tuple[str, str]] = {
    "open": ("door-open", "open"),
    "opening": ("door-open", "opening"),
    "closing": ("door-closed", "closing"),
    "closed": ("door-closed", "closed"),
    "locked": ("door-locked", "locked"),
}
# Exit kind -> CSS class, for exits that are not doors.
EXIT_CLASSES: dict[str, str] = {"opening": "gap", "window": "window"}


@dataclass(frozen=True)
class StoreyMap:
    """Everything drawn on one storey's map.

    Attributes:
        id: The storey id.
        view_box: The SVG viewBox ("x y w h").
        unit: One drawing unit in world units (marker and stroke sizes scale with it).
        areas, exits, stairs, hazards, objects, characters, segments, ends, damage,
        start: Lists of plain dicts, each with SVG coordinates and a title.
    """

    id: str
    view_box: str
    unit: float
    areas: tuple[dict[str, Any], ...]
    exits: tuple[dict[str, Any], ...]
    stairs: tuple[dict[str, Any], ...]
    hazards: tuple[dict[str, Any], ...]
    objects: tuple[dict[str, Any], ...]
    characters: tuple[dict[str, Any], ...]
    segments: tuple[dict[str, Any], ...]
    ends: tuple[dict[str, Any], ...]
    damage: tuple[dict[str, Any], ...]
    start: dict[str, Any] | None


def _svg(x: float, z: float) -> tuple[float, float]:
    return round(float(x), 1), round(-float(z), 1)


def _points(poly) -> str:
    return " ".join("{},{}".format(*_svg(x, z)) for x, z in poly)


def storey_of(level: Level, y: float) -> str:
    """The storey a height belongs to: the highest one at or below it (with slack)."""
    ordered = sorted(level.storeys, key=lambda s: s.y)
    chosen = ordered[0].id
    for storey in ordered:
        if storey.y <= y + 1.0:
            chosen = storey.id
    return chosen


def level_bounds(level: Level) -> tuple[float, float, float, float]:
    """(min x, min z, max x, max z) over every area of the level."""
    xs = [p[0] for a in level.areas for p in a.polygon]
    zs = [p[1] for a in level.areas for p in a.polygon]
    return min(xs), min(zs), max(xs), max(zs)


def build_maps(level: Level, header: dict[str, Any], end: EndState, legs: list[TurnLeg],
               damage: list[DamageMark]) -> list[StoreyMap]:
    """One map per storey, in the level's storey order.

    Args:
        level: The level.
        header: The record header (seed and difficulty name the episode ids).
        end: The state at the end of the run.
        legs: The player's route turn by turn.
        damage: Where the player took damage.

    Returns:
        The maps.
    """
    ids = IdMap(level, int(header.get("seed", 0)))
    lo_x, lo_z, hi_x, hi_z = level_bounds(level)
    span = max(hi_x - lo_x, hi_z - lo_z, 1.0)
    unit = round(span / 150, 2)
    pad = unit * 4
    view_box = (f"{lo_x - pad:.1f} {-hi_z - pad:.1f} {hi_x - lo_x + 2 * pad:.1f} "
                f"{hi_z - lo_z + 2 * pad:.1f}")
    on = {s.id: _Layers() for s in level.storeys}
    _static(level, ids, end, on, unit)
    _dynamic(level, end, legs, damage, on)
    return [StoreyMap(s.id, view_box, unit, *on[s.id].frozen()) for s in level.storeys]


class _Layers:
    def __init__(self) -> None:
        self.areas: list = []
        self.exits: list = []
        self.stairs: list = []
        self.hazards: list = []
        self.objects: list = []
        self.characters: list = []
        self.segments: list = []
        self.ends: list = []
        self.damage: list = []
        self.start: dict[str, Any] | None = None

    def frozen(self) -> tuple:
        lists = (self.areas, self.exits, self.stairs, self.hazards, self.objects,
                 self.characters, self.segments, self.ends, self.damage)
        return (*(tuple(x) for x in lists), self.start)


def _static(level: Level, ids: IdMap, end: EndState, on: dict[str, _Layers],
            unit: float) -> None:
    exit_area = level.exit_area.area if level.exit_area else None
    for area in level.areas:
        shape = Polygon(area.polygon)
        label = shape.representative_point()
        x, y = _svg(label.x, label.y)
        # Names shrink to fit their room's width, so narrow corridors stay readable.
        width = shape.bounds[2] - shape.bounds[0]
        font = round(min(unit * 2.2, 1.7 * width / max(4, len(area.name))), 1)
        on[area.storey].areas.append({
            "points": _points(area.polygon), "name": area.name, "id": ids.ep("area", area.id),
            "x": x, "y": y, "font": font, "secret": area.secret, "exit": area.id == exit_area,
        })
    for exit_ in level.exits:
        (x1, y1), (x2, y2) = (_svg(*p) for p in exit_.segment)
        storey = level.area(exit_.areas[0]).storey
        if exit_.door is not None:
            ep = ids.ep("door", exit_.id)
            state = end.doors.get(ep, exit_.door.initial)
            css, words = DOOR_CLASSES.get(state, ("door-closed", state))
            title = f"door {ep}: {words} at the end"
        else:
            css, title = EXIT_CLASSES.get(exit_.kind, "gap"), exit_.kind
        css += " hidden-exit" if exit_.hidden else ""
        on[storey].exits.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "cls": css,
                                 "title": title})
    for stairs in level.stairs:
        (a, b), (c, d) = stairs.bottom.edge, stairs.top.edge
        shape = {"points": _points((a, b, d, c)), "title": f"stairs {ids.ep('way', stairs.id)}"}
        for place in (stairs.bottom, stairs.top):
            on[level.area(place.area).storey].stairs.append(shape)
    for hazard in level.hazards:
        on[hazard.storey].hazards.append({"points": _points(hazard.polygon),
                                          "title": f"hazard: {hazard.kind}"})
    targets = {o.object for o in level.objectives if o.object}
    for obj in level.objects:
        if obj.area is None or obj.at is None:
            continue
        ep = ids.ep("object", obj.id)
        x, y = _svg(*obj.at)
        state = "broken" if ep in end.broken else "taken" if ep in end.taken else ""
        state = "sounding" if ep in end.alarms else state
        words = f"{ep} {obj.kind} '{obj.name or obj.kind}'" + (f" ({state})" if state else "")
        on[level.area(obj.area).storey].objects.append({
            "x": x, "y": y, "id": ep, "cls": " ".join(filter(None, (
                "obj", state, "target" if obj.id in targets else ""))),
            "title": words + (", objective target" if obj.id in targets else ""),
        })


def _dynamic(level: Level, end: EndState, legs: list[TurnLeg], damage: list[DamageMark],
             on: dict[str, _Layers]) -> None:
    for who in end.characters.values():
        if who.at is None:
            continue
        x, y = _svg(who.at[0], who.at[2])
        state = "down" if who.down else ("last seen" if who.seen else "start, never seen")
        on[storey_of(level, who.at[1])].characters.append({
            "x": x, "y": y, "id": who.ep_id, "down": who.down,
            "cls": " ".join(filter(None, (who.side, "down" if who.down else "",
                                          "" if who.seen else "unseen"))),
            "title": f"{who.ep_id} {who.kind} ({who.side}): {state}",
        })
    for leg in legs:
        if not leg.route:
            continue
        if on and leg.turn == legs[0].turn:
            x, y = _svg(leg.route[0][0], leg.route[0][2])
            on[storey_of(level, leg.route[0][1])].start = {"x": x, "y": y}
        for storey, run in _split_by_storey(level, leg.route):
            if len(run) > 1:
                on[storey].segments.append({"turn": leg.turn, "points": " ".join(
                    "{},{}".format(*_svg(p[0], p[2])) for p in run)})
        if leg.end_known:
            last = leg.route[-1]
            x, y = _svg(last[0], last[2])
            on[storey_of(level, last[1])].ends.append({"turn": leg.turn, "x": x, "y": y})
    for mark in damage:
        x, y = _svg(mark.at[0], mark.at[2])
        on[storey_of(level, mark.at[1])].damage.append({
            "turn": mark.turn, "x": x, "y": y,
            "title": f"turn {mark.turn}, tick {mark.tick}: lost {mark.amount:.2f}"
                     + (f" to {mark.source}" if mark.source else ""),
        })


def _split_by_storey(level: Level, route: tuple[Point3, ...]) -> list[tuple[str, list[Point3]]]:
    # A leg that changes storey is drawn on both: the stair climb shows on each map.
    runs: list[tuple[str, list[Point3]]] = []
    for a, b in itertools.pairwise(route):
        for storey in dict.fromkeys((storey_of(level, a[1]), storey_of(level, b[1]))):
            if runs and runs[-1][0] == storey and runs[-1][1][-1] == a:
                runs[-1][1].append(b)
            else:
                runs.append((storey, [a, b]))
    return runs
