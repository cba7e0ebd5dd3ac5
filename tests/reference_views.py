"""Hand-made observations for the reference agent's decision tests.

The smallest views the agent's memory folds in, in the protocol's structured shape, so a
test states only what its decision turns on.
"""

from __future__ import annotations

from typing import Any


def observation(objects: list[dict], objectives: list[dict] | None = None,
                carried: list[dict] | None = None) -> dict:
    """A player in area a1 seeing `objects`, with these objectives and carried items."""
    player = {"position": [0.0, 0.0, 0.0], "health": 1.0, "armour": 0.0, "in_hand": None,
              "carried": carried or [], "keys": []}
    area = {"id": "a1", "name": "Room", "storey": "ground", "ways_out": []}
    view = {"player": player, "area": area, "objectives": objectives or [], "characters": [],
            "objects": objects, "doors": [], "hazards": [], "exit": None}
    return {"turn": 1, "time_s": 1.0, "view": view, "last_result": None, "error": None}


def thing(oid: str, kind: str, distance: float, *, objective: bool = False,
          area: str = "a2") -> dict:
    """An object `distance` ahead of the player along x, in area `area`."""
    return {"id": oid, "kind": kind, "name": kind, "position": [distance, 0.0, 0.0],
            "area": area, "distance": distance, "objective": objective, "weapon": None}


def hostile(cid: str, distance: float, *, armed: bool, alertness: str = "in_combat",
            health: float = 0.66) -> dict:
    """A hostile soldier in sight `distance` ahead, with a pistol when `armed`."""
    return {"id": cid, "kind": "soldier", "position": [distance, 0.0, 0.0], "area": "a1",
            "health": health, "down": False, "alertness": alertness, "armed": armed,
            "weapon": "pistol" if armed else None, "friendly": False, "seen": "now",
            "distance": distance}


def pistol(ammo: int, loaded: int) -> dict:
    """The player's pistol, o1, with these rounds spare and loaded."""
    return {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": ammo, "loaded": loaded,
            "weapon": "pistol", "reloading": False}


# A way out of a1, already walked, 300 units behind the player.
WAY_BACK = {"id": "w1", "to": "a2", "to_name": "Hall", "via": "opening", "door": None,
            "position": [-300.0, 0.0, 0.0], "visited": True, "one_way": False,
            "other_storey": False, "distance": 300.0}


def fight_step(observation: dict) -> Any:
    """The agent's fight step for this observation, from a fresh memory."""
    from agents.reference import fight
    from agents.reference.memory import Memory

    mem = Memory()
    mem.update(observation)
    return fight.fight(mem, False)
