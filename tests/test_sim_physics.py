"""Movement: stairs between storeys, sliding along walls, bodies pushing each other."""

import math

import pytest

from world.sim import PlayerIntent, World

LEVEL_FILE, DIFFICULTY = "sim_stairs.json", "normal"  # the `level` and `world` fixtures'


def test_start_place_comes_from_the_seed(level):
    starts = {(World(level, "normal", s).player.x, World(level, "normal", s).player.z)
              for s in range(12)}
    assert starts == {(500.0, 500.0), (200.0, 200.0), (300.0, 700.0)}


def test_walking_up_and_down_the_stairs(world):
    world.teleport("player", 500, 900)
    heights = []
    for _ in range(120):
        world.step(PlayerIntent(move_to=(500, 1800)))
        heights.append((world.player.z, world.player.y, world.player.storey))
    p = world.player
    assert (p.storey, p.area, p.y) == ("upper", "loft", 300.0)
    assert (p.x, p.z) == pytest.approx((500, 1800))
    mid = [y for z, y, _ in heights if 1290 < z < 1310]
    assert mid and mid[0] == pytest.approx(150, abs=6)
    assert any(e.kind == "storey_changed" and e.detail == "upper" for e in world.events)
    for _ in range(120):
        world.step(PlayerIntent(move_to=(500, 800)))
    assert (p.storey, p.area, p.y) == ("ground", "lower", 0.0)


def test_sliding_along_a_wall(world):
    world.teleport("player", 900, 300)
    for _ in range(60):
        world.step(PlayerIntent(move_to=(1300, 1100)))
        # Contacts are found after a tick's move, so a body may sink in for one tick.
        assert world.player.x <= 1000 - world.player.radius + 10
    p = world.player
    assert p.x <= 1000 - p.radius + 0.5
    assert p.z > 500  # it slid along the wall instead of sticking to it
    assert p.area == "lower"


def test_actors_push_each_other_instead_of_passing(world):
    world.teleport("player", 400, 300)
    post = world.characters["post"]
    start_x = post.x
    for _ in range(60):
        world.step(PlayerIntent(move_to=(1000, 300)))
        gap = math.hypot(world.player.x - post.x, world.player.z - post.z)
        assert gap >= 2 * post.radius - 10.5  # at most one tick of travel
        assert world.player.x < post.x
    assert post.x > start_x + 100


def test_walkers_meeting_head_on_do_not_overlap(world):
    world.teleport("player", 300, 800)
    walker = world.characters["walker"]
    walker.move_to = (200, 805)
    for _ in range(90):
        world.step(PlayerIntent(move_to=(900, 800)))
        gap = math.hypot(world.player.x - walker.x, world.player.z - walker.z)
        assert gap >= 2 * walker.radius - 20.5  # both walked one tick into the other
