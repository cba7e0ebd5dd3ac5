"""Pickups, equipping, using objects and gadgets."""


import pytest

from world.errors import InvalidRequestError, UnknownIdError
from world.sim import World

LEVEL_FILE = "sim_rooms.json"  # the `level` and `world` fixtures' level (easy, seed 1)


def walk_onto(world: World, x: float, z: float) -> None:
    world.teleport("player", x - 30, z)
    world.step()


def test_start_inventory_and_weapon_in_hand(world):
    p = world.player
    assert p.inventory == ["sidearm", "spycam"]
    assert p.in_hand == "sidearm" and p.weapon == "pistol"
    assert p.magazine["pistol"] == 8 and p.ammo["pistol"] == 16


def test_weapon_pickup_adds_weapon_and_rounds(world):
    walk_onto(world, 900, 150)
    p = world.player
    assert "smg_pickup" in p.inventory
    assert p.magazine["smg"] == 30
    assert not world.objects["smg_pickup"].present
    assert p.in_hand == "sidearm"  # a new weapon does not snatch the hand


def test_ammo_pickup_and_respawn(world):
    walk_onto(world, 1100, 300)
    assert world.player.ammo["pistol"] == 32
    assert not world.objects["pistol_ammo"].present
    world.teleport("player", 100, 300)
    for _ in range(150):
        world.step()
    assert world.objects["pistol_ammo"].present
    assert any(e.kind == "item_respawned" for e in world.events)


def test_medkit_is_left_at_full_health_and_heals_when_hurt(world):
    walk_onto(world, 300, 450)
    assert world.objects["medkit"].present
    world.damage("player", 0.6)
    world.step()
    assert world.objects["medkit"].present is False
    assert world.player.health == pytest.approx(0.9)
    assert world.events[-1].kind == "healed"


def test_armour_pickup(world):
    walk_onto(world, 500, 450)
    assert world.player.armour == pytest.approx(0.5)


def test_key_goes_into_inventory(world):
    walk_onto(world, 700, 150)
    assert world.player.inventory[-1] == "blue_key"
    assert world.objects["blue_key"].holder == "player"


def test_equip(world):
    walk_onto(world, 900, 150)
    world.equip("player", "smg_pickup")
    assert world.player.in_hand == "smg_pickup" and world.player.weapon == "smg"
    world.equip("player", "spycam")
    assert world.player.weapon is None
    with pytest.raises(InvalidRequestError, match="blue_key"):
        world.equip("player", "blue_key")
    with pytest.raises(UnknownIdError, match="no object with id 'laser'"):
        world.equip("player", "laser")


def test_gadget_on_object_leaves_an_event_and_a_mark(world):
    world.teleport("player", 1100, 100)
    world.use_item_on("player", "spycam", "safe")
    event = world.events[-1]
    assert (event.kind, event.subject, event.other, event.detail) == (
        "gadget_used", "player", "safe", "camera")
    assert world.objects["safe"].marks == ["photographed"]


def test_using_a_computer_records_it(world):
    world.teleport("player", 1650, 300)
    world.use("player", "terminal")
    assert (world.events[-1].kind, world.events[-1].other) == ("object_used", "terminal")
    assert world.objects["terminal"].uses == 1


def test_breaking_a_padlock_unlocks_its_door(world):
    world.teleport("player", 200, 850)
    world.teleport("bob", 200, 1100)
    for _ in range(40):
        if not world.objects["padlock"].broken:
            world.fire("player", "padlock")
        world.step()
    assert world.objects["padlock"].broken
    assert world.doors["d_bars"].state == "closed"
    assert any(e.kind == "object_broken" and e.subject == "padlock" for e in world.events)
