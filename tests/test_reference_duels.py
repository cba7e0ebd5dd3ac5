"""The reference agent's duels: begun with a full magazine, a gun in hand, one gunman at a time.

Each test folds hand-made observations into the agent's memory and asks for its next
decision, so they run in milliseconds; whole episodes live in test_reference_agent.py.
"""

from __future__ import annotations

from typing import Any

PISTOL = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 24, "loaded": 8,
          "weapon": "pistol"}
WAY = {"id": "w1", "to": "a2", "to_name": "Hall", "via": "opening", "door": None,
       "position": [-300.0, 0.0, 0.0], "visited": True, "one_way": False,
       "other_storey": False, "distance": 300.0}


def _observation(carried: list[dict[str, Any]], in_hand: str | None = "o1",
                 characters: list[dict[str, Any]] | None = None,
                 ways: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    # A player in area a1 with what it carries; nobody in sight unless given.
    player = {"position": [0.0, 0.0, 0.0], "health": 1.0, "armour": 0.0, "in_hand": in_hand,
              "carried": carried, "keys": [], "reloading": False}
    area = {"id": "a1", "name": "Room", "storey": "ground", "ways_out": ways or [],
            "windows": []}
    view = {"player": player, "area": area, "objectives": [], "characters": characters or [],
            "objects": [], "doors": [], "hazards": [], "exit": None}
    return {"turn": 1, "time_s": 1.0, "view": view, "last_result": None, "error": None}


def _gunman(cid: str, distance: float, alertness: str = "in_combat") -> dict[str, Any]:
    return {"id": cid, "kind": "guard", "position": [distance, 0.0, 0.0], "area": "a1",
            "health": 1.0, "down": False, "alertness": alertness, "armed": True,
            "weapon": "pistol", "friendly": False, "seen": "now", "distance": distance}


def test_a_magazine_not_full_is_topped_up_while_nobody_is_after_the_player() -> None:
    from agents.reference import brain

    player = brain.Brain()
    player.decide(_observation([PISTOL]), {})  # a full magazine seen: it holds eight
    step = player.decide(_observation([{**PISTOL, "loaded": 4}]), {})
    assert step[0] == "equip" and step[1] == {"item_id": "o1"} and "topping up" in step[2]
    # The world reloads it; the next decision walks on with the reload running.
    running = _observation([{**PISTOL, "loaded": 4}])
    running["view"]["player"]["reloading"] = True
    running["last_result"] = {"action": "equip", "end_reason": "arrived",
                              "detail": "Reloading o1.", "changes": [], "distance_moved": 0.0}
    assert player.decide(running, {})[0] != "equip"
    # No rounds besides the magazine: nothing to reload from.
    player = brain.Brain()
    player.decide(_observation([PISTOL]), {})
    assert player.decide(_observation([{**PISTOL, "loaded": 4, "ammo": 0}]), {})[0] != "equip"


def test_a_gadget_left_in_hand_is_put_away_for_a_gun_while_calm() -> None:
    from agents.reference import duels
    from agents.reference.memory import Memory

    camera = {"id": "o5", "kind": "gadget", "name": "camera", "ammo": None, "loaded": None,
              "weapon": None}
    mem = Memory()
    mem.update(_observation([PISTOL, camera], in_hand="o5"))
    step = duels.gun_up(mem)
    assert step == ("equip", {"item_id": "o1"}, "drawing the pistol")
    # With a gunman after the player, the fight decides which gun (or none) to draw.
    mem.update(_observation([PISTOL, camera], in_hand="o5", characters=[_gunman("c1", 900.0)]))
    assert duels.gun_up(mem) is None


def test_a_duel_the_loaded_rounds_would_not_finish_is_reloaded_for_out_of_sight() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    # Three rounds loaded, a fresh gunman at 800 units: a pistol needs six hits' worth.
    low = [{**PISTOL, "loaded": 3}]
    mem = Memory()
    mem.update(_observation([PISTOL]))  # a full magazine seen: it holds eight
    mem.update(_observation(low, characters=[_gunman("c1", 800.0)], ways=[WAY]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "go_to" and "reload before the duel" in step[2]
    assert step[1]["x"] < -300.0  # out through the way, away from him
    # With no way out to step through, the reload is started where the player stands,
    # and finished there: no walk to cover while it runs.
    mem = Memory()
    mem.update(_observation([PISTOL]))
    mem.update(_observation(low, characters=[_gunman("c1", 800.0)]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "equip" and step[1] == {"item_id": "o1"}
    mem.last_decision = step
    running = _observation(low, characters=[_gunman("c1", 800.0)], ways=[WAY])
    running["view"]["player"]["reloading"] = True
    mem.update(running)
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "attack"
    # Under fire every hit would stop the walk to cover: no walk.
    hit = _observation(low, characters=[_gunman("c1", 800.0)], ways=[WAY])
    hit["last_result"] = {"action": "attack", "end_reason": "damage", "detail": "",
                          "changes": [], "distance_moved": 0.0}
    mem.update(hit)
    step = fight.fight(mem, False)
    assert step is not None and step[0] != "go_to"
    # Close by, turning away costs more shots than the reload saves: no walk either.
    mem.update(_observation(low, characters=[_gunman("c1", 300.0)], ways=[WAY]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] != "go_to"
    # A full magazine holds the duel: it is fought where the player stands.
    mem.update(_observation([PISTOL], characters=[_gunman("c1", 800.0)], ways=[WAY]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "attack"


def test_after_a_kill_the_reload_comes_first_and_the_hold_right_after() -> None:
    from agents.reference import brain

    player = brain.Brain()
    player.decide(_observation([PISTOL]), {})
    kill = ("attack", {"character_id": "c1"}, "fighting guard c1")
    player.mem.last_decision = kill
    down = {**_gunman("c1", 400.0), "down": True, "health": 0.0}
    after = _observation([{**PISTOL, "loaded": 4}], characters=[down])
    after["view"]["player"]["health"] = 0.57
    after["last_result"] = {"action": "attack", "end_reason": "arrived",
                            "detail": "c1 is down.", "changes": [], "distance_moved": 0.0}
    step = player.decide(after, {})
    assert step[0] == "equip" and "topping up" in step[2]
    # The reload runs; the guard who heard the shots is met here, not on a walk to a medkit.
    reloading = _observation([{**PISTOL, "loaded": 4}], characters=[down])
    reloading["view"]["player"].update(health=0.57, reloading=True)
    reloading["last_result"] = {"action": "equip", "end_reason": "arrived",
                                "detail": "Reloading o1.", "changes": [],
                                "distance_moved": 0.0}
    step = player.decide(reloading, {})
    assert step[0] == "wait" and "holding" in step[2]
    # Unhurt, the player walks on once reloaded: nothing is owed.
    player = brain.Brain()
    player.decide(_observation([PISTOL]), {})
    player.mem.last_decision = kill
    step = player.decide({**after, "view": {**after["view"], "player": {
        **after["view"]["player"], "health": 1.0}}}, {})
    assert step[0] == "equip"
    assert player.decide({**reloading, "view": {**reloading["view"], "player": {
        **reloading["view"]["player"], "health": 1.0}}}, {})[0] != "wait"


def test_armour_a_few_steps_off_is_put_on_in_place_of_the_hold_after_a_kill() -> None:
    from agents.reference import brain

    vest = {"id": "o2", "kind": "armour", "name": "flak vest", "position": [0.0, 0.0, 350.0],
            "area": "a1", "distance": 350.0, "objective": False, "state": None,
            "weapon": None}
    player = brain.Brain()
    player.decide(_observation([PISTOL]), {})
    player.mem.last_decision = ("attack", {"character_id": "c1"}, "fighting guard c1")
    down = {**_gunman("c1", 400.0), "down": True, "health": 0.0}
    after = _observation([{**PISTOL, "loaded": 4}], characters=[down])
    after["view"]["player"]["health"] = 0.57
    after["view"]["objects"] = [vest]
    after["last_result"] = {"action": "attack", "end_reason": "arrived",
                            "detail": "c1 is down.", "changes": [], "distance_moved": 0.0}
    assert player.decide(after, {})[0] == "equip"
    # The guard who heard the shots is met with the vest on: its hits land on armour.
    reloading = _observation([{**PISTOL, "loaded": 4}], characters=[down])
    reloading["view"]["player"].update(health=0.57, reloading=True)
    reloading["view"]["objects"] = [vest]
    reloading["last_result"] = {"action": "equip", "end_reason": "arrived",
                                "detail": "Reloading o1.", "changes": [],
                                "distance_moved": 0.0}
    step = player.decide(reloading, {})
    assert step[0] == "go_to_object" and step[1]["object_id"] == "o2", step
