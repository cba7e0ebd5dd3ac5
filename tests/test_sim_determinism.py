"""Same level, difficulty, seed and intents give the same state hash in separate processes.

Run as a script (`python test_sim_determinism.py SEED TICKS`) it plays a scripted episode
and prints one hash per tick; the test runs it in a fresh interpreter with another string
hash seed and compares with the same episode played in the test's process.
"""

import os
import random
import subprocess
import sys
from pathlib import Path

# Run as a script this file is not under pytest: it finds the checkout and its level itself.
ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "outpost.json"


def play(seed: int, ticks: int) -> list[str]:
    from world.errors import InvalidRequestError
    from world.level.load import load_level
    from world.sim import PlayerIntent, World

    world = World(load_level(LEVEL), "hard", seed)
    script = random.Random(1234)  # the intents are fixed; only the world's seed varies
    hashes = []
    goal = (500.0, 400.0)
    guard = world.characters["hall_guard"]
    for tick in range(ticks):
        if tick % 45 == 0:
            goal = (script.uniform(60, 1740), script.uniform(60, 740))
            if guard.alive:
                guard.move_to = (script.uniform(1060, 1740), script.uniform(60, 740))
        fire = "hall_guard" if tick % 7 == 0 and guard.alive else None
        use = None
        if tick % 50 == 25 and world.within_reach(world.player, "yard_door"):
            use = "yard_door"
        try:
            world.step(PlayerIntent(move_to=goal, fire_at=fire, use=use))
        except InvalidRequestError:
            world.step(PlayerIntent(move_to=goal))
        hashes.append(world.state_hash())
    return hashes


def run_in_subprocess(seed: int, ticks: int) -> list[str]:
    # Another string hash seed than this process's (a fixed one, or a random one unless
    # PYTHONHASHSEED is set), so that nothing may hang on the order of a set of strings.
    hash_seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    out = subprocess.run(
        [sys.executable, __file__, str(seed), str(ticks)],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=120,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
    )
    return out.stdout.split()


def test_two_processes_agree_at_every_tick():
    first = play(7, 2000)
    second = run_in_subprocess(7, 2000)
    assert len(first) == 2000
    mismatch = next((i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b), None)
    assert mismatch is None, f"hashes differ first at tick {mismatch + 1}"


def test_a_different_seed_changes_the_outcome():
    assert play(7, 600)[-1] != play(8, 600)[-1]


class _Counter:
    """A system with state of its own: the ticks it has seen."""

    def __init__(self) -> None:
        self.ticks = 0

    def update(self, world) -> None:
        self.ticks += 1

    def state_items(self) -> tuple:
        return (self.ticks,)


def test_the_hash_covers_exactly_the_state_systems_hand_over(level):
    from world.sim import World

    def hash_after(register) -> str:
        world = World(level, "easy", 1)
        register(world)
        for _ in range(3):
            world.step()
        return world.state_hash()

    bare = hash_after(lambda w: None)
    # A system registered without its state leaves the hash as it was...
    assert hash_after(lambda w: w.add_system("count", _Counter(), 10)) == bare
    # ...and one that hands it over is covered by it, under its name.
    counter = _Counter()
    handed = hash_after(lambda w: w.add_system("count", counter, 10, counter.state_items))
    assert handed != bare
    world = World(level, "easy", 1)
    world.add_system("count", counter, 10, counter.state_items)
    assert [name for name, _ in world.system_states()] == ["count"]


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    for h in play(int(sys.argv[1]), int(sys.argv[2])):
        print(h)
