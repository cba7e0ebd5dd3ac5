"""Actions whose target lies on another storey: stairs taken, honest ends when none lead.

The test level has a gallery right above the hall the player starts in, reached by a
flight of stairs to a landing and a bridge behind a closed door; a locked strongroom
upstairs; and a perch above the annex with no way up.
"""


import pytest

from world.actions.registry import execute

LEVEL_FILE = "actions_storeys.json"
UPPER_Y = 300.0



def kinds(result):
    return [e.kind for e in result.events]


def climbed(result):
    return any(e.kind == "storey_changed" and e.subject == "player" and e.detail == "upper"
               for e in result.events)


def test_go_to_object_upstairs_walks_up_the_stairs_and_uses_it(world):
    # The panel stands right above the start: the floor below must not pass for it.
    result = execute(world, "go_to_object", {"object_id": "upper_panel"})
    assert result.end_reason == "arrived", result.detail
    assert climbed(result)
    assert world.player.storey == "upper" and world.player.y == pytest.approx(UPPER_Y)
    assert "door_opened" in kinds(result)  # the bridge door on the way
    assert kinds(result).count("object_used") == 1
    assert world.objects["upper_panel"].uses == 1


def test_go_to_object_beside_the_stairwell_stays_upstairs(world):
    # The way there runs along the gallery over the foot of the stairs.
    result = execute(world, "go_to_object", {"object_id": "rail_panel"})
    assert result.end_reason == "arrived", result.detail
    assert world.player.storey == "upper"
    assert world.objects["rail_panel"].uses == 1


def test_go_to_with_upper_y_walks_up_the_stairs(world):
    result = execute(world, "go_to", {"x": 300, "y": UPPER_Y, "z": 300, "use_on_way": True})
    assert result.end_reason == "arrived", result.detail
    assert climbed(result)
    assert result.adjusted_target is None
    assert world.player.storey == "upper" and world.player.distance_to(300, 300) <= 20


def test_go_to_with_upper_y_names_the_closed_door_on_the_way_up(world):
    result = execute(world, "go_to", {"x": 300, "y": UPPER_Y, "z": 300})
    assert result.end_reason == "door_closed"
    assert result.door.door == "bridge_door"
    assert result.ticks == 0


def test_go_to_without_y_goes_to_the_only_floor_there(world):
    # Only the bridge upstairs covers this point: going there means going up.
    result = execute(world, "go_to", {"x": 900, "z": 1300, "use_on_way": True})
    assert result.end_reason == "arrived", result.detail
    assert world.player.storey == "upper"


def test_go_to_along_the_gallery_over_the_foot_of_the_stairs(world):
    result = execute(world, "go_to", {"x": 200, "y": UPPER_Y, "z": 975, "use_on_way": True})
    assert result.end_reason == "arrived", result.detail
    assert world.player.storey == "upper" and world.player.distance_to(200, 975) <= 20


def test_go_to_right_below_an_unreachable_floor_is_wrong_storey(world):
    world.teleport("player", 1300, 300, "ground")
    result = execute(world, "go_to", {"x": 1300, "y": UPPER_Y, "z": 300})
    assert result.end_reason == "wrong_storey"
    assert "below" in result.detail
    assert result.ticks == 0
    assert result.adjusted_target == pytest.approx((1300, 0, 300), abs=1)
    assert world.player.storey == "ground"


def test_go_to_object_right_below_it_with_no_way_up_is_wrong_storey(world):
    world.teleport("player", 1300, 320, "ground")
    result = execute(world, "go_to_object", {"object_id": "perch_switch"})
    assert result.end_reason == "wrong_storey"
    assert "above" in result.detail and "perch_switch" in result.detail
    assert result.ticks == 0 and world.tick == 0


def test_go_to_object_far_from_an_unreachable_floor_is_unreachable(world):
    result = execute(world, "go_to_object", {"object_id": "perch_switch"})
    assert result.end_reason == "unreachable"
    assert "300 units above" in result.detail
    assert result.ticks == 0 and world.tick == 0


def test_go_to_object_behind_a_locked_door_upstairs_names_the_door(world):
    result = execute(world, "go_to_object", {"object_id": "ledger"})
    assert result.end_reason == "door_closed"
    assert result.door.door == "strong_door" and result.door.key == "blue_key"
    assert result.ticks == 0


def test_use_item_on_upstairs_object_walks_up_and_uses_it(world):
    result = execute(world, "use_item_on", {"item_id": "snapper", "object_id": "upper_panel"})
    assert result.end_reason == "arrived", result.detail
    assert world.player.storey == "upper"
    assert "photographed" in world.objects["upper_panel"].marks


def test_attack_on_a_character_upstairs_walks_up_to_them(world):
    result = execute(world, "attack", {"character_id": "lookout"})
    assert result.end_reason == "arrived", result.detail
    assert climbed(result)
    assert not world.characters["lookout"].alive


def test_shoot_object_on_another_storey_is_refused_and_says_why(world):
    result = execute(world, "shoot_object", {"object_id": "gallery_crate"})
    assert result.end_reason == "refused"
    assert "another storey" in result.detail and "above" in result.detail
    assert result.ticks == 0


def test_go_to_area_up_the_stairs_enters_the_landing(world):
    result = execute(world, "go_to_area", {"exit_id": "flight"})
    assert result.end_reason == "arrived", result.detail
    assert world.player.storey == "upper"
    assert world.actor_area(world.player) == "landing"
