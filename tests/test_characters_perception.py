"""Sight through windows but not walls, hearing through walls, alertness rising and decaying."""

from test_characters_support import events, make, run

from world.characters import LEVEL_NAMES


def test_alertness_levels_are_ordered_and_named_once():
    assert LEVEL_NAMES == ("unaware", "suspicious", "alerted", "in_combat")


def test_guard_does_not_see_the_player_behind_a_wall():
    world, chars = make("characters_watch")
    world.teleport("player", 900, 150)  # in the next room, straight line hits the wall
    run(world, 90)
    assert chars.alertness("guard") == "unaware"
    assert not events(world, "player_spotted")


def test_guard_sees_the_player_through_a_window():
    world, chars = make("characters_watch")
    world.teleport("player", 900, 520)  # the line passes through the window
    run(world, 90)
    assert chars.alertness("guard") in ("alerted", "in_combat")
    changes = [e.detail for e in events(world, "alertness_changed") if e.subject == "guard"]
    assert changes[0] == "suspicious"


def test_closed_door_blocks_sight_and_open_door_does_not():
    world, chars = make("characters_watch")
    world.teleport("player", 700, 40)  # the line from the guard's post crosses the door
    run(world, 60)
    assert chars.alertness("guard") == "unaware"
    world.teleport("player", 640, 70)
    world.use("player", "watch_door")
    world.teleport("player", 700, 40)
    run(world, 60)
    assert chars.alertness("guard") != "unaware"


def test_gunfire_is_heard_through_a_wall():
    world, chars = make("characters_watch")
    world.teleport("player", 900, 150)
    world.characters["guard"].facing = 3.14159  # looking away from the wall
    run(world, 10)
    world.fire("player", (900.0, 0.0, 50.0))
    run(world, 10)
    assert chars.alertness("guard") == "alerted"
    assert chars.minds["guard"].last_known[0] == 900.0
    run(world, 30)
    assert chars.minds["guard"].activity == "investigating"
    assert world.characters["guard"].x > 320  # on its way toward the shot


def test_silenced_gunfire_carries_a_quarter_as_far():
    world, chars = make("characters_watch")
    world.teleport("player", 900, 150)  # about 640 units away; a quarter of 1200 is 300
    world.equip("player", "quiet_gun")
    world.characters["guard"].facing = 3.14159
    run(world, 10)
    world.fire("player", (900.0, 0.0, 50.0))
    run(world, 10)
    assert chars.alertness("guard") == "unaware"


def test_alertness_rises_then_decays_after_the_player_leaves():
    world, chars = make("characters_watch")
    world.teleport("player", 900, 520)
    run(world, 60)
    peak = chars.minds["guard"].rank
    assert peak >= 2
    world.teleport("player", 2300, 500)  # behind a door the guard may not open
    seen = []
    for _ in range(40):
        run(world, 30)
        seen.append(chars.alertness("guard"))
    assert seen[-1] == "unaware"
    assert "suspicious" in seen  # it calms down level by level, not all at once
    guard = world.characters["guard"]
    assert abs(guard.x - 300) < 40 and abs(guard.z - 300) < 40  # back at the post
