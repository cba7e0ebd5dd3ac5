"""Walking actions on small purpose-built levels: arrivals, doors, snapping, storeys."""


import pytest

from world.actions.registry import execute


def test_go_to_arrives_and_counts_distance(world):
    result = execute(world, "go_to", {"x": 600, "z": 400})
    assert result.end_reason == "arrived"
    assert result.ticks == world.tick > 0
    assert result.distance_moved == pytest.approx(450, abs=25)
    assert world.player.distance_to(600, 400) <= 20


def test_go_to_closed_door_without_use_names_it_and_runs_nothing(world):
    result = execute(world, "go_to", {"x": 1200, "z": 400})
    assert result.end_reason == "door_closed"
    assert result.door.door == "wood_door" and result.door.state == "closed"
    assert result.ticks == 0 and world.tick == 0


def test_go_to_with_use_opens_the_closed_door_on_the_way(world):
    result = execute(world, "go_to", {"x": 1200, "z": 400, "use_on_way": True})
    assert result.end_reason == "arrived"
    kinds = [e.kind for e in result.events]
    assert "door_opening" in kinds and "door_opened" in kinds
    assert world.doors["wood_door"].state == "open"


def test_go_to_into_locked_door_names_door_and_key(world):
    execute(world, "go_to", {"x": 1200, "z": 400, "use_on_way": True})
    result = execute(world, "go_to", {"x": 1900, "z": 400, "use_on_way": True})
    assert result.end_reason == "door_closed"
    assert result.door.door == "vault_door" and result.door.state == "locked"
    assert result.door.key == "red_key"
    # The key lies in a room the player has not been in: its place is not told.
    assert result.door.key_area is None
    assert "red_key" in result.detail and "vault_door" in result.detail


def test_locked_door_tells_where_the_key_is_once_its_room_was_visited(world):
    assert execute(world, "go_to", {"x": 350, "z": 1500}).end_reason == "arrived"
    execute(world, "go_to", {"x": 150, "z": 300})
    execute(world, "go_to", {"x": 1200, "z": 400, "use_on_way": True})
    result = execute(world, "go_to", {"x": 1900, "z": 400})
    assert result.door.key_area == "north"
    renamed = result.to_dict(rename=lambda i: f"#{i}")
    assert renamed["door"]["key_area"] == "#north" and "#red_key" in renamed["detail"]


def test_go_to_point_inside_wall_snaps_to_nearest_reachable(world):
    result = execute(world, "go_to", {"x": 400, "z": -50})
    assert result.end_reason == "arrived"
    x, _y, z = result.adjusted_target
    assert (x, z) == pytest.approx((400, 20), abs=1)
    assert result.adjusted_by == pytest.approx(70, abs=1)
    assert "70 units" in result.detail


def test_unreachable_target_costs_no_game_time(world):
    before = world.state_hash()
    result = execute(world, "go_to", {"x": 5000, "z": 5000})
    assert result.end_reason == "unreachable"
    assert result.ticks == 0 and world.tick == 0 and world.state_hash() == before


def test_wrong_storey_under_a_balcony(world):
    result = execute(world, "go_to", {"x": 600, "y": 300, "z": 200})
    assert result.end_reason == "wrong_storey"
    assert result.adjusted_target == pytest.approx((600, 0, 200), abs=1)
    assert world.player.distance_to(600, 200) <= 20 and world.player.storey == "ground"


def test_go_to_area_stops_just_inside(world):
    result = execute(world, "go_to_area", {"exit_id": "corridor_south"})
    assert result.end_reason == "arrived"
    assert world.actor_area(world.player) == "corridor"
    assert 600 < world.player.z < 700


def test_go_to_area_through_closed_door_is_door_closed(world):
    result = execute(world, "go_to_area", {"exit_id": "wood_door"})
    assert result.end_reason == "door_closed" and result.door.door == "wood_door"


def test_go_to_area_rejects_an_exit_of_another_area(world):
    from world.errors import UnknownIdError

    with pytest.raises(UnknownIdError):
        execute(world, "go_to_area", {"exit_id": "corridor_north"})


def test_go_to_object_uses_it_once(world):
    result = execute(world, "go_to_object", {"object_id": "terminal"})
    assert result.end_reason == "arrived"
    assert [e.kind for e in result.events].count("object_used") == 1
    assert world.objects["terminal"].uses == 1


def test_go_to_object_on_a_door_opens_it(world):
    result = execute(world, "go_to_object", {"object_id": "wood_door"})
    assert result.end_reason == "arrived"
    assert world.doors["wood_door"].state in ("opening", "open")


def test_gave_up_when_time_runs_out_while_progressing(world):
    result = execute(world, "go_to", {"x": 700, "z": 500, "time_limit_s": 0.5})
    assert result.end_reason == "gave_up"
    assert result.ticks == 15 and result.distance_moved > 100
