"""Cameras raise alarms; alarms bring reinforcements until switched off or broken."""

from test_characters_support import events, kinds, make, run


def test_camera_raises_the_alarm_and_reinforcements_arrive():
    world, chars = make("characters_alarm", "easy")
    run(world, 30 * 12)
    raised = events(world, "alarm_raised")
    assert [(e.subject, e.other) for e in raised] == [("siren", "cam")]
    spotted = events(world, "player_spotted")
    assert spotted[0].subject == "cam"
    arrivals = events(world, "reinforcement_spawned")
    assert len(arrivals) == 3  # the level's count at a multiplier of 1
    assert [e.detail for e in arrivals] == ["spawn_a", "spawn_b", "spawn_a"]
    assert all(e.subject in world.characters for e in arrivals)
    # Reinforcements arrive knowing where the trouble is.
    assert chars.alertness(arrivals[0].subject) in ("alerted", "in_combat")


def test_harder_difficulty_brings_more_reinforcements():
    world, _ = make("characters_alarm", "hard")
    run(world, 30 * 16)
    assert len(events(world, "reinforcement_spawned")) == 6


def test_reinforcements_stop_when_the_alarm_is_switched_off_at_a_panel():
    world, _ = make("characters_alarm", "easy")
    run(world, 30 * 4)
    before = len(events(world, "reinforcement_spawned"))
    assert events(world, "alarm_raised") and before >= 1
    world.teleport("player", 2000, 80)
    world.use("player", "siren_panel")
    mark = len(world.events)
    run(world, 30 * 10)
    assert kinds(world)["alarm_off"] == 1
    assert not events(world, "reinforcement_spawned", mark)


def test_alarm_shot_to_pieces_falls_silent():
    world, _ = make("characters_alarm", "hard")
    run(world, 30 * 4)
    world.items.damage(world.objects["siren"], 5.0, "player")
    mark = len(world.events)
    run(world, 30 * 10)
    assert [e.other for e in events(world, "alarm_off")] == ["player"]
    assert not events(world, "reinforcement_spawned", mark)


def test_a_broken_camera_sees_nothing():
    world, _ = make("characters_alarm", "easy")
    world.items.damage(world.objects["cam"], 1.0, "player")
    run(world, 30 * 10)
    assert not events(world, "alarm_raised")
    assert not events(world, "reinforcement_spawned")
