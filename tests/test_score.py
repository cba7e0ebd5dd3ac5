"""The score formula R = S + PARTIAL_SHARE (1 - S) P and the frags it refuses to count."""

import pytest
from test_objectives_kit import entry, make, objective, status, tick

from world.objectives.score import PARTIAL_SHARE
from world.sim import TICKS_PER_SECOND, PlayerIntent


def test_success_scores_one():
    world, system = make([objective("a", "reach_area", area="store")])
    world.teleport("player", 1900, 300)
    tick(world)
    report = system.report(world)
    assert report.success and report.score == 1.0


def test_failure_with_progress_scores_the_partial_share_of_it():
    world, system = make([objective("a", "use_object", object="terminal", weight=3),
                          objective("b", "destroy_object", object="crate", weight=1)])
    world.teleport("player", 1950, 300)
    world.use("player", "terminal")
    world.items.damage(world.objects["crate"], 0.25, "player")  # half its health
    tick(world)
    assert status(system, world, "a") == "done"
    crate = entry(system, world, "b").progress
    assert crate == pytest.approx(0.5)
    world.damage("player", 5, "guard_a")
    tick(world)
    report = system.report(world)
    assert report.outcome == "failed" and not report.success
    # P = (3 * 1 + 1 * 0.5) / 4; failing keeps the credit, times the partial share.
    assert report.score == pytest.approx(0.3 * 3.5 / 4)
    assert PARTIAL_SHARE == 0.3


def test_the_most_a_failure_can_score_is_the_partial_share():
    world, system = make([objective("a", "use_object", object="terminal"),
                          objective("b", "reach_area", area="vault")])
    world.teleport("player", 1950, 300)
    world.use("player", "terminal")
    tick(world)
    world.damage("player", 5, "guard_a")
    tick(world)
    assert system.report(world).score < PARTIAL_SHARE


def test_standing_conditions_alone_earn_nothing():
    world, system = make([objective("a", "use_object", object="terminal"),
                          objective("n", "no_alarm"),
                          objective("p", "protect", characters=["medic"]),
                          objective("u", "stay_unseen")])
    tick(world, 3 * TICKS_PER_SECOND)
    report = system.report(world)
    assert [o.status for o in report.objectives] == ["todo"] * 4
    assert entry(system, world, "a").progress == 0.0
    assert report.score == 0.0
    tick(world, 30 * TICKS_PER_SECOND)
    assert system.report(world).score == 0.0


def test_held_conditions_neither_add_nor_take_and_a_broken_one_takes():
    objectives = [objective("a", "use_object", object="terminal", weight=2),
                  objective("b", "destroy_object", object="crate", weight=2),
                  objective("n", "no_alarm")]
    world, system = make(objectives)
    world.teleport("player", 1950, 300)
    world.use("player", "terminal")
    tick(world)
    # Work A = (2 * 1 + 2 * 0) / 4 = 0.5; the held condition brings min(1, A) = 0.5.
    assert system.report(world).score == pytest.approx(0.3 * 0.5)
    world.items.set_alarm("alarm_box", True, "guard_a")
    tick(world)
    assert status(system, world, "n") == "failed"
    # Broken: it brings 0, P = (2 * 1 + 2 * 0 + 1 * 0) / 5.
    assert system.report(world).score == pytest.approx(0.3 * 2 / 5)


def test_survival_alone_earns_nothing_beside_work_but_is_the_work_when_alone():
    world, system = make([objective("s", "survive", seconds=10, weight=2),
                          objective("b", "destroy_object", object="crate")])
    tick(world, 5 * TICKS_PER_SECOND)
    assert entry(system, world, "s").progress == pytest.approx(0.5, abs=0.01)
    assert system.report(world).score == 0.0
    world.items.damage(world.objects["crate"], 0.125, "player")  # a quarter of its health
    tick(world)
    assert entry(system, world, "b").progress == pytest.approx(0.25)
    # A = 0.25 (the crate); survive brings min(0.5, A); P = (1 * 0.25 + 2 * 0.25) / 3.
    assert system.report(world).score == pytest.approx(0.3 * 0.25)

    world, system = make([objective("s", "survive", seconds=10)])
    tick(world, 5 * TICKS_PER_SECOND)
    assert system.report(world).score == pytest.approx(0.3 * 0.5, abs=0.01)


def _shoot_down(world, target: str, automatic: bool, limit: int = 30 * TICKS_PER_SECOND):
    for _ in range(limit):
        if not world.characters[target].alive:
            return
        world.step(PlayerIntent(fire_at=target, automatic=automatic))
    raise AssertionError(f"{target} still up after {limit} ticks of fire")


def test_return_fire_alone_scores_no_frags():
    world, system = make([objective("k", "frags", count=1)])
    _shoot_down(world, "courier", automatic=True)
    tick(world)
    kinds = [e.kind for e in world.events]
    assert "fired_back" in kinds and "actor_down" in kinds
    assert status(system, world, "k") == "todo"
    assert entry(system, world, "k").progress == 0.0
    assert system.report(world).score == 0.0

    world, system = make([objective("k", "frags", count=1)])
    _shoot_down(world, "courier", automatic=False)
    tick(world)
    assert "fired_back" not in [e.kind for e in world.events]
    assert status(system, world, "k") == "done" and system.report(world).score == 1.0


def test_an_aimed_last_shot_counts_after_return_fire_began_the_fight():
    world, system = make([objective("k", "frags", count=1)])
    world.step(PlayerIntent(fire_at="courier", automatic=True))
    assert world.characters["courier"].alive
    _shoot_down(world, "courier", automatic=False)
    tick(world)
    assert status(system, world, "k") == "done"
