"""Civilians flee gunfire; allies follow through doors; used scientists follow."""

import math

from test_characters_support import events, make, run

from world.characters import character_views


def test_civilian_flees_gunfire():
    world, chars = make("characters_escort")
    world.teleport("player", 900, 1300)
    civilian = world.characters["bystander"]
    start = math.dist(civilian.position, world.player.position)
    run(world, 5)
    world.fire("player", (900.0, 0.0, 1100.0))
    run(world, 90)
    assert chars.minds["bystander"].activity == "fleeing"
    assert math.dist(civilian.position, world.player.position) > start + 300
    assert chars.alertness("bystander") == "alerted"


def test_ally_follows_the_player_through_a_closed_door():
    world, chars = make("characters_escort")
    world.teleport("player", 1500, 500)  # beyond the closed door
    run(world, 30 * 8)
    ally = world.characters["ally"]
    assert ally.area == "east"
    assert math.hypot(ally.x - 1500, ally.z - 500) < 250
    opened = [e.other for e in events(world, "door_opening")]
    assert opened == ["ally"]  # it opened the door itself
    assert character_views(chars)["ally"].following


def test_scientist_follows_once_used():
    world, chars = make("characters_escort")
    doctor = world.characters["doctor"]
    world.teleport("player", 700, 800)
    run(world, 60)
    assert (round(doctor.x), round(doctor.z)) == (500, 200)
    assert not chars.following("doctor")
    world.teleport("player", 550, 260)
    world.use("player", "doctor")
    world.teleport("player", 700, 800)
    run(world, 90)
    assert chars.following("doctor")
    assert [e.subject for e in events(world, "character_followed")] == ["doctor"]
    assert math.hypot(doctor.x - 700, doctor.z - 800) < 250


def test_killing_a_friendly_is_recorded():
    world, _ = make("characters_escort")
    world.damage("doctor", 5.0, "player")
    run(world, 2)
    assert [(e.subject, e.other) for e in events(world, "friendly_killed")] == [
        ("doctor", "player")
    ]


def test_views_mark_friendly_and_armed():
    _, chars = make("characters_escort")
    views = character_views(chars)
    assert views["bystander"].friendly and not views["bystander"].armed
    assert views["doctor"].alertness == "unaware"
