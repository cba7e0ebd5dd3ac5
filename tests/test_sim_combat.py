"""Shots, line of fire, accuracy rolls, armour and damage."""


import pytest

from tests.knowledge_kit import armed
from tests.level_factory import knowledge_level
from world.level.load import parse_level
from world.observe.session import WorldSession
from world.sim import World

LEVEL_FILE = "sim_rooms.json"  # the `level` and `world` fixtures' level (easy, seed 1)


def test_armour_absorbs_damage_before_health(world):
    world.player.armour = 0.5
    world.damage("player", 0.3)
    assert (world.player.armour, world.player.health) == pytest.approx((0.2, 1.0))
    world.damage("player", 0.5)
    assert (world.player.armour, world.player.health) == pytest.approx((0.0, 0.7))


def test_player_going_down_ends_the_world(world):
    world.damage("player", 2.0, source="elite")
    assert not world.player.alive and world.ended == "player_dead"
    assert [e.kind for e in world.events][-2:] == ["actor_down", "episode_ended"]


def test_wall_blocks_a_shot_but_a_window_does_not(world):
    world.teleport("player", 500, 100)
    result = world.fire("player", "dummy_wall")
    assert result.fired and not result.hit and result.reason == "blocked"
    world.teleport("player", 200, 100)
    for _ in range(12):
        world.step()
    result = world.fire("player", "dummy_window")
    assert result.hit
    assert world.characters["dummy_window"].health == pytest.approx(0.75)


def test_closed_door_blocks_a_shot_and_an_open_doorway_does_not(world):
    world.teleport("player", 200, 500)
    assert world.fire("player", "bob").reason == "blocked"
    world.use("player", "d_plain")
    for _ in range(15):
        world.step()
    assert world.fire("player", "bob").hit


def test_rate_of_fire_magazine_and_reload(world):
    world.teleport("player", 200, 100)
    world.characters["dummy_window"].health = 100.0
    assert world.fire("player", "dummy_window").fired
    assert world.fire("player", "dummy_window").reason == "cooldown"
    shots = 1
    while world.player.magazine["pistol"] > 0:
        for _ in range(12):
            world.step()
        assert world.fire("player", "dummy_window").fired
        shots += 1
    assert shots == 8
    assert world.events[-1].kind == "reload_started"
    for _ in range(12):
        world.step()
    assert world.fire("player", "dummy_window").reason == "reloading"
    for _ in range(30):
        world.step()
    assert world.fire("player", "dummy_window").fired
    assert world.player.magazine["pistol"] == 7 and world.player.ammo["pistol"] == 8


def test_enough_hits_take_an_actor_down(world):
    world.teleport("player", 200, 100)
    for _ in range(60):
        if world.characters["dummy_window"].alive:
            world.fire("player", "dummy_window")
        world.step()
    dummy = world.characters["dummy_window"]
    assert not dummy.alive and dummy.body is None
    assert any(e.kind == "actor_down" and e.subject == "dummy_window" for e in world.events)


def hit_pattern(level, seed: int) -> list[bool]:
    world = World(level, "easy", seed=seed)
    world.teleport("player", 1150, -300)  # about 970 units away: some shots miss
    world.characters["dummy_window"].health = 100.0
    pattern = []
    for _ in range(300):
        result = world.fire("player", "dummy_window")
        if result.fired:
            pattern.append(result.hit)
        world.step()
    return pattern


def test_hits_depend_on_the_seed_and_only_on_it(level):
    first = hit_pattern(level, 1)
    assert first == hit_pattern(level, 1)
    assert 0 < sum(first) < len(first)
    assert any(hit_pattern(level, s) != first for s in (2, 3))


def test_difficulty_scales_and_adds_characters(level):
    easy = World(level, "easy", seed=1)
    normal = World(level, "normal", seed=1)
    assert "elite" not in easy.characters
    assert normal.characters["elite"].health == pytest.approx(2.0)
    assert normal.characters["dummy_wall"].max_health == pytest.approx(2.0)
    assert normal.characters["bob"].health == pytest.approx(1.0)  # friendlies are not scaled


def test_a_reload_done_before_the_gun_is_put_away_stays_done(world):
    # The counter shows a reload whose time has come as done; putting the gun away (or
    # drawing it again) must not throw those rounds back out of the magazine.
    world.teleport("player", 200, 100)
    world.characters["dummy_window"].health = 100.0
    while world.player.magazine["pistol"] > 0:
        for _ in range(12):
            world.step()
        world.fire("player", "dummy_window")
    for _ in range(60):  # longer than the pistol's reload
        world.step()
    assert world.combat.counter(world.player, "pistol") == (8, 8, False)
    world.equip("player", world.player.in_hand)
    assert world.player.magazine["pistol"] == 8 and world.player.ammo["pistol"] == 8
    assert world.fire("player", "dummy_window").fired


def test_drawing_the_gun_in_hand_again_tops_up_its_magazine(world):
    # A player reloads between fights, not only when the magazine runs dry.
    world.teleport("player", 200, 100)
    world.characters["dummy_window"].health = 100.0
    for _ in range(3):
        for _ in range(12):
            world.step()
        world.fire("player", "dummy_window")
    assert world.combat.counter(world.player, "pistol") == (5, 16, False)
    world.equip("player", world.player.in_hand)
    assert world.combat.counter(world.player, "pistol") == (5, 16, True)
    assert world.fire("player", "dummy_window").reason == "reloading"
    for _ in range(60):  # longer than the pistol's reload
        world.step()
    assert world.combat.counter(world.player, "pistol") == (8, 13, False)
    assert world.fire("player", "dummy_window").fired
    # A full magazine: drawing it again starts nothing.
    for _ in range(12):
        world.step()
    world.player.magazine["pistol"] = 8
    world.equip("player", world.player.in_hand)
    assert world.combat.counter(world.player, "pistol") == (8, 13, False)


def test_equip_of_the_gun_in_hand_says_it_reloads_and_the_view_shows_it():
    game = WorldSession(parse_level(armed(knowledge_level())), "easy", 0)
    gun = game.ids.ep("object", "gun")
    game.world.player.magazine["pistol"] = 3
    before = game.view()["player"]
    assert not before["reloading"]
    result = game.act("equip", {"item_id": gun})
    assert result["detail"] == f"Reloading {gun}."
    after = game.view()["player"]
    assert after["reloading"] and after["in_hand"] == gun
    assert next(c for c in after["carried"] if c["id"] == gun)["loaded"] == 3
