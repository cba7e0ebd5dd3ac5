"""What a hostile agent found by naming things it never saw: each answer names only known ids."""

from __future__ import annotations

import pytest

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
