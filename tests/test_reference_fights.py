"""The reference agent between and around fights: a hit from down after a kill, a hold.

Each test folds hand-made observations into the agent's memory and asks for its next
decision, so they run in milliseconds; whole episodes live in test_reference_agent.py.
"""

from __future__ import annotations

from typing import Any

PISTOL = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 24, "loaded": 8,
          "weapon": "pistol"}
MEDKIT = {"id": "o9", "kind": "medkit", "name": "medkit", "position": [600.0, 0.0, 0.0],
          "area": "a1", "distance": 600.0, "objective": False, "state": None, "weapon": None,
          "facing_deg": None, "view_angle_deg": None, "view_range": None}
KILL = ("attack", {"character_id": "c1"}, "fighting guard c1")


def _observation(health: float, loaded: int, objects: list[dict[str, Any]],
                 last: dict[str, Any] | None, reloading: bool = False) -> dict[str, Any]:
    # A player in area a1 beside a guard it has just put down.
    player = {"position": [0.0, 0.0, 0.0], "health": health, "armour": 0.0, "in_hand": "o1",
              "carried": [{**PISTOL, "loaded": loaded}], "keys": [], "reloading": reloading}
    area = {"id": "a1", "name": "Room", "storey": "ground", "ways_out": [], "windows": []}
    down = {"id": "c1", "kind": "guard", "position": [400.0, 0.0, 0.0], "area": "a1",
            "health": 0.0, "down": True, "alertness": "in_combat", "armed": True,
            "weapon": "pistol", "friendly": False, "seen": "now", "distance": 400.0}
    view = {"player": player, "area": area, "objectives": [], "characters": [down],
            "objects": objects, "doors": [], "hazards": [], "exit": None}
    return {"turn": 1, "time_s": 1.0, "view": view, "last_result": last, "error": None}


def _after_kill(objects: list[dict[str, Any]]) -> list[Any]:
    # The decisions right after a kill that left the player at 0.05 health with four
    # rounds of eight loaded: the top-up, then whatever comes once the reload runs.
    from agents.reference import brain

    player = brain.Brain()
    player.decide(_observation(1.0, 8, objects, None), {})  # a full magazine holds eight
    player.mem.last_decision = KILL
    killed = {"action": "attack", "end_reason": "arrived", "detail": "c1 is down.",
              "changes": [], "distance_moved": 0.0}
    first = player.decide(_observation(0.05, 4, objects, killed), {})
    reload = {"action": "equip", "end_reason": "arrived", "detail": "Reloading o1.",
              "changes": [], "distance_moved": 0.0}
    second = player.decide(_observation(0.05, 4, objects, reload, reloading=True), {})
    return [first, second]


def test_a_kill_that_left_the_player_a_hit_from_down_is_followed_by_a_medkit_not_a_hold() -> None:
    first, second = _after_kill([MEDKIT])
    assert first[0] == "equip" and "topping up" in first[2]
    assert second[0] == "go_to_object" and second[1] == {"object_id": "o9"}
    assert "healing before holding" in second[2]
    # With no medkit known, holding the ground is still the best left.
    first, second = _after_kill([])
    assert first[0] == "equip"
    assert second[0] == "wait" and "holding" in second[2]
