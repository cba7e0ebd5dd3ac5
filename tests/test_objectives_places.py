from test_objectives_kit import entry, make, objective, status, tick, walk_to

from world.objectives.kinds_place import APPROACH_SHARE


def test_reach_area_partial_then_done():
    world, system = make([objective("a", "reach_area", area="store")])
    tick(world)
    assert entry(system, world, "a").progress == 0.0
    walk_to(world, 700, 300)
    part = entry(system, world, "a").progress
    assert 0.2 < part < 0.8
    assert status(system, world, "a") == "todo"
    world.teleport("player", 1900, 300)
    tick(world)
    report = system.report(world)
    assert report.objectives[0].status == "done" and report.objectives[0].progress == 1.0
    assert report.success and report.score == 1.0


def test_collect_item_approach_credit_then_done():
    world, system = make([objective("a", "collect_item", object="badge"),
                          objective("b", "reach_area", area="store")])
    tick(world)
    walk_to(world, 700, 300)
    part = entry(system, world, "a").progress
    assert 0.0 < part < APPROACH_SHARE
    world.teleport("player", 1180, 300)
    tick(world, 2)
    assert "badge" in world.player.inventory
    assert status(system, world, "a") == "done"


def test_use_object_counts_a_press_by_the_player():
    world, system = make([objective("a", "use_object", object="terminal"),
                          objective("b", "reach_area", area="vault")])
    world.teleport("player", 1950, 300)
    tick(world)
    assert status(system, world, "a") == "todo"
    world.use("player", "terminal")
    tick(world)
    assert status(system, world, "a") == "done"


def test_destroy_object_partial_by_damage_then_done():
    world, system = make([objective("a", "destroy_object", object="crate"),
                          objective("b", "reach_area", area="vault")])
    world.items.damage(world.objects["crate"], 0.25, "player")
    tick(world)
    assert entry(system, world, "a").progress == 0.5
    world.items.damage(world.objects["crate"], 0.25, "player")
    tick(world)
    assert status(system, world, "a") == "done"


def test_gadget_on_object_needs_the_named_gadget_kind():
    world, system = make([objective("a", "gadget_on_object", object="plans", gadget="camera"),
                          objective("b", "gadget_on_object", object="plans", gadget="device")])
    world.teleport("player", 1800, 180)
    world.use_item_on("player", "snapper", "plans")
    tick(world)
    assert status(system, world, "a") == "done"
    assert status(system, world, "b") == "todo"


def test_find_secrets_counts_secret_areas_entered():
    world, system = make([objective("a", "find_secrets", count=2)])
    world.teleport("player", 200, 800)
    tick(world)
    assert entry(system, world, "a").progress == 0.5
    assert status(system, world, "a") == "todo"
    world.teleport("player", 600, 800)
    tick(world)
    assert status(system, world, "a") == "done"


def test_waypoints_in_order_only():
    points = [{"area": "yard", "at": [400, 300]}, {"area": "hall", "at": [1200, 300]}]
    world, system = make([objective("a", "waypoints", points=points, radius=80)])
    world.teleport("player", 1200, 300)  # the second point first does not count
    tick(world)
    assert entry(system, world, "a").progress == 0.0
    world.teleport("player", 420, 300)
    tick(world)
    assert entry(system, world, "a").progress == 0.5
    world.teleport("player", 1190, 310)
    tick(world)
    assert status(system, world, "a") == "done"
