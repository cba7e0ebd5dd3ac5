"""The reference agent's steps around a door that stopped a walk do not loop.

Facility records showed two loops that ran an episode out of time: a hurt player about
to open a door walked towards a medkit a storey above (near in a straight line, far by
the stairs) and back to the door, for ever; and a player looking for a locked door's key
walked back to the door to look around it again after every room it explored (and,
without those walks, looked for the key on other storeys first). Hard
records showed two more: a camera a storey below called the player away from a panel
door just opened, and legs toward a panel a storey up turned back and forth under it.
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


NO_ALARM = {"index": 1, "status": "todo", "counts": True, "kind": "no_alarm",
            "standing": True, "targets": [], "point": None, "text": "No alarm."}


def test_while_unseen_a_camera_on_another_storey_does_not_call_the_player_away() -> None:
    # Hard facility: a camera a storey below was walked toward as soon as a panel door
    # opened here, the door shut again meanwhile, and the panel was pressed again.
    from agents.reference.memory import Memory
    from agents.reference.stealth import _blind_camera
    from tests.reference_views import pistol

    def camera_at(height: float, distance: float) -> Any:
        camera = {"id": "o5", "kind": "camera", "name": "camera", "state": None,
                  "position": [distance, height, 0.0], "area": "a3", "distance": distance,
                  "objective": False, "weapon": None}
        mem = Memory()
        mem.update(_observation([camera], [NO_ALARM], [pistol(20, 8)]))
        return _blind_camera(mem)

    assert camera_at(0.0, 2000.0) is not None  # this storey: approached, then shot
    assert camera_at(-400.0, 2000.0) is None  # the storey below: met when reached


def test_a_way_out_is_scouted_a_few_times_only_while_nothing_new_is_visited() -> None:
    # Hard facility: legs toward a panel a storey up, by way of the next corridor section,
    # ended past the panel, from where the next leg headed back: for ever.
    from agents.reference.memory import Memory
    from agents.reference.moves import scout

    way = {"id": "w1", "to": "a2", "to_name": "Corridor", "via": "opening", "door": None,
           "position": [-900.0, 0.0, 0.0], "visited": False, "one_way": False,
           "other_storey": False, "distance": 900.0}
    observation = _observation([], [NO_ALARM])
    observation["view"]["area"].update(ways_out=[way], windows=[])
    mem = Memory()
    mem.update(observation)
    steps = [scout(mem, [-500.0, 400.0, 0.0], "to the panel") for _ in range(6)]
    assert steps[0] is not None and steps[0][1].get("exit_id") == "w1", steps
    assert steps[-1] is None, steps


def test_the_key_to_a_locked_door_is_looked_for_on_the_door_storey_first() -> None:
    # Facility: the hunt for the uplink key went to rooms a storey below (near in a
    # straight line, far by the stairs, full of other guards) before the director's office.
    from agents.reference.doors import open_way
    from agents.reference.memory import AreaNote, Memory

    door = {"id": "d1", "position": [100.0, 0.0, 0.0], "between": ["a1", "a2"],
            "state": "locked", "needs_key": True, "key": None, "key_area": None,
            "panel": None, "has_panel": False, "distance": 100.0}
    observation = _observation([])
    observation["view"]["doors"] = [door]
    mem = Memory()
    mem.update(observation)
    mem.blocking_door = "d1"

    def way(wid: str, to: str, x: float, y: float) -> dict:
        return {"id": wid, "to": to, "to_name": to, "via": "opening", "door": None,
                "position": [x, y, 0.0], "visited": False, "one_way": False,
                "other_storey": False, "distance": 0.0}

    mem.areas["a7"] = AreaNote("Lab", "labs", {"w7": way("w7", "a8", 0.0, 400.0)},
                               (300.0, 400.0, 0.0))
    mem.areas["a3"] = AreaNote("Hall", "ground", {"w3": way("w3", "a4", 1500.0, 0.0)},
                               (1300.0, 0.0, 0.0))
    mem.fail(("go_to_object", {"object_id": "d1"}, ""))  # looked around it already
    step = open_way(mem)
    assert step is not None and step[0] == "go_to" and step[1]["y"] == 0.0, step
    assert step[1]["x"] > 1000.0, step
