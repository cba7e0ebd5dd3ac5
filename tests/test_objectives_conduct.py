from test_objectives_kit import entry, make, objective, status, tick

from world.sim import TICKS_PER_SECOND


def test_survive_partial_then_done():
    world, system = make([objective("s", "survive", seconds=2)])
    tick(world, TICKS_PER_SECOND)
    assert 0.45 < entry(system, world, "s").progress < 0.55
    tick(world, TICKS_PER_SECOND + 1)
    report = system.report(world)
    assert report.objectives[0].status == "done" and report.success


def test_survive_fails_when_the_player_dies():
    world, system = make([objective("s", "survive", seconds=2)])
    tick(world, 10)
    world.damage("player", 5, "guard_a")
    tick(world)
    report = system.report(world)
    assert report.objectives[0].status == "failed"
    assert report.reason == "player_dead"
    assert report.score == 0.0


def test_stay_unseen_fails_on_a_sighting():
    world, system = make([objective("a", "reach_area", area="store"),
                          objective("u", "stay_unseen")])
    tick(world, 3)
    assert status(system, world, "u") == "todo"
    world.emit("player_spotted", "guard_a", "player", detail="sight")
    tick(world)
    assert status(system, world, "u") == "failed"
    assert system.report(world).reason == "objective_failed"


def test_stay_unseen_ignores_alarms_not_caused_by_the_player():
    world, system = make([objective("a", "reach_area", area="store"),
                          objective("u", "stay_unseen")])
    world.items.set_alarm("alarm_box", True, "guard_a")
    tick(world)
    assert status(system, world, "u") == "todo"


def test_no_alarm_fails_when_an_alarm_sounds():
    world, system = make([objective("a", "reach_area", area="store"),
                          objective("n", "no_alarm")])
    tick(world)
    world.items.set_alarm("alarm_box", True, "guard_a")
    tick(world)
    assert status(system, world, "n") == "failed"


def test_held_conditions_earn_only_what_the_rest_earned_and_are_done_on_success():
    world, system = make([objective("a", "reach_area", area="store"),
                          objective("n", "no_alarm")])
    tick(world)
    assert system.report(world).score == 0.0
    world.teleport("player", 1000, 300)
    tick(world)
    report = system.report(world)
    reach, held = report.objectives
    assert held.progress == reach.progress > 0
    world.teleport("player", 1900, 300)
    tick(world)
    report = system.report(world)
    assert report.success
    assert [o.status for o in report.objectives] == ["done", "done"]
