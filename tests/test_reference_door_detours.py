"""The reference agent's steps around a door that stopped a walk do not loop.

Facility records showed two loops that ran an episode out of time: a hurt player about
to open a door walked towards a medkit a storey above (near in a straight line, far by
the stairs) and back to the door, for ever; and a player looking for a locked door's key
walked back to the door to look around it again after every room it explored.
"""

from __future__ import annotations

from typing import Any

from tests.reference_views import observation as _observation


def _hurt_by_guarded_door(kit_height: float) -> Any:
    from agents.reference.memory import Memory

    observation = _observation([{"id": "o9", "kind": "medkit", "name": "medkit",
                                 "position": [300.0, kit_height, 300.0], "area": "a3",
                                 "distance": 500.0, "objective": False, "weapon": None}])
    view = observation["view"]
    view["player"]["health"] = 0.5
    # A gunman seen a while ago 1000 units off, not after the player.
    view["characters"] = [{"id": "c1", "kind": "guard", "position": [1000.0, 0.0, 0.0],
                           "area": "a2", "health": 1.0, "down": False,
                           "alertness": "unknown", "armed": True, "weapon": "pistol",
                           "friendly": False, "seen": "before", "distance": 1000.0}]
    mem = Memory()
    mem.update(observation)
    return mem


def test_a_medkit_on_another_storey_is_no_detour_before_a_door() -> None:
    from agents.reference.doors import fresh_for_door

    assert fresh_for_door(_hurt_by_guarded_door(0.0)) is not None  # same storey: fetched
    assert fresh_for_door(_hurt_by_guarded_door(400.0)) is None  # the storey above: not


def test_a_locked_door_is_looked_around_once_not_after_every_room() -> None:
    from agents.reference.doors import open_way
    from agents.reference.memory import Memory

    door = {"id": "d1", "position": [100.0, 0.0, 0.0], "between": ["a1", "a2"],
            "state": "locked", "needs_key": True, "key": None, "key_area": None,
            "panel": None, "has_panel": False, "distance": 100.0}
    beside = _observation([])
    beside["view"]["doors"] = [door]
    mem = Memory()
    mem.update(beside)
    mem.blocking_door = "d1"
    open_way(mem)  # standing beside it: what lies around it is in view
    far = _observation([])
    far["view"]["player"]["position"] = [3000.0, 0.0, 0.0]
    far["view"]["doors"] = [{**door, "distance": 2900.0}]
    mem.update(far)
    mem.failures.clear()  # a new area visited since
    step = open_way(mem)
    assert step is None or step[1].get("object_id") != "d1", step
