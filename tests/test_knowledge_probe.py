"""What a hostile agent found by naming things it never saw: each answer names only known ids."""

from __future__ import annotations

import pytest

from harness.episode.text_view import render_text_view
from tests.knowledge_kit import observation_of
from tests.level_factory import knowledge_level
from world.errors import UnknownIdError
from world.level.load import parse_level
from world.observe.session import WorldSession


def _briefed() -> WorldSession:
    data = knowledge_level()
    data["briefing"] = {"floor_plan": True}
    return WorldSession(parse_level(data), "easy", 0)


def test_a_floor_plan_makes_no_object_a_known_way_out():
    # A door named where an object is wanted is refused by the world with every object
    # listed; the list shown keeps only the known ones, and a floor plan knows the ways
    # out, not the key lying unseen in the far room.
    game = _briefed()
    view = game.view()
    door = view["doors"][0]["id"]
    key = game.ids.ep("object", "far_key")
    with pytest.raises(UnknownIdError) as caught:
        game.act("shoot_object", {"object_id": door})
    assert key not in caught.value.allowed and key not in str(caught.value)
    assert game.ids.ep("object", "medkit") in caught.value.allowed
    assert not game.knows("way", "far_key")


def test_a_shot_heard_tells_neither_who_fired_nor_the_side():
    data = knowledge_level()
    data["characters"][0]["kind"] = "boss"
    game = WorldSession(parse_level(data), "easy", 0)
    game.view()
    game.world.emit("shot_fired", "guard", game.world.player.id, 0.0, "pistol")
    row = game.view()["characters"][0]
    assert row["seen"] == "heard"
    assert row["kind"] == "unknown" and row["friendly"] is None
    assert "boss" not in str(game.view())


def _key_session(key_area: str, at: list[float]) -> WorldSession:
    # The key lies where asked, known from the start (briefed), and the guard is the
    # character that will pick it up.
    data = knowledge_level()
    data["objects"][1].update({"area": key_area, "at": at})
    data["briefing"] = {"objects": ["far_key"]}
    return WorldSession(parse_level(data), "easy", 0)


def test_a_key_taken_unseen_keeps_its_objective_point_where_it_lay():
    game = _key_session("far", [1700, 100])
    assert game.view()["objectives"][0]["point"] == [1700.0, 0.0, 100.0]
    world = game.world
    guard = world.characters["guard"]
    # The guard takes the key in the far room, out of the player's sight, and walks off.
    assert world.items.take(guard, world.objects["far_key"], auto=True)
    guard.x, guard.z = 1000.0, 550.0
    view = game.view()
    objective = view["objectives"][0]
    assert objective["point"] == [1700.0, 0.0, 100.0]
    assert objective["targets"] == [game.ids.ep("object", "far_key")]
    row = next(o for o in view["objects"] if o["kind"] == "key")
    assert row["position"] == [1700.0, 0.0, 100.0]
    text = render_text_view(observation_of(view))
    assert "1000" not in text and "550" not in text


def test_a_key_seen_taken_leaves_its_objective_without_a_point():
    # Taken in the room the player stands in: the spot is seen empty, so the objective
    # no longer points at it (where the key went is not known).
    game = _key_session("s", [500, 100])
    assert game.view()["objectives"][0]["point"] == [500.0, 0.0, 100.0]
    world = game.world
    assert world.items.take(world.characters["guard"], world.objects["far_key"], auto=True)
    objective = game.view()["objectives"][0]
    assert objective["point"] is None
    assert objective["located"] is True  # its id is still known: it names the key
