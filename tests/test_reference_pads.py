"""The reference agent's guns in a free-for-all: the best kind fetched, its spot revisited.

Hand-made observations folded into the agent's memory, so they run in milliseconds.
"""

from __future__ import annotations

from typing import Any

PISTOL = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 56, "loaded": 8,
          "weapon": "pistol"}
CANNON = {"id": "o2", "kind": "weapon", "name": "heavy cannon", "ammo": 0, "loaded": 15,
          "weapon": "heavy_cannon"}


def _gun(oid: str, weapon: str, x: float) -> dict[str, Any]:
    # A gun lying x units ahead of the player along x.
    return {"id": oid, "kind": "weapon", "name": weapon, "position": [x, 0.0, 0.0],
            "area": "a2", "distance": x, "objective": False, "state": None, "weapon": weapon,
            "facing_deg": None, "view_angle_deg": None, "view_range": None}


def _observation(objects: list[dict[str, Any]], time_s: float) -> dict[str, Any]:
    # A calm, healthy player in a1 with a full pistol and a heavy cannon's last rounds.
    player = {"position": [0.0, 0.0, 0.0], "health": 1.0, "armour": 0.0, "in_hand": "o2",
              "carried": [PISTOL, CANNON], "keys": [], "reloading": False}
    area = {"id": "a1", "name": "Room", "storey": "ground", "ways_out": [], "windows": []}
    view = {"player": player, "area": area, "objectives": [], "characters": [],
            "objects": objects, "doors": [], "hazards": [], "exit": None}
    return {"turn": int(time_s), "time_s": time_s, "view": view, "last_result": None,
            "error": None}


def test_a_cannon_with_its_last_rounds_does_not_keep_the_best_gun_far_off_unfetched() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    # A rifle across the map and a spray gun nearer: with the cannon spent in a fight or
    # two, the duels after it are the pistol's, so the best kind is fetched, however far.
    mem = Memory()
    mem.update(_observation([_gun("o7", "smg", 1200.0), _gun("o8", "rifle", 2000.0)], 1.0))
    step = fight.rearm_between_fights(mem, 700.0, 0.6)
    assert step is not None and step[0] == "go_to_object" and step[1] == {"object_id": "o8"}


def test_the_spot_of_a_better_gun_taken_is_walked_back_to_once_it_may_be_back() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    mem = Memory()
    mem.update(_observation([_gun("o8", "rifle", 2000.0)], 1.0))
    # Seen taken (its spot empty in the view): forgotten as a pickup, nothing to fetch yet.
    mem.update(_observation([], 5.0))
    assert "o8" not in mem.objects
    assert fight.rearm_between_fights(mem, 700.0, 0.6) is None
    # Gone long enough for an arena's pickups to come back: its spot is walked back to.
    mem.update(_observation([], 25.0))
    step = fight.rearm_between_fights(mem, 700.0, 0.6)
    assert step is not None and step[0] == "go_to" and step[1]["x"] == 2000.0
    assert "taken guns come back" in step[2]
    # A spray gun lying nearer does not put it off: the rifle's spot comes first.
    mem.update(_observation([_gun("o7", "smg", 500.0)], 26.0))
    step = fight.rearm_between_fights(mem, 700.0, 0.6)
    assert step is not None and step[0] == "go_to" and step[1]["x"] == 2000.0
