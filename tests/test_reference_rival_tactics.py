"""The reference agent's duel tactics in matches (40), on hand-made match views.

The opening hold beside the start room's way out, closing on a rival not yet shooting,
the stand after a walk before the first shot, the rival near the exit shot first, and no
fall-back for a medkit from a duel being won. Each view is the smallest the decision
turns on (the geometry of `duel_yard`: a hut whose way out is at x 500).
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference import ambush
from agents.reference.memory import Memory
from agents.reference.rivals import _duel, _focus, match_step

DUEL = {"player": "p1", "players": 2, "teammates": 0, "frags": 0, "exit": "North gate"}
HUT_DOOR = {"id": "w1", "to": "a2", "to_name": "Yard", "via": "opening", "door": None,
            "position": [500.0, 0.0, 125.0], "visited": False, "one_way": False,
            "other_storey": False, "distance": 280.0}
GATE = {**HUT_DOOR, "id": "w2", "to": "a4", "to_name": "North gate",
        "position": [1100.0, 0.0, 500.0]}


def _pistol() -> dict[str, Any]:
    return {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 16, "loaded": 8,
            "weapon": "pistol", "reloading": False}


def _rival(cid: str, at: tuple[float, float], me: tuple[float, float], *,
           health: float = 1.0, friendly: bool = False) -> dict[str, Any]:
    return {"id": cid, "kind": "player", "position": [at[0], 0.0, at[1]], "area": "a2",
            "health": health, "down": False, "alertness": "unknown", "armed": True,
            "weapon": "pistol", "friendly": friendly, "seen": "now", "seen_tick": 0,
            "distance": math.hypot(at[0] - me[0], at[1] - me[1])}


def _memory(at: tuple[float, float], *, time_s: float = 0.0, area: str = "a1",
            ways: tuple[dict[str, Any], ...] = (HUT_DOOR,), health: float = 1.0,
            characters: tuple[dict[str, Any], ...] = (), objects: tuple[dict, ...] = (),
            last: dict[str, Any] | None = None) -> Memory:
    player = {"position": [at[0], 0.0, at[1]], "health": health, "armour": 0.0,
              "in_hand": "o1", "carried": [_pistol()], "keys": []}
    view = {"player": player, "objectives": [], "characters": list(characters),
            "objects": list(objects), "doors": [], "hazards": [], "exit": None,
            "area": {"id": area, "name": "Hut", "storey": "ground", "ways_out": list(ways)}}
    mem = Memory()
    mem.update({"turn": 1, "time_s": time_s, "view": view, "last_result": last,
                "error": None})
    return mem


def _walked(distance: float, why: str = "arrived") -> dict[str, Any]:
    return {"action": "go_to_area", "end_reason": why, "distance_moved": distance,
            "ticks": 20, "changes": [], "detail": ""}


def test_the_opening_steps_beside_the_way_out_then_holds_there() -> None:
    mem = _memory((250.0, 250.0))
    action, args, _ = match_step(mem, DUEL)
    # Out of the line through the doorway: a step back from its wall (x 500) and along
    # it, on the side toward the room's middle. Before, the player walked straight out.
    assert action == "go_to"
    assert (args["x"], args["z"]) == (500.0 - ambush.BACK, 125.0 + ambush.ALONG)
    there = _memory((args["x"], args["z"]), time_s=0.5)
    there.opening_spot = mem.opening_spot
    action, args, _ = match_step(there, DUEL)
    assert action == "wait" and args["seconds"] <= ambush.LOOK_S
    # The hold is over after a moment: the player goes out.
    late = _memory((400.0, 275.0), time_s=ambush.OPENING_S)
    assert ambush.lie_in_wait(late, []) is None


def test_no_opening_hold_in_a_cooperative_match_or_with_a_rival_near() -> None:
    together = {**DUEL, "teammates": 1}
    step = match_step(_memory((250.0, 250.0)), together)
    assert step is None or not step[2].startswith("opening")
    near = _rival("c1", (600.0, 200.0), (250.0, 250.0))
    assert ambush.lie_in_wait(_memory((250.0, 250.0), characters=(near,)), [near]) is None
    far = _rival("c1", (1950.0, 150.0), (250.0, 150.0))  # a coin toss at that range
    assert ambush.lie_in_wait(_memory((250.0, 150.0), characters=(far,)), [far]) is not None
    # A match with an objective to play (a zone to hold) races for it instead.
    zone = _memory((250.0, 250.0))
    zone.view["objectives"] = [{"kind": "hold_zone", "area": "a2"}]
    assert ambush.lie_in_wait(zone, []) is None


def test_a_rival_not_yet_shooting_is_closed_on_to_a_sure_range() -> None:
    me = (650.0, 1276.0)
    rival = _rival("c1", (1248.0, 1138.0), me)  # 613 away, walking off
    mem = _memory(me, area="a2", ways=(), characters=(rival,), last=_walked(150.0))
    mem.last_decision = ("go_to_area", {"exit_id": "w1"}, "")
    action, args, _ = ambush.close_in(mem, rival, None)
    assert action == "go_to" and (args["x"], args["z"]) == (1248.0, 1138.0)
    assert args["time_limit_s"] == ambush.CLOSE_LEG
    # Once shot at, no more walking into the fire; nor for a rival already within reach.
    hurt = _memory(me, area="a2", ways=(), characters=(rival,), health=0.75,
                   last=_walked(50.0, "damage"))
    assert ambush.close_in(hurt, rival, None) is None
    near = _rival("c1", (1100.0, 1200.0), me)
    assert ambush.close_in(mem, near, None) is None


def test_after_a_walk_the_player_stands_before_the_first_shot() -> None:
    me = (550.0, 141.0)
    rival = _rival("c1", (1410.0, 307.0), me)
    mem = _memory(me, area="a2", ways=(GATE,), characters=(rival,), last=_walked(200.0))
    mem.last_decision = ("go_to_area", {"exit_id": "w1"}, "")
    # Before, the attack fired at once as a walking shooter (twice the spread).
    action, args, _ = _duel(mem, [rival], GATE)
    assert (action, args["seconds"]) == ("wait", ambush.STEADY_S)
    mem.last_decision = ("wait", {"seconds": ambush.STEADY_S}, "")
    assert _duel(mem, [rival], GATE)[0] == "attack"


def test_a_rival_near_the_exit_next_door_is_shot_first() -> None:
    me = (550.0, 141.0)
    weak = _rival("c1", (1600.0, 150.0), me, health=0.5)
    runner = _rival("c2", (1300.0, 400.0), me)
    # Before, the weakest was chosen and the other walked out through the gate.
    assert _focus([weak, runner], GATE)["id"] == "c2"
    assert _focus([weak, runner])["id"] == "c1"


def test_a_duel_being_won_is_not_broken_off_for_a_medkit() -> None:
    me = (565.0, 133.0)
    rival = _rival("c1", (1000.0, 133.0), me, health=0.25)
    kit = {"id": "o2", "kind": "medkit", "name": "medkit", "position": [300.0, 0.0, 300.0],
           "area": "a1", "distance": 300.0, "objective": False, "state": None,
           "weapon": None}
    mem = _memory(me, area="a2", ways=(), characters=(rival,), objects=(kit,), health=0.5)
    # Before, at half health the player walked off to the medkit with the rival one hit
    # from down.
    assert _duel(mem, [rival], None)[0] == "attack"
    losing = {**rival, "health": 1.0}
    assert _duel(mem, [losing], None)[0] == "go_to_object"
    mate = _rival("c3", (600.0, 200.0), me, friendly=True)
    beside = _memory(me, area="a2", ways=(), characters=(losing, mate), objects=(kit,),
                     health=0.5)
    assert _duel(beside, [losing], None)[0] == "attack"


def test_in_an_escort_match_the_rivals_unarmed_escorted_player_is_shot_first() -> None:
    me = (250.0, 250.0)
    guard = _rival("c1", (700.0, 250.0), me)
    escorted = {**_rival("c2", (900.0, 300.0), me), "armed": False, "weapon": None}
    mem = _memory(me, area="a2", characters=(guard, escorted))
    mem.view["objectives"].append({"index": 1, "kind": "escort_player", "status": "todo",
                                   "counts": True, "text": "Escort", "area": None,
                                   "point": None, "targets": []})
    decision = match_step(mem, {**DUEL, "players": 4, "teammates": 1, "exit": None})
    assert decision is not None and decision[0] == "attack"
    assert decision[1]["character_id"] == "c2"
    mem.view["objectives"].clear()  # not an escort match: the armed guard comes first
    decision = match_step(mem, {**DUEL, "players": 4, "teammates": 1, "exit": None})
    assert decision is not None and decision[1].get("character_id") == "c1"
