"""The stages figure: rooms reached and steps done count; waiting, pacing and harm do not."""

from test_objectives_kit import make, objective, tick, walk_to


def _figures(system, world) -> tuple[float, float]:
    report = system.report(world)
    return report.stages, report.score


def test_stages_count_rooms_reached_not_waiting_pacing_or_walking_back():
    # The store lies two rooms east of the yard the player starts in.
    world, system = make([objective("in_store", "reach_area", area="store"),
                          objective("badge", "collect_item", object="badge")])
    tick(world, 40)
    assert _figures(system, world)[0] == 0.0  # waiting reaches nothing
    walk_to(world, 700, 300)  # east across the yard: the score's route credit rises
    stages, score = _figures(system, world)
    assert stages == 0.0 and score > 0.0
    walk_to(world, 1000, 300)  # into the hall, toward the store and onto the badge's room
    reached, _ = _figures(system, world)
    assert reached > 0.0
    walk_to(world, 150, 300)  # back to the start: the score's route credit drops, stages not
    stages, score = _figures(system, world)
    assert stages == reached and score < 0.01


def test_stages_count_targets_down_not_harm_dealt():
    world, system = make([objective("down_guard", "neutralise", characters=["guard_a"]),
                          objective("in_store", "reach_area", area="store")])
    tick(world)
    guard = world.characters["guard_a"]
    guard.health = guard.max_health / 2
    tick(world)
    stages, score = _figures(system, world)
    assert stages == 0.0 and score > 0.0  # the score pays for the wound, stages do not
    guard.health = 0.0
    guard.alive = False
    tick(world)
    assert _figures(system, world)[0] == 0.5  # one of two stages done


def test_stages_are_one_on_success():
    world, system = make([objective("in_hall", "reach_area", area="hall")])
    walk_to(world, 1000, 300)
    tick(world)
    report = system.report(world)
    assert report.success and report.stages == 1.0
