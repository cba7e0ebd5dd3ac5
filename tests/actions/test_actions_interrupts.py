"""How actions end early or by the watchdog: stuck, damage, objective, stage, dead, cap."""



from world.actions import watch
from world.actions.registry import execute
from world.sim import events as sim_events


class Every:
    """A tiny test system: calls a function on the world every n ticks."""

    def __init__(self, n, fn):
        self.n, self.fn = n, fn

    def update(self, world):
        if world.tick % self.n == 0:
            self.fn(world)


def test_stuck_against_a_crowd_blocking_the_corridor(world, level):
    template = level.character("friend")
    spots = {}
    for row, z in enumerate((1000, 1042)):
        for i, x in enumerate((322, 350, 378)):
            spots[f"crowd_{row}_{i}"] = (x, z)
            world.spawn(f"crowd_{row}_{i}", template, x, z, "ground")

    class StandGround:
        # Characters holding their places: with no AI yet, put them back every tick.
        def update(self, w):
            for cid, (x, z) in spots.items():
                w.teleport(cid, x, z)

    world.add_system("crowd", StandGround(), 10)
    result = execute(world, "go_to", {"x": 350, "z": 1600})
    assert result.end_reason == "stuck"
    # The watchdog, not the time limit, ended it.
    assert result.ticks < result.time_limit_ticks
    assert world.player.z < 1100


def test_damage_interrupts_a_walk(world):
    world.add_system("hurt", Every(20, lambda w: w.damage("player", 0.05, "guard")), 50)
    result = execute(world, "go_to", {"x": 700, "z": 500})
    assert result.end_reason == "damage"
    assert result.ticks == 20
    assert any(e.kind == "damage_taken" and e.subject == "player" for e in result.events)


def test_death_ends_an_action(world):
    world.add_system("kill", Every(10, lambda w: w.damage("player", 5.0, "guard")), 50)
    result = execute(world, "wait", {"seconds": 5})
    assert result.end_reason == "dead" and result.ticks == 10


def test_stage_change_when_the_level_ends(world):
    world.add_system("end", Every(12, lambda w: w.end("test over")), 50)
    result = execute(world, "wait", {"seconds": 5})
    assert result.end_reason == "stage" and result.ticks == 12


def test_objective_change_interrupts(world, monkeypatch):
    # The objectives system declares its own kind; stand one in for the test.
    monkeypatch.setitem(sim_events.EVENT_KINDS, "objective_changed", "objective subject changed")
    world.add_system("obj", Every(7, lambda w: w.emit("objective_changed", "use_terminal")), 50)
    result = execute(world, "wait", {"seconds": 5})
    assert result.end_reason == "objective" and result.ticks == 7
    assert "objective_changed" in watch.event_groups()[1]


def test_finishing_the_job_beats_the_objective_it_completes(world, monkeypatch):
    monkeypatch.setitem(sim_events.EVENT_KINDS, "objective_changed", "objective subject changed")

    class Judge:
        def update(self, w):
            if w.objects["terminal"].uses == 1 and not getattr(self, "done", False):
                self.done = True
                w.emit("objective_changed", "use_terminal")

    world.add_system("judge", Judge(), 50)
    result = execute(world, "go_to_object", {"object_id": "terminal"})
    assert result.end_reason == "arrived"


def test_wait_runs_its_time_and_is_capped_at_45_seconds(world):
    assert execute(world, "wait", {"seconds": 2}).ticks == 60
    result = execute(world, "wait", {"seconds": 100})
    assert result.end_reason == "arrived" and result.capped
    assert result.ticks == 45 * 30


def test_explicit_walking_limit_is_capped(world):
    template = world.level.character("friend")
    for i, x in enumerate((322, 350, 378)):
        world.spawn(f"crowd_{i}", template, x, 1000, "ground")
    result = execute(world, "go_to", {"x": 700, "z": 500, "time_limit_s": 600})
    assert result.capped and result.time_limit_ticks == 45 * 30
