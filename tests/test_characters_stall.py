"""Walkers that stall against each other step aside and go on.

Two patrols walk the same narrow corridor from opposite ends, both along its centre
line: without stall handling they meet head-on and push each other for ever.
"""

import math

from tests.shared import local
from world.characters.system import CharactersSystem
from world.sim.world import World

LEVEL = local("characters_corridor.json")


def world(seed: int = 1) -> World:
    w = World(LEVEL, "normal", seed)
    CharactersSystem.attach(w)
    return w


def test_patrols_meeting_head_on_both_get_past():
    w = world()
    east, west = w.characters["east_walker"], w.characters["west_walker"]
    close_ticks, longest = 0, 0
    for _ in range(12 * 30):
        w.step(None)
        if east.x >= 1750 and west.x <= 250:
            break
        if math.hypot(east.x - west.x, east.z - west.z) < east.radius + west.radius + 10:
            close_ticks += 1
            longest = max(longest, close_ticks)
        else:
            close_ticks = 0
    assert east.x >= 1750 and west.x <= 250, (east.position, west.position)
    # They were held up about a second, not for the rest of the walk.
    assert longest < 3 * 30


def test_the_patrols_keep_passing_each_other():
    w = world()
    east = w.characters["east_walker"]
    ends = []
    for _ in range(40 * 30):
        w.step(None)
        end = "far" if east.x >= 1750 else "near" if east.x <= 250 else None
        if end is not None and (not ends or ends[-1] != end):
            ends.append(end)
    assert ends[:4] == ["near", "far", "near", "far"]


def test_stepping_aside_is_deterministic():
    a, b = world(3), world(3)
    for _ in range(10 * 30):
        a.step(None)
        b.step(None)
    assert a.state_hash() == b.state_hash()
