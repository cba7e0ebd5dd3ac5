"""Hazards that kill or drain, and countdowns that end the world."""


import pytest

from tests.shared import local
from world.errors import UnknownIdError
from world.sim import PlayerIntent, World


def test_lava_kills_on_entry():
    world = World(local("sim_rooms.json"), "easy", seed=1)
    world.teleport("player", 300, -500)
    for _ in range(30):
        world.step(PlayerIntent(move_to=(100, -500)))
    assert not world.player.alive and world.ended == "player_dead"
    kinds = [(e.kind, e.subject, e.other) for e in world.events]
    assert ("hazard_entered", "player", "lava") in kinds
    assert ("actor_down", "player", "lava") in kinds


def test_acid_drains_health_and_armour_does_not_help():
    world = World(local("sim_rooms.json"), "easy", seed=1)
    world.player.armour = 0.5
    world.teleport("player", 1100, -500)
    for _ in range(30):
        world.step()
    assert world.player.health == pytest.approx(0.5, abs=1e-9)
    assert world.player.armour == 0.5
    entered = [e for e in world.events if e.kind == "hazard_entered"]
    assert [(e.subject, e.other) for e in entered] == [("player", "acid")]


def test_countdown_started_by_objectives_expires_and_ends_the_world():
    world = World(local("sim_rooms.json"), "easy", seed=1)
    assert world.hazards.countdowns["bomb"].started is None
    with pytest.raises(UnknownIdError, match="bomb"):
        world.start_countdown("bombe")
    world.start_countdown("bomb")
    assert world.events[-1].kind == "countdown_started"
    for _ in range(59):
        world.step()
    assert world.ended is None
    world.step()
    assert world.ended == "countdown_expired"
    assert [e.kind for e in world.events][-2:] == ["countdown_expired", "episode_ended"]


def test_countdown_running_from_the_start():
    world = World(local("sim_stairs.json"), "normal", seed=1)
    assert world.hazards.countdowns["fuse"].remaining_s(world.tick) == 1.5
    for _ in range(45):
        world.step()
    assert world.ended == "countdown_expired"
