"""Walks plan over the doors as the player last perceived them; characters and their
heights are remembered as last seen.

Each test plays a variant of `level_factory.knowledge_level` (start room "s", a door east
to the guard's room "mid", an opening on to "far", the north room "level").
"""

from __future__ import annotations

from typing import Any

from harness.episode.text_view import render_text_view
from tests.knowledge_kit import guard_seen_then_left_behind, observation_of
from tests.level_factory import knowledge_level
from world.actions.approach import out_of_reach
from world.level.load import parse_level
from world.observe.session import WorldSession
from world.sim.world import PlayerIntent


def _game(data: dict[str, Any]) -> WorldSession:
    data["briefing"] = {"floor_plan": True}
    return WorldSession(parse_level(data), "easy", 0)


def _door(game: WorldSession, view: dict[str, Any]) -> dict[str, Any]:
    door = game.ids.ep("door", "mid_door")
    return next(d for d in view["doors"] if d["id"] == door)


def _out_of_sight(game: WorldSession) -> None:
    # The north room's far corner: the door east of the start room is out of sight.
    world = game.world
    world.teleport(world.player.id, 100.0, -500.0)
    world.step()
    game.view()


def test_a_door_seen_open_and_shut_unseen_is_walked_to_and_found_shut():
    data = knowledge_level()
    data["exits"][0]["door"] = {"initial": "open"}
    game = _game(data)
    assert _door(game, game.view())["state"] == "open"
    _out_of_sight(game)
    world = game.world
    world.doors_system.trigger("mid_door", "toggle", "guard")
    game.act("wait", {"seconds": 2.0})
    assert world.doors["mid_door"].state == "closed"
    result = game.act("go_to", {"x": 900, "z": 300})
    # It walked toward the door it last saw open, and stopped once it saw it shut.
    assert result["end_reason"] == "door_closed" and result["ticks"] > 0
    assert result["door"]["door"] == game.ids.ep("door", "mid_door")
    assert result["door"]["state"] == "closed"
    assert result["distance_moved"] > 0
    assert _door(game, game.view())["state"] == "closed"


def test_a_door_opened_unseen_is_still_shut_to_the_plan():
    game = _game(knowledge_level())
    _out_of_sight(game)
    world = game.world
    world.doors_system.trigger("mid_door", "open", "guard")
    game.act("wait", {"seconds": 2.0})
    assert world.doors["mid_door"].state == "open"
    result = game.act("go_to", {"x": 900, "z": 300})
    assert result["end_reason"] == "door_closed" and result["ticks"] == 0
    assert result["door"]["state"] == "closed" and "use_on_way" in result["detail"]


def test_a_lock_without_a_key_mark_is_known_only_once_tried():
    data = knowledge_level()
    data["exits"][0]["door"] = {"initial": "locked"}
    game = _game(data)
    assert _door(game, game.view())["state"] == "closed"
    first = game.act("go_to", {"x": 900, "z": 300})
    assert first["end_reason"] == "door_closed" and first["door"]["state"] == "closed"
    assert "locked" not in first["detail"]
    tried = game.act("go_to", {"x": 900, "z": 300, "use_on_way": True})
    assert tried["end_reason"] == "door_closed" and tried["ticks"] > 0
    assert tried["door"]["state"] == "locked" and "locked" in tried["detail"]
    assert _door(game, game.view())["state"] == "locked"


def test_a_door_marked_for_a_key_shows_its_lock_on_sight():
    data = knowledge_level()
    data["exits"][0]["door"] = {"initial": "locked", "key": "far_key"}
    game = _game(data)
    assert _door(game, game.view())["state"] == "locked"


def _armed_guard() -> dict[str, Any]:
    data = knowledge_level()
    data["characters"][0]["weapon"] = "pistol"
    return data


def test_a_character_out_of_view_shows_the_weapon_it_was_seen_with():
    game = guard_seen_then_left_behind(_armed_guard())
    guard = game.world.characters["guard"]
    seen = next(c for c in game.view()["characters"])
    assert seen["seen"] == "before" and seen["weapon"] == "pistol" and seen["armed"]
    guard.weapon = "fists"  # dropped its gun behind the shut door
    again = next(c for c in game.view()["characters"])
    assert again["weapon"] == "pistol" and again["armed"]


def test_out_of_reach_gives_the_height_the_target_was_last_seen_at():
    game = guard_seen_then_left_behind(_armed_guard())
    game.world.characters["guard"].y = 400.0  # lifted unseen
    finish = out_of_reach(game.world, "guard")
    assert "400" not in finish.template and "above" not in finish.template
    assert finish.reason == "unreachable"


def test_the_player_sees_its_guns_counter_and_its_reload():
    data = knowledge_level()
    data["objects"].append({"id": "gun", "kind": "weapon", "weapon": "pistol", "amount": 16})
    data["start"].update(inventory=["gun"], in_hand="gun")
    game = _game(data)
    world, player = game.world, game.world.player
    gun = next(c for c in game.view()["player"]["carried"] if c["weapon"] == "pistol")
    assert (gun["loaded"], gun["ammo"]) == (8, 8)  # a pistol's magazine holds 8
    assert game.view()["player"]["reloading"] is False
    player.magazine["pistol"] = 1
    world.teleport(player.id, 700.0, 300.0)  # the guard in the open, a clear shot
    world.step()
    world.step(PlayerIntent(fire_at="guard"))
    view = game.view()
    assert view["player"]["reloading"] is True and view["player"]["carried"][0]["loaded"] == 0
    assert "reloading" in render_text_view(observation_of(view))
    world.damage("guard", 10.0)  # no return fire to start another reload
    game.act("wait", {"seconds": 1.5})
    view = game.view()
    assert view["player"]["reloading"] is False
    assert (view["player"]["carried"][0]["loaded"], view["player"]["carried"][0]["ammo"]) == (
        8, 0)
