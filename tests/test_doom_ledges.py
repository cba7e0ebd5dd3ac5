"""Routes and ledges: a route never asks the player to climb more than Doom's step.

Doom stands the player on the highest floor his 32-unit box touches, so a raised strip
narrower than the box (a rail beside a pit, a pillar's side) is a ledge to climb, not a
floor to walk along. Read from the WAD (the maps ship with the `doom` extra).
"""

from __future__ import annotations

import math

import numpy as np

from tests.doom_support import needs_engine

STEP = 24.0
# The box's half width is 16; the route grid places it to within a few units, and a
# box grazing a ledge's side slides along it, so the test looks 10 units each way.
REACH = 10.0


def _standing(rooms, heights, x: float, y: float) -> float:
    # The highest floor under the box, sampled every 5 units (finer than any strip).
    floors = []
    for dx in np.linspace(-REACH, REACH, 5):
        for dy in np.linspace(-REACH, REACH, 5):
            sector = rooms.sector_at(x + dx, y + dy)
            if sector is not None:
                floors.append(heights(sector)[0])
    return max(floors)


def _rises(rooms, heights, start, points) -> list[tuple[float, float, float]]:
    """Where along a route the standing height jumps up by more than a step."""
    out, last = [], None
    for a, b in zip([start, *points], points, strict=False):
        n = max(2, int(math.dist(a, b) // 4))
        for k in range(n + 1):
            x, y = a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n
            z = _standing(rooms, heights, x, y)
            if last is not None and z > last + STEP:
                out.append((round(x), round(y), z - last))
            last = z
    return out


@needs_engine
def test_routes_do_not_climb_rails_or_pillar_sides() -> None:
    # E1M1: beside the zombiemen's pit a 16-unit rail stands 32 units over the floor,
    # and a 56-unit pillar stands in the room east of the start. Both were walked along
    # as the floor below (a ledge's edge counts as the floor below) and the player stood
    # against them, stuck, for the rest of the walk; now routes go round.
    from world.doom.files import iwad
    from world.doom.maps import load_navgrid, load_rooms
    from world.doom.navgrid import map_heights

    rooms = load_rooms(iwad("freedoom1"), "E1M1")
    grid = load_navgrid(iwad("freedoom1"), "E1M1")
    heights = map_heights(rooms)
    for start, goal in [((928.0, 454.0), (830.0, 504.2)), ((874.0, -624.0), (726.8, -374.2))]:
        points = grid.plan(start, goal, heights)
        assert points is not None, (start, goal)
        assert _rises(rooms, heights, start, points) == [], (start, points)
