"""The reference agent regroups after a noisy kill and fights one room at a time.

Hand-made observations are folded into the agent's memory, as in test_reference_duels.py;
the whole episodes that showed the need are generated maze levels at hard.
"""

from __future__ import annotations

import math
from typing import Any

PISTOL = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 24, "loaded": 8,
          "weapon": "pistol"}
BACK_WAY = {"id": "w1", "to": "a2", "to_name": "Hall", "via": "opening", "door": None,
            "position": [-300.0, 0.0, 0.0], "visited": True, "one_way": False,
            "other_storey": False, "distance": 300.0}
KILL = ("attack", {"character_id": "c1"}, "fighting guard c1")


def _observation(carried: list[dict[str, Any]], characters: list[dict[str, Any]] | None = None,
                 ways: list[dict[str, Any]] | None = None, time_s: float = 1.0,
                 health: float = 1.0, position: tuple[float, float, float] = (0.0, 0.0, 0.0),
                 last: dict[str, Any] | None = None,
                 doors: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    player = {"position": list(position), "health": health, "armour": 0.0, "in_hand": "o1",
              "carried": carried, "keys": [], "reloading": False}
    area = {"id": "a1", "name": "Room", "storey": "ground", "ways_out": ways or [],
            "windows": []}
    view = {"player": player, "area": area, "objectives": [], "characters": characters or [],
            "objects": [], "doors": doors or [], "hazards": [], "exit": None}
    return {"turn": int(time_s * 10), "time_s": time_s, "view": view, "last_result": last,
            "error": None}


def _guard(cid: str, x: float, z: float = 0.0, alertness: str = "in_combat",
           area: str = "a1", down: bool = False) -> dict[str, Any]:
    return {"id": cid, "kind": "guard", "position": [x, 0.0, z], "area": area,
            "health": 0.0 if down else 1.0, "down": down, "alertness": alertness,
            "armed": True, "weapon": "pistol", "friendly": False, "seen": "now",
            "distance": math.hypot(x, z)}


def _result(action: str, detail: str, moved: float = 0.0) -> dict[str, Any]:
    return {"action": action, "end_reason": "arrived", "detail": detail, "changes": [],
            "distance_moved": moved}


def test_after_a_kill_the_hurt_player_reloads_steps_out_of_sight_and_lets_the_next_come() -> None:
    from agents.reference import brain

    player = brain.Brain()
    player.decide(_observation([PISTOL]), {})  # a full magazine seen: it holds eight
    player.mem.last_decision = KILL
    down = _guard("c1", 400.0, down=True)
    half = [{**PISTOL, "loaded": 4}]
    step = player.decide(_observation(half, [down], [BACK_WAY], 2.0, 0.57,
                                      last=_result("attack", "c1 is down.")), {})
    assert step[0] == "equip" and "topping up" in step[2]
    # The reload runs on during the walk: back through the way already walked, well past
    # it, away from the fallen gunman, holding fire (shots would show where it went).
    reloading = _observation(half, [down], [BACK_WAY], 2.1, 0.57,
                             last=_result("equip", "Reloading o1."))
    reloading["view"]["player"]["reloading"] = True
    step = player.decide(reloading, {})
    assert step[0] == "go_to" and "out of sight" in step[2]
    assert step[1]["x"] < -300.0 and step[1]["fire_on_way"] is False
    # Out of sight: short looks, each one a chance to see whoever comes first.
    there = (-600.0, 0.0, 0.0)
    step = player.decide(_observation([PISTOL], [], [], 3.5, 0.57, there,
                                      _result("go_to", "Arrived at the target.", 600.0)), {})
    assert step == ("wait", {"seconds": 1.0}, "holding out of sight for whoever heard the shots")
    # A guard searching far off is let come rather than walked out to.
    far = _guard("c2", 1300.0, alertness="alerted")
    step = player.decide(_observation([PISTOL], [far], [], 4.5, 0.57, there,
                                      _result("wait", "Waited 1 s.")), {})
    assert step[0] == "wait" and "letting c2 come" in step[2]
    # Once he fights (or comes near), the hold is over: the fight decides.
    step = player.decide(_observation([PISTOL], [{**far, "alertness": "in_combat"}], [], 5.5,
                                      0.57, there, _result("wait", "Waited 1 s.")), {})
    assert step[0] != "wait" and "holding" not in step[2]
    # Unhurt, nothing calls for the hold: no walk out of sight after the reload.
    player = brain.Brain()
    player.decide(_observation([PISTOL]), {})
    player.mem.last_decision = KILL
    assert player.decide(_observation(half, [down], [BACK_WAY], 2.0, 1.0,
                                      last=_result("attack", "c1 is down.")), {})[0] == "equip"
    assert "out of sight" not in player.decide(reloading | {"view": {
        **reloading["view"], "player": {**reloading["view"]["player"], "health": 1.0}}}, {})[2]


def test_with_no_way_back_near_the_player_hides_beside_the_doorway_the_shots_went_through() -> None:
    from agents.reference import regroup
    from agents.reference.memory import Memory

    # The player shot through a doorway (30 units off) into the next room, where c1 lay;
    # the way it came is far behind. The doorway's wall runs along x (the next room lies
    # in +z, the bearing to c1 slightly slanted).
    doorway = {"id": "w3", "to": "a7", "to_name": "Records", "via": "door", "door": "d8",
               "position": [0.0, 0.0, 30.0], "visited": False, "one_way": False,
               "other_storey": False, "distance": 30.0}
    far_back = {**BACK_WAY, "position": [0.0, 0.0, -1000.0], "distance": 1000.0}
    down = _guard("c1", -150.0, 300.0, area="a7", down=True)
    mem = Memory()
    mem.update(_observation([PISTOL], [down], [far_back, doorway], health=0.57,
                            last=_result("attack", "c1 is down.")))
    mem.last_decision = KILL
    step = regroup.step_out_of_sight(mem, False)
    assert step is not None and step[0] == "go_to" and "beside way w3" in step[2]
    # A step back from the doorway's wall and along it: out of the next room's view.
    assert step[1]["z"] == -120.0 and abs(step[1]["x"]) == 250.0
    assert step[1]["fire_on_way"] is False
    # While an alarm must not sound, no hold is called for.
    assert regroup.step_out_of_sight(mem, True) is None


def test_an_unaware_gunman_in_the_room_is_closed_in_on_before_a_door_is_opened() -> None:
    from agents.reference import regroup
    from agents.reference.memory import Memory

    door = {"id": "d5", "position": [0.0, 0.0, 500.0], "between": ["a1", "a3"],
            "state": "closed", "locked_from_this_side": False, "key": None, "key_area": None,
            "needs_key": False, "panel": None, "has_panel": False, "open_seconds": None,
            "one_way": False, "distance": 500.0}
    opening = ("go_to_object", {"object_id": "d5"}, "exploring Office (a3): opening d5")
    mem = Memory()
    mem.update(_observation([PISTOL], [_guard("c2", 900.0, alertness="unaware")],
                            doors=[door]))
    step = regroup.room_before_door(mem, opening, False)
    assert step[0] == "go_to" and "before opening a door" in step[2]
    assert math.isclose(step[1]["x"], 450.0) and step[1]["time_limit_s"] == 3.0
    assert "fire_on_way" not in step[1]  # near enough, the fight itself starts
    # A mission that asks for quiet leaves him alone; an open door wakes nobody new;
    # one in the next room is not this room's.
    assert regroup.room_before_door(mem, opening, True) == opening
    mem.update(_observation([PISTOL], [_guard("c2", 900.0, alertness="unaware")],
                            doors=[{**door, "state": "open"}]))
    assert regroup.room_before_door(mem, opening, False) == opening
    mem.update(_observation([PISTOL], [_guard("c2", 900.0, alertness="unaware", area="a3")],
                            doors=[door]))
    assert regroup.room_before_door(mem, opening, False) == opening
