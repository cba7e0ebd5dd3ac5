"""The reference agent shoots first at a gunman its walk would otherwise wake up close.

Hand-made observations folded into the agent's memory, so they run in milliseconds.
"""

from __future__ import annotations

from typing import Any

PISTOL = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 24, "loaded": 8,
          "weapon": "pistol"}
CONSOLE = {"id": "o4", "kind": "console", "name": "console", "position": [1000.0, 0.0, 100.0],
           "area": "a2", "distance": 1005.0, "objective": True, "state": None, "weapon": None,
           "facing_deg": None, "view_angle_deg": None, "view_range": None}
WALK = ("go_to_object", {"object_id": "o4"}, "objective 1: use o4")


def _memory(guard_at: float, health: float = 1.0) -> Any:
    from agents.reference.memory import Memory

    guard = {"id": "c3", "kind": "guard", "position": [guard_at, 0.0, 0.0], "area": "a2",
             "health": 1.0, "down": False, "alertness": "unaware", "armed": True,
             "weapon": "pistol", "friendly": False, "seen": "now", "distance": guard_at}
    player = {"position": [0.0, 0.0, 0.0], "health": health, "armour": 0.0, "in_hand": "o1",
              "carried": [PISTOL], "keys": [], "reloading": False}
    view = {"player": player, "area": {"id": "a1", "name": "Hall", "storey": "ground",
                                       "ways_out": [], "windows": []},
            "objectives": [], "characters": [guard], "objects": [CONSOLE], "doors": [],
            "hazards": [], "exit": None}
    mem = Memory()
    mem.update({"turn": 1, "time_s": 1.0, "view": view, "last_result": None, "error": None})
    return mem


def test_a_walk_ending_beside_an_unaware_gunman_becomes_a_first_shot_from_afar() -> None:
    from agents.reference.firstshot import first_shot

    # The console stands beside the guard, 900 units off: walking there wakes him up
    # close, so the player opens fire from here, standing.
    step = first_shot(_memory(900.0), WALK, stealth=False)
    assert step[0] == "attack" and step[1]["character_id"] == "c3"
    # A guard far from where the walk ends is passed; so is any while quiet is asked.
    assert first_shot(_memory(900.0), ("go_to", {"x": -800.0, "z": 0.0}, "away"),
                      stealth=False)[0] == "go_to"
    assert first_shot(_memory(900.0), WALK, stealth=True) == WALK
    # Hurt, with no medkit known, the first shot is still better than the walk.
    assert first_shot(_memory(900.0, health=0.6), WALK, stealth=False)[0] == "attack"


def test_a_hurt_player_fetches_a_medkit_first_in_one_walk_and_only_once() -> None:
    from agents.reference.firstshot import first_shot

    mem = _memory(900.0, health=0.6)
    kit = {**CONSOLE, "id": "o9", "kind": "medkit", "name": "medkit", "objective": False,
           "position": [-400.0, 0.0, 0.0], "area": "a1", "distance": 400.0}
    mem.objects["o9"] = kit
    step = first_shot(mem, WALK, stealth=False)
    assert step[0] == "go_to_object" and step[1]["object_id"] == "o9"
    assert step[1]["time_limit_s"] == 45.0  # not cut into legs that end out of his sight
    # Back in his sight with the errand before the medkit was reached: the shot, not the
    # same medkit walk again (which swung the player between the two until time ran out).
    assert first_shot(mem, WALK, stealth=False)[0] == "attack"


def test_a_gunman_seen_unaware_by_the_walks_end_is_gone_back_for_from_where_he_was_seen() -> None:
    from agents.reference.firstshot import first_shot

    mem = _memory(900.0)  # seen from the origin, unaware, beside the console
    # The player has walked 600 units off (to a medkit, say); he is out of sight now.
    mem.view["player"]["position"] = [0.0, 0.0, -600.0]
    # Out of sight, the view tells his alertness no more: what it was when seen counts.
    guard = {**mem.view["characters"][0], "seen": "before", "seen_tick": 30,
             "distance": 1082.0, "alertness": "unknown"}
    mem.view["characters"] = [guard]
    mem.time_s = 8.0
    step = first_shot(mem, WALK, stealth=False)
    assert step[0] == "go_to" and (step[1]["x"], step[1]["z"]) == (0.0, 0.0)
    assert "to shoot first from there" in step[2] and step[1]["fire_on_way"] is False
    # Seen long ago, he may be anywhere: the errand goes on.
    mem.time_s = 60.0
    assert first_shot(mem, WALK, stealth=False) == WALK
    # A silenced pistol lands nearly every shot only within 450 units: a guard 1000 off
    # is no first shot of its, and the walk goes on.
    mem = _memory(1000.0)
    mem.view["player"]["carried"] = [{**PISTOL, "name": "silenced pistol",
                                      "weapon": "silenced_pistol"}]
    assert first_shot(mem, WALK, stealth=False) == WALK
