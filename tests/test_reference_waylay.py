"""The reference agent cuts off an intercept's characters outside the room they head for.

Hand-made observations folded into the agent's memory, so they run in milliseconds.
"""

from __future__ import annotations

from typing import Any

# The room the courier heads for (a6, its middle at x 2600) has one way out, w5, on
# its west wall at x 2200, into the lane a2 he must come along.
HEADING = {"area": "a6", "name": "Quay", "position": [2600.0, 0.0, 400.0]}
WAY = {"id": "w5", "to": "a2", "to_name": "Mill lane", "via": "opening", "door": None,
       "position": [2200.0, 0.0, 400.0], "visited": True, "one_way": False,
       "other_storey": False}


def _observation(area: str, at: list[float], turn: int) -> dict[str, Any]:
    x, _, z = at
    way = {**WAY, "distance": abs(x - 2200.0)} if area == "a6" else {
        "id": "w9", "to": "a6", "to_name": "Quay", "via": "opening", "door": None,
        "position": [2200.0, 0.0, 400.0], "visited": True, "one_way": False,
        "other_storey": False, "distance": abs(x - 2200.0)}
    rifle = {"id": "o1", "kind": "weapon", "name": "rifle", "ammo": 30, "loaded": 30,
             "weapon": "rifle"}
    player = {"position": [x, 0.0, z], "health": 1.0, "armour": 0.0, "in_hand": "o1",
              "carried": [rifle], "keys": [], "reloading": False}
    objective = {"index": 1, "status": "todo", "counts": True, "kind": "intercept",
                 "text": "Stop the courier.", "area": None, "area_name": None,
                 "standing": False, "targets": [], "point": None, "heading_to": HEADING}
    view = {"player": player, "area": {"id": area, "name": area, "storey": "ground",
                                       "ways_out": [way], "windows": []},
            "objectives": [objective], "characters": [], "objects": [], "doors": [],
            "hazards": [], "exit": None}
    return {"turn": turn, "time_s": float(turn), "view": view, "last_result": None,
            "error": None}


def test_the_courier_is_waited_for_outside_the_room_he_heads_for() -> None:
    from agents.reference.brain import Brain

    player = Brain()
    # Standing in the room he heads for, nobody in sight: he would be stopped too late
    # here, so the player steps back out through its way in, a few steps into the lane.
    step = player.decide(_observation("a6", [2600.0, 0.0, 400.0], 1), {})
    assert step[0] == "go_to" and step[1]["x"] < 2200.0 and abs(step[1]["z"] - 400.0) < 1
    assert "waylaying outside Quay" in step[2]
    # There, it waits and looks, rather than walking back into the room.
    step_x = step[1]["x"]
    step = player.decide(_observation("a2", [step_x, 0.0, step[1]["z"]], 2), {})
    assert step[0] == "wait" and "waiting outside Quay" in step[2]
    # A dozen looks at most: one who does not come has turned aside, and the walk to his
    # room (the old way) takes over.
    for turn in range(3, 14):
        step = player.decide(_observation("a2", [step_x, 0.0, 400.0], turn), {})
        assert step[0] == "wait"
    step = player.decide(_observation("a2", [step_x, 0.0, 400.0], 14), {})
    assert step[0] != "wait"
