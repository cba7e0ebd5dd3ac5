"""Map labels on the run page: placed where they overlap no other label, or abbreviated, or
left to the tooltip; never past the map's edge."""

from __future__ import annotations

import itertools

import pytest

from harness.pages.endstate import EndState
from harness.pages.labels import ABBREVIATED, place, text_box
from harness.pages.map_svg import build_maps
from harness.pages.words import short
from tests.shared import shipped
from world.observe.ids import IdMap
from world.observe.plan import level_plan


def _boxes(drawn) -> list[tuple[str, tuple[float, float, float, float]]]:
    out = [(a["name"], text_box(a["x"], a["y"], a["name"], a["font"], "middle"))
           for a in drawn.areas if a["shown"]]
    out += [(o["label"], text_box(o["lx"], o["ly"], o["label"], o["font"], o["anchor"]))
            for o in drawn.objects if o["shown"]]
    return out


@pytest.mark.parametrize("level", ["facility", "outpost"])
def test_no_two_labels_overlap_on_a_dense_map(level: str) -> None:
    loaded = shipped(level)
    plan = level_plan(loaded, "hard", IdMap(loaded, 0))
    for drawn in build_maps(plan, EndState(), [], []):
        x, y, w, h = (float(v) for v in drawn.view_box.split())
        boxes = _boxes(drawn)
        for (a, one), (b, two) in itertools.combinations(boxes, 2):
            assert not (one[0] < two[2] and two[0] < one[2] and one[1] < two[3]
                        and two[1] < one[3]), f"{drawn.id}: {a!r} overlaps {b!r}"
        for name, box in boxes:
            assert x <= box[0] and box[2] <= x + w and y <= box[1] and box[3] <= y + h, name
        # Most names still show: a crowded one is abbreviated before it is hidden.
        shown = sum(o["shown"] for o in drawn.objects)
        assert shown >= 0.8 * len(drawn.objects), drawn.id


def test_a_crowded_name_is_abbreviated_then_hidden() -> None:
    # A narrow map: the whole name fits on no side of its square, its abbreviation does.
    frame = (0.0, -50.0, 25.0, 50.0)
    areas = [{"x": 12.5, "y": 0.0, "name": "Stair landing", "font": 2.2}]
    name = "a long name for a flak vest"
    objects = [{"x": 12.5, "y": 6.0, "label": name, "font": 1.9} for _ in range(6)]
    place(areas, objects, 1.0, frame)
    assert areas[0]["shown"]
    shown = [o for o in objects if o["shown"]]
    assert shown and all(o["label"] == short(name, ABBREVIATED) for o in shown)
    assert len(shown) == 4  # one per side; the other two are left to their tooltip
