"""The data behind the per-storey SVG maps, computed in Python; templates only draw it.

Seen from above: level x runs to the right and level z runs up the page, so an SVG
point is (x, -z). Each storey's map is framed on that storey's own floor (its areas
and stairs), so a wide level or a small upper floor fills its frame. Every size
(strokes, markers, text) is a multiple of one unit derived from the storey's extent,
so small and large storeys read alike. Everything comes from the record's map
(schemas/record/map.schema.json): no level file is read.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Polygon

from harness.pages.endstate import EndState
from harness.pages.labels import place
from harness.pages.trace import DamageMark, Point3, TurnLeg
from harness.pages.words import short

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
# Map features beside doors, as the legend lists them: (CSS class of the swatch, words).
LEGEND: tuple[tuple[str, str], ...] = (
    ("path", "player route"), ("end", "turn end"), ("start", "player start"),
    ("dmg", "damage taken"), ("hostile", "hostile"), ("friendly", "friendly"),
    ("obj", "object"), ("target", "objective target"), ("stairs", "stairs"),
    ("window", "window"), ("hazard", "hazard"), ("mission-exit", "mission exit"),
)
Plan = dict[str, Any]


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


def _points(poly: Iterable[Sequence[float]]) -> str:
    return " ".join("{},{}".format(*_svg(x, z)) for x, z in poly)


def storey_of(plan: Plan, y: float) -> str:
    """The storey a height belongs to: the highest one at or below it (with slack)."""
    ordered = sorted(plan["storeys"], key=lambda s: s["y"])
    chosen: str = ordered[0]["id"]  # a record's storey ids are strings
    for storey in ordered:
        if storey["y"] <= y + 1.0:
            chosen = storey["id"]
    return chosen


def _bounds(rings: Sequence[Sequence[Sequence[float]]]) -> tuple[float, float, float, float]:
    xs = [p[0] for ring in rings for p in ring]
    zs = [p[1] for ring in rings for p in ring]
    return min(xs), min(zs), max(xs), max(zs)


def plan_bounds(plan: Plan) -> tuple[float, float, float, float]:
    """(min x, min z, max x, max z) over every area of the map."""
    return _bounds([a["polygon"] for a in plan["areas"]])


def _storey_bounds(plan: Plan, storey: str) -> tuple[float, float, float, float]:
    rings = [a["polygon"] for a in plan["areas"] if a["storey"] == storey]
    rings += [s["polygon"] for s in plan["stairs"] if storey in s["storeys"]]
    return _bounds(rings) if rings else plan_bounds(plan)


def build_maps(plan: Plan, end: EndState, legs: list[TurnLeg],
               damage: list[DamageMark]) -> list[StoreyMap]:
    """One map per storey, in the level's storey order, each framed on its own floor.

    Args:
        plan: The record's map.
        end: The state at the end of the run.
        legs: The player's route turn by turn.
        damage: Where the player took damage.

    Returns:
        The maps.
    """
    on = {s["id"]: _Layers() for s in plan["storeys"]}
    _static(plan, end, on)
    _dynamic(plan, end, legs, damage, on)
    maps = []
    for storey in plan["storeys"]:
        layers = on[storey["id"]]
        lo_x, lo_z, hi_x, hi_z = _storey_bounds(plan, storey["id"])
        unit = round(max(hi_x - lo_x, hi_z - lo_z, 1.0) / 150, 2)
        pad = unit * 4
        layers.size(unit, (lo_x - pad, -hi_z - pad, hi_x + pad, -lo_z + pad))
        view_box = (f"{lo_x - pad:.1f} {-hi_z - pad:.1f} {hi_x - lo_x + 2 * pad:.1f} "
                    f"{hi_z - lo_z + 2 * pad:.1f}")
        maps.append(layers.frozen(storey["id"], view_box, unit))
    return maps


class _Layers:
    def __init__(self) -> None:
        self.areas: list[dict[str, Any]] = []
        self.exits: list[dict[str, Any]] = []
        self.stairs: list[dict[str, Any]] = []
        self.hazards: list[dict[str, Any]] = []
        self.objects: list[dict[str, Any]] = []
        self.characters: list[dict[str, Any]] = []
        self.segments: list[dict[str, Any]] = []
        self.ends: list[dict[str, Any]] = []
        self.damage: list[dict[str, Any]] = []
        self.start: dict[str, Any] | None = None

    def size(self, unit: float, frame: tuple[float, float, float, float]) -> None:
        # Names shrink to fit their room's width, so narrow corridors stay readable.
        for area in self.areas:
            area["font"] = round(min(unit * 2.2, 1.7 * area["width"] / max(4, len(area["name"]))),
                                 1)
        for obj in self.objects:
            obj["font"] = round(unit * 1.9, 1)
        place(self.areas, self.objects, unit, frame)  # no label over another

    def frozen(self, storey: str, view_box: str, unit: float) -> StoreyMap:
        return StoreyMap(
            storey, view_box, unit, areas=tuple(self.areas), exits=tuple(self.exits),
            stairs=tuple(self.stairs), hazards=tuple(self.hazards), objects=tuple(self.objects),
            characters=tuple(self.characters), segments=tuple(self.segments),
            ends=tuple(self.ends), damage=tuple(self.damage), start=self.start)


def _static(plan: Plan, end: EndState, on: dict[str, _Layers]) -> None:
    for area in plan["areas"]:
        shape = Polygon(area["polygon"])
        label = shape.representative_point()
        x, y = _svg(label.x, label.y)
        on[area["storey"]].areas.append({
            "points": _points(area["polygon"]), "name": area["name"], "id": area["id"],
            "x": x, "y": y, "width": shape.bounds[2] - shape.bounds[0],
            "secret": area["secret"], "exit": area["exit"],
        })
    for exit_ in plan["exits"]:
        (x1, y1), (x2, y2) = (_svg(*p) for p in exit_["segment"][:2])
        if exit_["door"] is not None:
            state = end.doors.get(exit_["id"], exit_["door"])
            css, words = DOOR_CLASSES.get(state, ("door-closed", state))
            title = f"door {exit_['id']}: {words} at the end"
        else:
            css, title = EXIT_CLASSES.get(exit_["kind"], "gap"), f"{exit_['kind']} {exit_['id']}"
        css += " hidden-exit" if exit_["hidden"] else ""
        on[exit_["storey"]].exits.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "cls": css,
                                          "title": title})
    for stairs in plan["stairs"]:
        shape = {"points": _points(stairs["polygon"]), "title": f"stairs {stairs['id']}"}
        for storey in stairs["storeys"]:
            on[storey].stairs.append(shape)
    for hazard in plan["hazards"]:
        on[hazard["storey"]].hazards.append({"points": _points(hazard["polygon"]),
                                             "title": f"hazard: {hazard['kind']}"})
    for obj in plan["objects"]:
        ep = obj["id"]
        x, y = _svg(*obj["at"])
        state = "broken" if ep in end.broken else "taken" if ep in end.taken else ""
        state = "sounding" if ep in end.alarms else state
        words = f"{ep} {obj['kind']} '{obj['name']}'" + (f" ({state})" if state else "")
        decoy = "decoy" if obj.get("decoy") else ""  # a look-alike of the real target
        words += ", a decoy" if decoy else ""
        on[obj["storey"]].objects.append({
            "x": x, "y": y, "id": ep, "label": short(obj["name"]),
            "cls": " ".join(filter(None, ("obj", state, decoy,
                                          "target" if obj["target"] else ""))),
            "title": words + (", objective target" if obj["target"] else ""),
        })


def _dynamic(plan: Plan, end: EndState, legs: list[TurnLeg], damage: list[DamageMark],
             on: dict[str, _Layers]) -> None:
    for who in end.characters.values():
        if who.at is None:
            continue
        x, y = _svg(who.at[0], who.at[2])
        state = "down" if who.down else ("last seen" if who.seen else "start, never seen")
        on[storey_of(plan, who.at[1])].characters.append({
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
            on[storey_of(plan, leg.route[0][1])].start = {"x": x, "y": y}
        for storey, run in _split_by_storey(plan, leg.route):
            if len(run) > 1:
                on[storey].segments.append({"turn": leg.turn, "points": " ".join(
                    "{},{}".format(*_svg(p[0], p[2])) for p in run)})
        if leg.end_known:
            last = leg.route[-1]
            x, y = _svg(last[0], last[2])
            on[storey_of(plan, last[1])].ends.append({"turn": leg.turn, "x": x, "y": y})
    for mark in damage:
        x, y = _svg(mark.at[0], mark.at[2])
        on[storey_of(plan, mark.at[1])].damage.append({
            "turn": mark.turn, "x": x, "y": y,
            "title": f"turn {mark.turn}, tick {mark.tick}: lost {mark.amount:.2f}"
                     + (f" to {mark.source}" if mark.source else ""),
        })


def _split_by_storey(plan: Plan, route: tuple[Point3, ...]) -> list[tuple[str, list[Point3]]]:
    # A leg that changes storey is drawn on both: the stair climb shows on each map.
    runs: list[tuple[str, list[Point3]]] = []
    for a, b in itertools.pairwise(route):
        for storey in dict.fromkeys((storey_of(plan, a[1]), storey_of(plan, b[1]))):
            if runs and runs[-1][0] == storey and runs[-1][1][-1] == a:
                runs[-1][1].append(b)
            else:
                runs.append((storey, [a, b]))
    return runs
