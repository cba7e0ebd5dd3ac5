import pytest
from test_objectives_kit import entry, make, objective, status, tick, walk_to

from world.objectives.score import PARTIAL_SHARE


def _badge_then_exit():
    return make([objective("a", "collect_item", object="badge")], exit_area="vault")


def test_entering_the_exit_with_objectives_open_fails():
    world, system = _badge_then_exit()
    tick(world)
    world.teleport("player", 1200, 800)
    tick(world)
    report = system.report(world)
    assert report.outcome == "failed" and report.reason == "exit_with_objectives_open"
    assert world.ended == "exit_with_objectives_open"


def test_success_needs_the_exit_and_the_exit_is_part_of_the_score():
    world, system = _badge_then_exit()
    world.teleport("player", 1180, 300)
    tick(world, 2)
    report = system.report(world)
    assert status(system, world, "a") == "done"
    assert not report.success and report.goal == "exit"
    # The badge (1) and the exit not yet started (0), over two, at the partial share.
    assert report.score == pytest.approx(PARTIAL_SHARE * 0.5)
    world.teleport("player", 1100, 580)
    tick(world)
    nearer = system.report(world)
    assert nearer.score > report.score and nearer.progress > 0
    world.teleport("player", 1200, 800)
    tick(world)
    report = system.report(world)
    assert report.success and report.score == 1.0 and report.outcome == "completed"
    kinds = [e.kind for e in world.events]
    assert kinds.count("mission_ended") == 1 and "objective_changed" in kinds


def test_a_mission_still_running_has_no_outcome_and_keeps_partial_credit():
    world, system = make([objective("a", "reach_area", area="store")])
    tick(world)
    walk_to(world, 700, 300)
    report = system.report(world)
    assert report.outcome is None and report.failure_reason is None and not report.success
    assert 0 < report.score < PARTIAL_SHARE
    assert report.goal == "a" and 0 < report.progress < 1


def test_the_player_down_fails_the_mission():
    world, system = make([objective("a", "reach_area", area="store")])
    world.damage("player", 5, "guard_a")
    tick(world)
    report = system.report(world)
    assert report.outcome == "failed" and report.reason == "player_dead"


def test_the_world_ending_itself_is_judged_even_without_another_tick():
    world, system = make([objective("a", "reach_area", area="store")])
    tick(world)
    world.damage("player", 5, "guard_a")
    report = system.report(world)
    assert report.reason == "player_dead"


def test_same_tick_failure_wins_over_success():
    world, system = make([objective("a", "reach_area", area="store"),
                          objective("p", "protect", characters=["medic"])])
    world.teleport("player", 1900, 300)
    world.damage("medic", 5, "guard_a")
    tick(world)
    report = system.report(world)
    assert status(system, world, "a") == "done"
    assert report.outcome == "failed" and report.reason == "objective_failed"

    world, system = make([objective("a", "reach_area", area="store")])
    world.teleport("player", 1900, 300)
    world.damage("player", 5, "guard_a")
    tick(world)
    assert system.report(world).reason == "player_dead"


def test_objectives_count_only_from_their_difficulty():
    objectives = [objective("a", "reach_area", area="hall"),
                  objective("b", "use_object", object="terminal", min_difficulty="hard")]
    world, system = make(objectives, difficulty="normal")
    assert not entry(system, world, "b").counts
    world.teleport("player", 1000, 300)
    tick(world)
    assert system.report(world).success

    world, system = make(objectives, difficulty="hard")
    assert entry(system, world, "b").counts
    world.teleport("player", 1000, 300)
    tick(world)
    report = system.report(world)
    assert not report.success
    # Done reach (1) plus the approach credit of the terminal, over two.
    assert report.score == pytest.approx(
        PARTIAL_SHARE * (1 + entry(system, world, "b").progress) / 2)


def test_a_chain_done_out_of_order():
    world, system = make([
        objective("key", "collect_item", object="badge"),
        objective("crate", "destroy_object", object="crate", after=["key"]),
        objective("term", "use_object", object="terminal", after=["key"]),
    ])
    # The lasting deed (crate broken) and the one-off press both happen too early.
    world.items.damage(world.objects["crate"], 1, "player")
    world.teleport("player", 1950, 300)
    world.use("player", "terminal")
    tick(world)
    assert status(system, world, "crate") == "todo"
    assert status(system, world, "term") == "todo"
    world.teleport("player", 1180, 300)
    tick(world, 2)
    assert status(system, world, "key") == "done"
    assert status(system, world, "crate") == "done"
    assert status(system, world, "term") == "todo"  # a press before the key does not count
    world.teleport("player", 1950, 300)
    world.use("player", "terminal")
    tick(world)
    report = system.report(world)
    assert status(system, world, "term") == "done" and report.success


def test_a_predecessor_that_does_not_count_does_not_hold_back():
    world, system = make([
        objective("key", "collect_item", object="badge", min_difficulty="hard"),
        objective("hall", "reach_area", area="store", after=["key"]),
    ], difficulty="easy")
    world.teleport("player", 1900, 300)
    tick(world)
    assert system.report(world).success


def test_a_countdown_starts_when_its_objective_is_done_and_fails_the_mission():
    countdowns = [{"id": "escape", "seconds": 1, "starts_after": "a", "text": "Get out."}]
    world, system = make([objective("a", "collect_item", object="badge"),
                          objective("b", "destroy_object", object="crate")],
                         countdowns=countdowns)
    world.teleport("player", 1180, 300)
    tick(world, 2)
    assert any(e.kind == "countdown_started" for e in world.events)
    tick(world, 40)
    report = system.report(world)
    assert report.reason == "countdown_expired" and report.outcome == "failed"
    assert report.score == pytest.approx(PARTIAL_SHARE * 0.5)


def test_weighted_score_and_progress_goal():
    world, system = make([objective("a", "use_object", object="terminal", weight=3),
                          objective("b", "destroy_object", object="crate", weight=1)])
    tick(world)
    assert system.report(world).goal == "a"
    world.teleport("player", 1950, 300)
    world.use("player", "terminal")
    tick(world)
    report = system.report(world)
    assert report.goal == "b"
    assert report.score == pytest.approx(PARTIAL_SHARE * 0.75)
    world.items.damage(world.objects["crate"], 0.25, "player")
    tick(world)
    assert system.report(world).score == pytest.approx(PARTIAL_SHARE * (3 + 0.5) / 4)


def test_state_items_enter_the_world_hash():
    world, system = make([objective("a", "reach_area", area="store")])
    tick(world)
    before = world.state_hash()
    world.teleport("player", 1900, 300)
    tick(world)
    assert world.state_hash() != before
    assert system.state_items()[1][0] == "completed"


def test_report_by_world():
    from world.objectives import report

    world, system = make([objective("a", "reach_area", area="store")])
    tick(world)
    assert report(world) == system.report(world)
    assert report(world).as_dict()["objectives"][0]["id"] == "a"
