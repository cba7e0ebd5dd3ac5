"""Calm routines: patrols loop, idlers stay near their post, couriers reach their goal."""

import math

from test_characters_support import events, make


def test_patrol_walks_its_route_back_and_forth():
    world, chars = make("characters_routine")
    walker = world.characters["walker"]
    far_end = back_home = False
    for _ in range(30 * 20):
        world.step()
        if math.hypot(walker.x - 1600, walker.z - 1000) < 40:
            far_end = True
        if far_end and math.hypot(walker.x - 200, walker.z - 1000) < 40:
            back_home = True
    assert far_end and back_home
    assert chars.minds["walker"].activity == "patrolling"


def test_idle_guard_wanders_near_its_post():
    world, _ = make("characters_routine", seed=3)
    loafer = world.characters["loafer"]
    spots = set()
    for _ in range(30 * 20):
        world.step()
        assert math.hypot(loafer.x - 1000, loafer.z - 600) < 300
        spots.add((round(loafer.x, -1), round(loafer.z, -1)))
    assert len(spots) > 5  # it moves about


def test_courier_walks_its_route_to_the_destination():
    world, chars = make("characters_routine")
    for _ in range(30 * 15):
        world.step()
    runner = world.characters["runner"]
    assert runner.area == "depot"
    assert [(e.subject, e.other) for e in events(world, "destination_reached")] == [
        ("runner", "depot")]
    assert chars.minds["runner"].activity == "arrived"
