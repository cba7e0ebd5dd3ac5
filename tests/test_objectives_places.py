from test_objectives_kit import entry, make, objective, status, tick, walk_to

from world.objectives import route
from world.objectives.base import position
from world.objectives.kinds_place import APPROACH_SHARE
from world.objectives.route import area_anchor, object_point


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


def test_route_lengths_snap_each_point_once_and_stay_exact():
    world, system = make([objective("a", "collect_item", object="badge"),
                          objective("b", "reach_area", area="store")])
    tick(world)
    walk_to(world, 700, 300)
    paths = world.paths
    real = paths.nearest_reachable
    asked: list[tuple] = []

    def counting(point, *args, **kwargs):
        asked.append(tuple(point))
        return real(point, *args, **kwargs)

    paths.nearest_reachable = counting
    # The stages figure's meters snapped the goals already while judging: start afresh.
    route._SNAPS.clear()
    route._LENGTHS.clear()
    system.report(world)  # both meters share the origin and the player's position
    assert len(asked) == len(set(asked)) == 4
    world.teleport("player", 650, 320)
    tick(world)
    asked.clear()
    got = {o.id: o.progress for o in system.report(world).objectives}
    assert asked == [position(world.player)]
    # The same figures as snapping afresh: the cache changes cost, not results.
    reach = 4.0 * world.level.navmesh.agent_radius
    for oid, goal, share in (("a", object_point(world.level, "badge"), APPROACH_SHARE),
                             ("b", area_anchor(world.level, "store"), 1.0)):
        meter = next(s.verifier.meter for s in system.states.values() if s.objective.id == oid)
        here = real(position(world.player), max_distance=reach)[0]
        there = real(goal, max_distance=reach)[0]
        start = real(meter.origin, max_distance=reach)[0]
        fresh = 1.0 - paths.length(here, there) / paths.length(start, there)
        assert got[oid] == share * max(0.0, min(1.0, fresh))


def test_a_route_surely_no_shorter_than_the_first_is_not_searched_and_changes_nothing(
        monkeypatch) -> None:
    # From far enough (the straight line, less both snaps, already longer than the first
    # route) the progress clamps to 0 whatever the route: it is answered without a search,
    # and equals what the search gives, at every point of a grid over the floor.
    world, system = make([objective("a", "reach_area", area="nook_a")])
    tick(world)
    meter = next(s.verifier.meter for s in system.states.values())
    searched: list[tuple] = []
    real = route.path_length

    def counting(world_, start, goal):
        searched.append(start)
        return real(world_, start, goal)

    monkeypatch.setattr(route, "path_length", counting)
    points = [(float(x), 0.0, float(z)) for x in range(50, 2200, 150) for z in range(50, 600, 110)]
    quick = [meter.progress(world, p) for p in points]
    skipped = len(points) - len(searched)
    monkeypatch.setattr(route.RouteMeter, "_no_closer", lambda *_args: False)
    assert [meter.progress(world, p) for p in points] == quick
    assert skipped > len(points) // 3 and any(0.0 < q < 1.0 for q in quick)
