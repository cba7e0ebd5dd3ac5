"""Fighting and hand actions: attack, shoot_object, return fire, equip, items, use."""

import json

import pytest

from world.actions.catalog import catalog
from world.actions.registry import EXECUTORS, execute
from world.errors import InvalidRequestError, UnknownIdError


def shots_by(events, shooter):
    return [e.other for e in events if e.kind == "shot_fired" and e.subject == shooter]


def test_registry_covers_exactly_the_catalogue():
    assert set(EXECUTORS) == set(catalog().action_names)


def test_attack_on_a_friendly_is_refused_and_nothing_runs(world):
    result = execute(world, "attack", {"character_id": "friend"})
    assert result.end_reason == "refused"
    assert "friendly" in result.detail
    assert result.ticks == 0 and world.tick == 0


def test_attack_without_a_weapon_is_refused_with_a_reason(world):
    world.equip("player", "snapper")
    result = execute(world, "attack", {"character_id": "guard"})
    assert result.end_reason == "refused" and "no weapon" in result.detail


def test_attack_closes_in_through_a_door_and_downs_the_target(world):
    result = execute(world, "attack", {"character_id": "guard"})
    assert result.end_reason == "arrived"
    assert not world.characters["guard"].alive
    assert set(shots_by(result.events, "player")) == {"guard"}
    assert any(e.kind == "door_opening" for e in result.events)


def test_attack_runs_out_of_ammo(world):
    world.player.magazine["pistol"] = 1
    world.player.ammo["pistol"] = 0
    world.teleport("player", 1000, 150)
    result = execute(world, "attack", {"character_id": "guard"})
    assert result.end_reason == "out_of_ammo"


def _under_fire(world):
    """The player in sight of the guard, who shoots at it every ten ticks."""
    world.teleport("player", 1000, 190)
    world.doors["wood_door"].state = "open"

    class Shooter:
        def update(self, w):
            if w.characters["guard"].alive and w.tick % 10 == 0:
                w.fire("guard", "player")

    world.add_system("guard_fires", Shooter(), 50)


def test_a_player_under_fire_shoots_back_only_when_its_action_asks(world):
    # The reflex rule (PROTOCOL.md, "What the player does by reflex"): a plain wait
    # never fires, whoever attacks; asked with return_fire, the same wait answers.
    _under_fire(world)
    world.player.health = world.player.max_health = 10_000.0
    standing = execute(world, "wait", {"seconds": 3})
    assert shots_by(standing.events, "player") == []
    assert not any(e.kind == "fired_back" for e in standing.events)
    assert world.characters["guard"].alive
    asked = execute(world, "wait", {"seconds": 3, "return_fire": True})
    assert set(shots_by(asked.events, "player")) == {"guard"}


def test_return_fire_spares_a_friendly_standing_next_to_a_hostile(world):
    _under_fire(world)
    fired = []
    for _ in range(30):
        result = execute(world, "wait", {"seconds": 2, "return_fire": True})
        fired += shots_by(result.events, "player")
        if not world.characters["guard"].alive or result.end_reason == "dead":
            break
    assert fired and set(fired) == {"guard"}
    assert world.characters["friend"].health == world.characters["friend"].max_health


def test_shoot_object_breaks_it(world):
    result = execute(world, "shoot_object", {"object_id": "crate"})
    assert result.end_reason == "arrived" and world.objects["crate"].broken


def test_shoot_object_with_no_line_of_fire_is_refused(world):
    world.teleport("player", 350, 1600)
    result = execute(world, "shoot_object", {"object_id": "crate"})
    assert result.end_reason == "refused" and result.ticks == 0


def test_equip_draws_an_item_and_rejects_one_not_carried(world):
    result = execute(world, "equip", {"item_id": "snapper"})
    assert result.end_reason == "arrived" and world.player.in_hand == "snapper"
    assert any(e.kind == "item_equipped" for e in result.events)
    with pytest.raises(InvalidRequestError):
        execute(world, "equip", {"item_id": "red_key"})
    with pytest.raises(UnknownIdError):
        execute(world, "equip", {"item_id": "nothing_like_it"})


def test_use_item_on_walks_up_and_uses_the_gadget_once(world):
    result = execute(world, "use_item_on", {"item_id": "snapper", "object_id": "terminal"})
    assert result.end_reason == "arrived"
    assert [e.kind for e in result.events].count("gadget_used") == 1
    assert "photographed" in world.objects["terminal"].marks


def test_turn_and_use_presses_what_is_within_reach_that_way(world):
    world.teleport("player", 100, 420)
    result = execute(world, "turn_and_use", {"x": 100, "z": 600})
    assert result.end_reason == "arrived" and result.ticks == 1
    assert world.objects["terminal"].uses == 1
    nothing = execute(world, "turn_and_use", {"x": 100, "z": 0})
    assert nothing.end_reason == "arrived" and "nothing" in nothing.detail


def test_results_are_plain_json(world):
    result = execute(world, "go_to", {"x": 1200, "z": 400, "use_on_way": True})
    data = json.loads(json.dumps(result.to_dict()))
    assert data["end_reason"] == "arrived" and data["events"]
