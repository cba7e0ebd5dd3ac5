"""The reference agent takes two gunmen one at a time and hides beside a doorway.

Hand-made observations folded into the agent's memory, as in test_reference_threats.py;
the episodes that showed the need are generated errands and exit_switch at hard, where a
door opened onto two guards or a dead-end room left no way back to reload out of sight.
"""

from __future__ import annotations

import math

from tests import reference_views as rv

INTO_THEIR_ROOM = {"id": "w1", "to": "a2", "to_name": "Hall", "via": "opening", "door": None,
                   "position": [300.0, 0.0, 0.0], "visited": False, "one_way": False,
                   "other_storey": False, "distance": 300.0}


def _guard(cid: str, x: float, z: float, alertness: str = "unaware") -> dict:
    return {**rv.hostile(cid, math.hypot(x, z), armed=True, alertness=alertness, health=1.0),
            "position": [x, 0.0, z], "area": "a2"}


def _view(guards: list[dict], position: tuple[float, float] = (0.0, 0.0),
          loaded: int = 8, time_s: float = 1.0) -> dict:
    observation = rv.observation([], carried=[rv.pistol(24, loaded)])
    view = observation["view"]
    view["player"]["in_hand"] = "o1"
    view["area"]["windows"] = []
    view["player"]["position"] = [position[0], 0.0, position[1]]
    view["area"]["ways_out"] = [{**INTO_THEIR_ROOM, "distance": math.hypot(
        300.0 - position[0], position[1])}]
    view["characters"] = [{**g, "distance": math.hypot(g["position"][0] - position[0],
                                                       g["position"][2] - position[1])}
                          for g in guards]
    return {**observation, "time_s": time_s, "turn": int(time_s * 10)}


def test_two_unaware_gunmen_are_watched_through_a_doorway_slice_and_taken_one_at_a_time() -> None:
    from agents.reference.brain import Brain

    c1, c2 = _guard("c1", 600.0, -150.0), _guard("c2", 700.0, 300.0)
    player = Brain()
    step = player.decide(_view([c1, c2]), {})
    # Back from the doorway on the line through it to the nearer one: from there the
    # doorway's frame hides the other.
    assert step[0] == "go_to" and "one at a time" in step[2]
    spot = (step[1]["x"], step[1]["z"])
    assert spot[0] < 300.0 and spot[1] > 0.0
    assert step[1]["fire_on_way"] is False
    # Both still in sight from there: the player looks again rather than open fire.
    step = player.decide(_view([c1, c2], spot, time_s=2.0), {})
    assert step[0] == "wait" and "watching" in step[2]
    # The one in line alone in sight: the first shot is the player's.
    step = player.decide(_view([c1], spot, time_s=3.0), {})
    assert step == ("attack", {"character_id": "c1"}, "c1 alone in sight: taking him first")


def test_two_gunmen_in_one_line_through_the_doorway_are_fought_as_before() -> None:
    from agents.reference.brain import Brain

    # The farther stands behind the nearer: no spot shows one without the other.
    step = Brain().decide(_view([_guard("c1", 600.0, 0.0), _guard("c2", 800.0, 20.0)]), {})
    assert step[0] == "attack" and step[1]["character_id"] == "c1"


def test_with_no_way_back_a_reload_before_a_duel_is_done_beside_the_gunmans_doorway() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    mem = Memory()
    mem.update(_view([]))  # a full magazine seen: it holds eight
    gunman = _guard("c1", 800.0, -100.0, alertness="in_combat")
    mem.update(_view([gunman], loaded=3, time_s=2.0))
    step = fight.fight(mem, False)
    # Three rounds do not put him down: out of his line, against the wall beside the
    # doorway on his side, a step back from it.
    assert step is not None and step[0] == "go_to" and "beside way w1" in step[2]
    assert step[1]["x"] < 300.0 and step[1]["z"] < -100.0
    # In his own room, nothing hides the player: the duel is taken where it stands.
    mem.update(_view([{**gunman, "area": "a1"}], loaded=3, time_s=3.0))
    step = fight.fight(mem, False)
    assert step is not None and step[0] in ("attack", "equip")


def test_two_near_gunmen_still_searching_are_walked_away_from_two_firing_are_fought() -> None:
    observation = rv.observation([], carried=[rv.pistol(24, 8)])
    observation["view"]["player"]["in_hand"] = "o1"
    observation["view"]["area"]["ways_out"] = [rv.WAY_BACK]
    searching = [rv.hostile("c1", 420.0, armed=True, alertness="alerted", health=1.0),
                 rv.hostile("c2", 440.0, armed=True, alertness="alerted", health=1.0)]
    observation["view"]["characters"] = searching
    # Not yet firing: the walk out through the way back costs no shots, and they come
    # through the doorway one by one.
    step = rv.fight_step(observation)
    assert step is not None and step[0] == "go_to" and step[2].startswith("falling back")
    assert step[1]["x"] < -300.0
    # Once one fires, turning away that near costs more shots than it saves.
    observation["view"]["characters"] = [{**searching[0], "alertness": "in_combat"},
                                         searching[1]]
    step = rv.fight_step(observation)
    assert step is not None and step[0] == "attack"


def test_a_press_meant_for_a_hostage_that_lands_on_a_door_is_tried_from_beside_him() -> None:
    from agents.reference.brain import Brain

    escort = {"index": 1, "status": "todo", "counts": True, "kind": "escort", "targets": ["c9"],
              "text": "Lead the hostage out.", "area": "a5", "area_name": "Yard",
              "point": [2000.0, 0.0, 0.0], "distance": 2000.0, "located": True}
    hostage = {"id": "c9", "kind": "hostage", "position": [40.0, 0.0, 0.0], "area": "a1",
               "health": 1.0, "down": False, "alertness": "unaware", "armed": False,
               "weapon": None, "friendly": True, "seen": "now", "distance": 40.0}

    def view(detail: str | None, time_s: float) -> dict:
        observation = rv.observation([], [escort], carried=[rv.pistol(24, 8)])
        observation["view"]["player"]["in_hand"] = "o1"
        observation["view"]["area"]["windows"] = []
        observation["view"]["characters"] = [hostage]
        last = None if detail is None else {
            "action": "turn_and_use", "end_reason": "arrived", "detail": detail,
            "changes": [], "distance_moved": 0.0}
        return {**observation, "time_s": time_s, "turn": int(time_s * 10), "last_result": last}

    player = Brain()
    step = player.decide(view(None, 1.0), {})
    assert step[0] == "turn_and_use" and "asking c9" in step[2]
    # The press landed on a door in line with him: the same press from here would too.
    step = player.decide(view("Turned and pressed use on d4.", 1.1), {})
    assert step[0] == "go_to" and "stepping beside c9" in step[2]
    assert abs(step[1]["z"]) > 50.0  # off the line through him


def test_hurt_with_two_gunmen_close_by_the_player_steps_back_through_the_way_behind() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    def step_at(health: float, after_falling_back: bool = False, hit: bool = False) -> object:
        observation = rv.observation([], carried=[rv.pistol(24, 8)])
        view = observation["view"]
        view["player"].update(in_hand="o1", health=health)
        view["area"]["windows"] = []
        view["area"]["ways_out"] = [{**rv.WAY_BACK, "distance": 150.0,
                                     "position": [-150.0, 0.0, 0.0]}]
        view["characters"] = [rv.hostile("c1", 250.0, armed=True, health=1.0),
                              {**rv.hostile("c2", 320.0, armed=True, health=1.0),
                               "position": [300.0, 0.0, 100.0]}]
        if hit:
            observation["last_result"] = {"action": "go_to", "end_reason": "damage",
                                          "detail": "", "changes": [], "distance_moved": 90.0}
        mem = Memory()
        mem.update(observation)
        if after_falling_back:
            mem.last_decision = ("go_to", {"x": 0.0, "z": 0.0}, "falling back: 2 gunmen close by")
        return fight.fight(mem, False)

    # Two guns firing from across a small room outpace a hurt player's one: the doorway
    # a few steps back hides it from both, and they come through it one at a time.
    step = step_at(0.6)
    assert step is not None and step[0] == "go_to" and step[1]["x"] < -150.0
    assert "2 gunmen close by" in step[2]
    # Fresh, the player fights them where they stand, as before.
    step = step_at(1.0)
    assert step is not None and step[0] == "attack"
    # Followed through the doorway right after falling back: no second walk away (each
    # was shot at as the first), the player fights.
    step = step_at(0.6, after_falling_back=True)
    assert step is not None and step[0] == "attack"
    # Hit on the last action, the walk away would stop at every hit: the player fights.
    step = step_at(0.6, hit=True)
    assert step is not None and step[0] == "attack"
