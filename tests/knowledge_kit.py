"""Set-ups shared by the what-the-player-knows tests (test_knowledge*.py).

Each starts from a variant of `level_factory.knowledge_level` (start room "s", a shut
door east to the guard's room "mid", an opening on to "far", the north room "level").
"""

from __future__ import annotations

from typing import Any

from world.level.load import parse_level
from world.observe.session import WorldSession


def observation_of(view: dict[str, Any], last: dict[str, Any] | None = None) -> dict[str, Any]:
    """An observation around a view, as the text view renders it."""
    return {"view": view, "turn": 1, "tick": 0, "time_s": 0.0, "error": None, "warnings": [],
            "last_result": last, "budgets": {"decisions_left": 1, "game_seconds_left": 1.0,
                                             "episode_wall_s_left": 1.0,
                                             "decision_timeout_s": 1.0}}


def armed(data: dict[str, Any]) -> dict[str, Any]:
    """The level with the player starting with a pistol in hand."""
    data["objects"].append({"id": "gun", "kind": "weapon", "weapon": "pistol", "amount": 16})
    data["start"].update(inventory=["gun"], in_hand="gun")
    return data


def guard_seen_then_left_behind(data: dict[str, Any]) -> WorldSession:
    """A session on the level, floor plan briefed, where the guard was seen and is now not.

    The player sees the guard from inside the middle room, then is back in the start
    room behind the shut door, so the view lists the guard as seen before.
    """
    data["briefing"] = {"floor_plan": True}
    game = WorldSession(parse_level(data), "easy", 0)
    world = game.world
    world.teleport(world.player.id, 700.0, 300.0)
    world.step()
    game.view()
    world.teleport(world.player.id, 150.0, 300.0)
    world.step()
    assert next(c for c in game.view()["characters"])["seen"] == "before"
    return game
