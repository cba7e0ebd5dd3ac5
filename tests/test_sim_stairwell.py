"""Stairs whose foot lies under a floor of the upper storey (a balcony over the hall).

The balcony's edge above the foot of the flight stays a wall upstairs (nobody drops
into the stairwell from it), so a body walking down must reach the lower storey before
its centre reaches the foot.
"""


import pytest

from tests.shared import local
from world.actions.registry import execute
from world.sim import PlayerIntent, World

LEVEL = local("sim_stairwell.json")


@pytest.fixture
def world() -> World:
    return World(LEVEL, "normal", seed=1)


def walk(world: World, to: tuple[float, float], ticks: int) -> None:
    for _ in range(ticks):
        world.step(PlayerIntent(move_to=to))


def storeys_changed(world: World) -> list[str]:
    return [e.detail for e in world.events if e.kind == "storey_changed"]


def test_walking_up_then_down_under_the_balcony(world):
    p = world.player
    walk(world, (450, -200), 240)
    assert (p.storey, p.area, p.y) == ("upper", "loft", 300.0)
    assert (p.x, p.z) == pytest.approx((450, -200))
    walk(world, (450, 1300), 240)
    assert (p.storey, p.area, p.y) == ("ground", "hall", 0.0)
    assert (p.x, p.z) == pytest.approx((450, 1300))
    assert storeys_changed(world) == ["upper", "ground"]


def test_halfway_down_the_flight_is_halfway_up(world):
    world.teleport("player", 450, -100, "upper")
    heights = []
    for _ in range(150):
        world.step(PlayerIntent(move_to=(450, 1300)))
        heights.append((world.player.z, world.player.y))
    mid = [y for z, y in heights if 490 < z < 510]
    assert mid and mid[0] == pytest.approx(150, abs=6)


def test_the_balcony_edge_over_the_foot_is_still_a_wall_upstairs(world):
    p = world.player
    world.teleport("player", 450, 1300, "upper")
    walk(world, (450, 500), 90)
    assert (p.storey, p.area, p.y) == ("upper", "balcony", 300.0)
    assert p.z >= 1000 + p.radius - 0.5
    assert storeys_changed(world) == []


def test_go_to_down_the_stairs_arrives():
    world = World(LEVEL, "normal", seed=1)
    world.teleport("player", 450, -300, "upper")
    result = execute(world, "go_to", {"x": 450, "z": 1300, "y": 0})
    assert result.end_reason == "arrived", result.detail
    assert world.player.storey == "ground"
    result = execute(world, "go_to", {"x": 450, "z": -300, "y": 300})
    assert result.end_reason == "arrived", result.detail
    assert world.player.storey == "upper"
