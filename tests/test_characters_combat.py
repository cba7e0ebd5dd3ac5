"""Fights: difficulty makes them harder, one seed repeats them, bosses burst, bots frag."""

import itertools

from test_characters_support import events, make, run

from world.sim.world import PlayerIntent


def _duel(difficulty: str, seed: int, ticks: int = 300):
    """A scripted player who stands still and fires at the first guard still up."""
    world, _ = make("characters_duel", difficulty, seed)
    hashes = []
    for _ in range(ticks):
        target = next((c.id for c in world.characters.values() if c.alive), None)
        ready = world.player.alive and world.combat.readiness(world.player) == ""
        world.step(PlayerIntent(fire_at=target) if target and ready else None)
        hashes.append(world.state_hash())
    taken = sum(e.amount for e in events(world, "damage_taken") if e.subject == "player")
    return taken, hashes, world


def test_harder_difficulty_makes_the_same_fight_harder():
    easy = [_duel("easy", seed)[0] for seed in range(5)]
    hard = [_duel("hard", seed)[0] for seed in range(5)]
    assert sum(hard) > 3 * sum(easy)
    assert sum(h > e for h, e in zip(hard, easy, strict=True)) >= 4


def test_same_seed_gives_the_same_fight():
    _, first, world = _duel("hard", 3, 240)
    _, second, _ = _duel("hard", 3, 240)
    assert first == second
    assert events(world, "shot_hit")  # something actually happened
    _, other, _ = _duel("hard", 4, 240)
    assert other != first


def test_boss_fires_in_bursts():
    _, _, world = _duel("hard", 1, 300)
    shots = [e.tick for e in events(world, "shot_fired") if e.subject == "boss"]
    gaps = [b - a for a, b in itertools.pairwise(shots)]
    assert len(shots) >= 8
    assert max(gaps) >= 2 * min(gaps)  # quick shots, then a pause


def test_waves_arrive_on_schedule():
    world, chars = make("characters_duel", "easy")
    world.teleport("player", 100, 100)
    run(world, 30 * 19)
    assert not events(world, "character_spawned")
    run(world, 30 * 3)
    spawned = events(world, "character_spawned")
    assert [(e.subject, e.detail) for e in spawned] == [
        ("late_1", "door_left"), ("late_2", "door_right")]
    assert chars.alertness("late_1") != "unaware"


def test_arena_bots_fight_respawn_and_count_frags():
    world, chars = make("characters_arena", seed=2)
    run(world, 30 * 30)
    frags = events(world, "frag")
    assert frags
    assert all(e.subject.startswith("bot_") and e.other.startswith("bot_") for e in frags)
    assert events(world, "character_respawned")
    assert sum(chars.bots.frags.values()) == len(frags)
    assert world.player.alive  # locked in the booth, out of the fight
