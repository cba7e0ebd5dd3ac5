

from world.objectives import install
from world.sim import World


def test_every_shipped_level_is_judged_from_the_start(shipped_level, shipped_level_id):
    level = shipped_level(shipped_level_id)
    for difficulty in level.difficulties:
        world = World(level, difficulty.id, seed=1)
        system = install(world)
        for _ in range(3):
            world.step()
        report = system.report(world)
        assert [o.id for o in report.objectives] == [o.id for o in level.objectives]
        assert 0.0 <= report.score < 1.0 and 0.0 <= report.progress <= 1.0
        assert report.outcome is None
