from test_objectives_kit import entry, make, objective, status, tick


def test_neutralise_listed_characters_partial_then_done():
    world, system = make([objective("a", "neutralise", characters=["guard_a", "guard_b"])])
    world.damage("guard_a", 0.5, "player")
    tick(world)
    assert entry(system, world, "a").progress == 0.25
    world.damage("guard_a", 5, "player")
    tick(world)
    assert entry(system, world, "a").progress == 0.5
    world.damage("guard_b", 5, "player")
    tick(world)
    assert status(system, world, "a") == "done"


def test_neutralise_zone_includes_hostiles_present_at_the_difficulty():
    world, system = make([objective("a", "neutralise", area="store")], difficulty="hard")
    world.damage("guard_b", 5, "player")
    tick(world)
    assert status(system, world, "a") == "todo"  # guard_c stands there at hard
    world.damage("guard_c", 5, "player")
    tick(world)
    assert status(system, world, "a") == "done"


def test_protect_fails_when_the_character_goes_down():
    world, system = make([objective("a", "reach_area", area="store"),
                          objective("p", "protect", characters=["medic"])])
    tick(world)
    assert status(system, world, "p") == "todo"
    world.damage("medic", 5, "guard_a")
    tick(world)
    report = system.report(world)
    assert status(system, world, "p") == "failed"
    assert report.outcome == "failed" and report.reason == "objective_failed"
    assert report.detail == "p"


def test_escort_partial_done_and_failed():
    world, system = make([objective("e", "escort", characters=["medic"], area="hall"),
                          objective("z", "reach_area", area="store")])
    world.teleport("medic", 700, 300)
    tick(world)
    assert 0.3 < entry(system, world, "e").progress < 1.0
    world.teleport("medic", 900, 300)
    tick(world)
    assert status(system, world, "e") == "done"

    world, system = make([objective("e", "escort", characters=["medic"], area="hall")])
    world.damage("medic", 5, "guard_a")
    tick(world)
    assert status(system, world, "e") == "failed"


def _follow(**fields):
    return make([objective("f", "follow", characters=["courier"], distance=300, grace_s=1,
                           **fields)])


def test_follow_done_when_the_courier_arrives_with_the_player_near():
    world, system = _follow()
    world.teleport("player", 600, 250)
    tick(world)
    world.teleport("courier", 1200, 300)
    world.teleport("player", 1100, 300)
    tick(world)
    assert status(system, world, "f") == "todo"
    assert 0.0 < entry(system, world, "f").progress < 1.0
    world.teleport("courier", 1200, 800)
    world.teleport("player", 1200, 550)
    tick(world)
    assert status(system, world, "f") == "done"


def test_follow_fails_after_the_grace_out_of_range():
    world, system = _follow()
    world.teleport("player", 600, 250)
    tick(world)
    world.teleport("courier", 1200, 300)
    tick(world)
    followed = entry(system, world, "f").progress
    world.teleport("courier", 1500, 300)
    tick(world, 25)
    assert status(system, world, "f") == "todo"
    assert entry(system, world, "f").progress == followed  # unfollowed walking earns nothing
    tick(world, 10)
    assert status(system, world, "f") == "failed"


def test_follow_fails_when_the_character_dies():
    world, system = _follow()
    world.teleport("player", 600, 250)
    world.damage("courier", 5, "guard_a")
    tick(world)
    assert status(system, world, "f") == "failed"


def test_intercept_done_partial_and_failed():
    world, system = make([objective("i", "intercept", characters=["courier"])])
    world.damage("courier", 0.5, "player")
    tick(world)
    assert entry(system, world, "i").progress == 0.5
    world.damage("courier", 5, "player")
    tick(world)
    assert status(system, world, "i") == "done"

    world, system = make([objective("i", "intercept", characters=["courier"])])
    world.teleport("courier", 1200, 800)
    tick(world)
    assert status(system, world, "i") == "failed"


def test_frags_first_to_the_count_wins():
    world, system = make([objective("k", "frags", count=2)])
    world.damage("guard_a", 5, "player")
    tick(world)
    assert entry(system, world, "k").progress == 0.5
    world.damage("guard_b", 5, "player")
    tick(world)
    assert status(system, world, "k") == "done"

    world, system = make([objective("k", "frags", count=1)])
    world.damage("guard_a", 5, "bot_one")
    tick(world)
    assert status(system, world, "k") == "failed"


def test_frags_same_tick_rival_wins_over_player():
    world, system = make([objective("k", "frags", count=1)])
    world.damage("guard_a", 5, "player")
    world.damage("guard_b", 5, "bot_one")
    tick(world)
    assert status(system, world, "k") == "failed"


def test_hazard_kills_are_not_frags():
    world, system = make([objective("k", "frags", count=1)])
    world.damage("guard_a", 5, "some_hazard")
    tick(world)
    assert status(system, world, "k") == "todo"
