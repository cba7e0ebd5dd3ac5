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


def _after_kill(objects: list[dict[str, Any]], health: float = 0.05) -> list[Any]:
    # The decisions right after a kill that left the player at this health with four
    # rounds of eight loaded: the top-up, then whatever comes once the reload runs.
    from agents.reference import brain

    player = brain.Brain()
    player.decide(_observation(1.0, 8, objects, None), {})  # a full magazine holds eight
    player.mem.last_decision = KILL
    killed = {"action": "attack", "end_reason": "arrived", "detail": "c1 is down.",
              "changes": [], "distance_moved": 0.0}
    first = player.decide(_observation(health, 4, objects, killed), {})
    reload = {"action": "equip", "end_reason": "arrived", "detail": "Reloading o1.",
              "changes": [], "distance_moved": 0.0}
    second = player.decide(_observation(health, 4, objects, reload, reloading=True), {})
    return [first, second]


def test_a_kill_that_left_the_player_a_hit_from_down_is_followed_by_a_medkit_not_a_hold() -> None:
    first, second = _after_kill([MEDKIT])
    assert first[0] == "equip" and "topping up" in first[2]
    assert second[0] == "go_to_object" and second[1] == {"object_id": "o9"}
    assert "healing before holding" in second[2]
    # A hit or two from down (a rifle's hit from across a hall takes a third) is as bad.
    assert _after_kill([MEDKIT], health=0.4)[1][1] == {"object_id": "o9"}
    # With no medkit known, holding the ground is still the best left.
    first, second = _after_kill([])
    assert first[0] == "equip"
    assert second[0] == "wait" and "holding" in second[2]


def _objective(index: int, kind: str, targets: list[str]) -> dict[str, Any]:
    return {"index": index, "status": "todo", "min_difficulty": "easy", "counts": True,
            "text": "", "area": None, "area_name": None, "distance": None, "kind": kind,
            "standing": False, "targets": targets, "point": None, "heading_to": None,
            "located": True}


def _holding_out(survive: bool, characters: list[dict[str, Any]]) -> dict[str, Any]:
    # A player told to stay alive (or not), a brazier to shoot out 700 units off.
    brazier = {**MEDKIT, "id": "o7", "kind": "breakable", "name": "signal brazier",
               "position": [0.0, 0.0, 700.0], "distance": 700.0, "objective": True}
    obs = _observation(1.0, 8, [brazier], None)
    obs["view"]["characters"] = characters
    obs["view"]["objectives"] = ([_objective(1, "survive", [])] if survive else []) + [
        _objective(2, "destroy_object", ["o7"])]
    return obs


def test_holding_out_with_nobody_in_sight_a_shot_at_a_thing_is_a_short_look() -> None:
    from agents.reference import brain, holdout

    step = brain.Brain().decide(_holding_out(True, []), {})
    assert step[0] == "shoot_object" and step[1] == {"object_id": "o7",
                                                      "time_limit_s": holdout.LOOK_S}
    # Not told to stay alive: the shot runs until the thing breaks.
    step = brain.Brain().decide(_holding_out(False, []), {})
    assert step[0] == "shoot_object" and step[1] == {"object_id": "o7"}
    # An attacker in sight far off: the player knows where the shots come from.
    far = {"id": "c1", "kind": "boss", "position": [0.0, 0.0, -1000.0], "area": "a1",
           "health": 4.4, "down": False, "alertness": "unaware", "armed": False,
           "weapon": None, "friendly": False, "seen": "now", "distance": 1000.0}
    step = brain.Brain().decide(_holding_out(True, [far]), {})
    assert step[0] == "shoot_object" and step[1] == {"object_id": "o7"}


def test_holding_out_with_nobody_in_sight_a_wait_is_a_short_look() -> None:
    from agents.reference import holdout
    from agents.reference.memory import Memory

    mem = Memory()
    mem.update(_holding_out(True, []))
    hold = ("wait", {"seconds": 3.0}, "c1 is down; holding here")
    assert holdout.short_look(mem, hold) == ("wait", {"seconds": holdout.LOOK_S}, hold[2])
    walk = ("go_to", {"x": 1.0, "z": 2.0}, "walking")
    assert holdout.short_look(mem, walk) == walk  # only stand-still actions are cut
    mem.update(_holding_out(False, []))
    assert holdout.short_look(mem, hold) == hold


RIFLE = {"id": "o2", "kind": "weapon", "name": "rifle", "ammo": 0, "loaded": 30,
         "weapon": "rifle"}
RIFLE_ROUNDS = {**MEDKIT, "id": "o5", "kind": "ammo", "name": "rifle rounds", "weapon": "rifle"}


def _armed(rifle_loaded: int, objects: list[dict[str, Any]], spare: int = 0) -> dict[str, Any]:
    # A calm player carrying a full pistol (8 and 24 spare) and a rifle, the rifle in hand.
    obs = _observation(1.0, 8, objects, None)
    obs["view"]["player"]["carried"].append({**RIFLE, "loaded": rifle_loaded, "ammo": spare})
    obs["view"]["player"]["in_hand"] = "o2"
    obs["view"]["characters"] = []
    return obs


def test_the_best_gun_running_low_has_its_own_rounds_fetched_between_fights() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    mem = Memory()
    mem.update(_armed(30, [RIFLE_ROUNDS], spare=20))  # a full magazine seen: it holds thirty
    assert fight.rearm_between_fights(mem, 700.0, 0.6) is None  # fifty left: enough
    # Forty rounds in all (a full pistol besides) but the rifle nearly dry: its rounds
    # are fetched.
    mem.update(_armed(8, [RIFLE_ROUNDS]))
    step = fight.rearm_between_fights(mem, 700.0, 0.6)
    assert step is not None and step[0] == "go_to_object" and step[1] == {"object_id": "o5"}
    assert "rounds left for the rifle" in step[2]
    # Rounds for another kind only are no help.
    mem = Memory()
    mem.update(_armed(30, []))
    mem.update(_armed(8, [{**RIFLE_ROUNDS, "name": "shotgun shells", "weapon": "shotgun"}]))
    assert fight.rearm_between_fights(mem, 700.0, 0.6) is None


def test_between_fights_the_best_kind_of_gun_with_rounds_is_the_one_in_hand() -> None:
    from agents.reference import brain

    # The rifle's magazine is empty but rounds are carried for it; the pistol is in hand,
    # full: calm, the rifle is drawn (and reloaded there), not kept for a later duel.
    obs = _armed(0, [], spare=20)
    obs["view"]["player"]["in_hand"] = "o1"
    player = brain.Brain()
    player.mem.magazines["o2"] = 30
    step = player.decide(obs, {})
    assert step == ("equip", {"item_id": "o2"}, "between fights, the rifle in hand")
    # With a gunman after the player, the duel chooses the gun by the rounds loaded.
    gunman = {"id": "c1", "kind": "guard", "position": [600.0, 0.0, 0.0], "area": "a1",
              "health": 1.0, "down": False, "alertness": "in_combat", "armed": True,
              "weapon": "pistol", "friendly": False, "seen": "now", "distance": 600.0}
    obs["view"]["characters"] = [gunman]
    step = brain.Brain().decide(obs, {})
    assert step[1] != {"item_id": "o2"}


def test_a_better_kind_of_gun_with_too_few_rounds_for_a_duel_is_not_drawn_between_fights() -> None:
    from agents.reference import longgun
    from agents.reference.memory import Memory

    # Two rifle rounds left in all: not a duel's worth, so the full pistol stays in hand.
    obs = _armed(2, [])
    obs["view"]["player"]["in_hand"] = "o1"
    mem = Memory()
    mem.update(obs)
    assert longgun.best_gun_up(mem) is None
    obs = _armed(2, [], spare=20)
    obs["view"]["player"]["in_hand"] = "o1"
    mem.update(obs)
    assert longgun.best_gun_up(mem) == ("equip", {"item_id": "o2"},
                                        "between fights, the rifle in hand")


def test_an_unaware_gunman_in_sight_leaves_the_gun_to_the_duels_choice() -> None:
    from agents.reference import longgun
    from agents.reference.memory import Memory

    # The rifle has one round loaded (45 spare), the full pistol is in hand, and a gunman
    # stands unaware across the hall: the duel with him would draw the pistol back (its
    # magazine finishes the duel), so the rifle is not drawn now; the two choices swapped
    # guns at every decision for a whole episode.
    obs = _armed(1, [], spare=45)
    obs["view"]["player"]["in_hand"] = "o1"
    guard = {"id": "c4", "kind": "guard", "position": [1200.0, 0.0, 0.0], "area": "a1",
             "health": 1.0, "down": False, "alertness": "unaware", "armed": True,
             "weapon": "pistol", "friendly": False, "seen": "now", "distance": 1200.0}
    obs["view"]["characters"] = [guard]
    mem = Memory()
    mem.update(obs)
    assert longgun.best_gun_up(mem) is None
    # One that only bites, running at the player, is fought with the duel's own choice too.
    obs["view"]["characters"] = [{**guard, "armed": False, "weapon": None,
                                  "alertness": "in_combat"}]
    mem.update(obs)
    assert longgun.best_gun_up(mem) is None
    # Out of his sight (no one seen now), the rifle is the one in hand between fights.
    obs["view"]["characters"] = [guard]
    obs["view"]["characters"] = [{**guard, "seen": "before"}]
    mem.update(obs)
    assert longgun.best_gun_up(mem) == ("equip", {"item_id": "o2"},
                                        "between fights, the rifle in hand")


def test_a_medkit_walk_before_waking_guards_given_up_is_not_taken_up_again() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    # Two gunmen in the next room, not yet after the player at 0.76 health; a medkit in
    # a room already walked. The first time, the player walks back for it.
    guards = [{"id": cid, "kind": "guard", "position": [900.0, 0.0, z], "area": "a2",
               "health": 1.0, "down": False, "alertness": "unaware", "armed": True,
               "weapon": "pistol", "friendly": False, "seen": "now", "distance": 900.0}
              for cid, z in (("c1", 0.0), ("c2", 100.0))]
    kit = {**MEDKIT, "position": [-2000.0, 0.0, 0.0], "area": "a0", "distance": 2000.0}
    obs = _observation(0.76, 8, [kit], None)
    obs["view"]["characters"] = guards
    mem = Memory()
    mem.visited.add("a0")
    mem.update(obs)
    step = fight._not_yet(mem, guards)
    assert step is not None and step[1] == {"object_id": "o9"}
    # Its next leg goes on to it.
    mem.last_decision = step
    assert fight._not_yet(mem, guards) == step
    # The walk was given up for the errand (the guards out of sight); back in view of
    # them, the player does not turn back for the same medkit again.
    mem.last_decision = ("go_to", {"x": 900.0, "z": 0.0}, "objective 1")
    assert fight._not_yet(mem, guards) is None


def test_while_a_countdown_runs_no_hold_after_a_kill_and_no_top_up_walk() -> None:
    from agents.reference import cover, supplies
    from agents.reference.memory import Memory

    killed = {"action": "attack", "end_reason": "arrived", "detail": "c1 is down.",
              "changes": [], "distance_moved": 0.0}
    fuse = {"kind": "countdown", "text": "The charge is armed; reach the helipad.",
            "seconds_left": 22.1, "extent": None, "effect": None}

    def memory(hazards: list[dict[str, Any]]) -> Memory:
        obs = _observation(0.49, 8, [MEDKIT], killed)
        obs["view"]["hazards"] = hazards
        mem = Memory()
        mem.last_decision = KILL
        mem.update(obs)
        return mem

    # Half spent, nobody about: the player holds for whoever heard the shots and then
    # tops up at the known medkit...
    calm = memory([])
    assert cover.hold_after_kill(calm, False) is not None
    assert supplies.heal(calm, 0.3)[1] == {"object_id": "o9"}
    # ...but with a fuse burning the walk out comes first.
    hurried = memory([fuse])
    assert cover.hold_after_kill(hurried, False) is None
    assert supplies.heal(hurried, 0.3) is None
    assert supplies.heal(hurried, 0.55)[1] == {"object_id": "o9"}  # the mark asked for counts


def test_on_a_floor_that_drains_health_no_hold_after_a_kill() -> None:
    from agents.reference import cover, regroup
    from agents.reference.memory import Memory

    killed = {"action": "attack", "end_reason": "arrived", "detail": "c1 is down.",
              "changes": [], "distance_moved": 0.0}

    def acid(x0: float) -> dict[str, Any]:
        ring = [[x0, -500.0], [x0 + 1000.0, -500.0], [x0 + 1000.0, 500.0], [x0, 500.0]]
        return {"kind": "acid", "text": "acid on the floor: drains 6% health a second "
                "while inside", "seconds_left": None, "extent": ring,
                "effect": "drains 6% health a second while inside"}

    def memory(hazard: dict[str, Any]) -> Memory:
        obs = _observation(0.49, 8, [], killed)
        obs["view"]["hazards"] = [hazard]
        mem = Memory()
        mem.last_decision = KILL
        mem.update(obs)
        mem.regroup_until = 9.0
        return mem

    # Acid in view but off to the side: the player holds for whoever heard the shots...
    beside = memory(acid(200.0))
    assert cover.hold_after_kill(beside, False) is not None
    assert regroup.hold_out_of_sight(beside) is not None
    # ...but standing in it, every second of the hold costs health: no hold.
    inside = memory(acid(-500.0))
    assert cover.hold_after_kill(inside, False) is None
    assert regroup.hold_out_of_sight(inside) is None
