"""The reference agent against two gunmen at once, and in a free-for-all with errands open.

Hand-made observations folded into the agent's memory, as in test_reference_split.py; the
episodes that showed the need are generated errands at hard (a searching guard beside a
second one), hidden_crypt at hard (a sidearm guard beside a spray-gun soldier, a fall
back to reload that emptied the magazine on the way) and arena_frags at hard (the plate
armour and the heavy cannon left for after the last frag).
"""

from __future__ import annotations

from tests import reference_views as rv


def _gunman(cid: str, x: float, alertness: str, weapon: str = "pistol",
            health: float = 1.0) -> dict:
    return {**rv.hostile(cid, x, armed=True, alertness=alertness, health=health),
            "weapon": weapon}


def _view(gunmen: list[dict], loaded: int = 8) -> dict:
    observation = rv.observation([], carried=[rv.pistol(24, loaded)])
    view = observation["view"]
    view["player"]["in_hand"] = "o1"
    view["area"]["windows"] = []
    view["area"]["ways_out"] = [dict(rv.WAY_BACK)]
    view["characters"] = gunmen
    return observation


def test_a_searching_guard_beside_another_is_met_at_the_doorway_not_in_his_room() -> None:
    from agents.reference.brain import Brain

    step = Brain().decide(_view([_gunman("c1", 260.0, "alerted"),
                                 _gunman("c2", 310.0, "unaware")]), {})
    # Before: a duel against the searcher, which woke the other at its first shot.
    assert step[0] == "go_to" and step[2].startswith("falling back out of sight")
    assert step[1]["x"] < -300.0 and step[1]["fire_on_way"] is False


def test_once_one_of_them_fires_the_fight_is_taken_where_it_stands() -> None:
    step = rv.fight_step(_view([_gunman("c1", 260.0, "in_combat"),
                                _gunman("c2", 310.0, "unaware")]))
    assert step[0] == "attack" and step[1]["character_id"] == "c1"


def test_of_two_gunmen_alike_the_one_with_the_spray_gun_goes_first() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    mem = Memory()
    mem.update(_view([_gunman("c1", 300.0, "in_combat"),
                      _gunman("c2", 300.0, "in_combat", weapon="smg")]))
    assert [r["id"] for r in fight.threats(mem, False)] == ["c2", "c1"]


def test_a_fall_back_to_reload_holds_its_fire_on_the_way() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    mem = Memory()
    mem.update(_view([]))  # a full magazine seen: it holds eight
    view = _view([_gunman("c1", 900.0, "in_combat")], loaded=2)
    view["time_s"], view["turn"] = 2.0, 2
    mem.update(view)
    step = fight.fight(mem, False)
    # Shots fired walking mostly miss: they would leave the magazine emptier than it was.
    assert step is not None and step[0] == "go_to" and "to reload" in step[2]
    assert step[1]["fire_on_way"] is False


def test_with_nobody_in_sight_a_free_for_all_leaves_the_roaming_to_an_open_errand() -> None:
    from agents.reference.memory import Memory
    from agents.reference.plans import PLANS

    frags = {"index": 1, "status": "todo", "counts": True, "kind": "frags", "area": None,
             "targets": [], "point": None}
    claim = {"index": 2, "status": "todo", "counts": True, "kind": "collect_item",
             "area": None, "targets": [], "point": None}

    def roam(objectives: list[dict]) -> object:
        observation = rv.observation([], objectives, carried=[rv.pistol(24, 8)])
        observation["view"]["area"]["ways_out"] = [{**rv.WAY_BACK, "visited": False}]
        mem = Memory()
        mem.update(observation)
        return PLANS["frags"](mem, frags)

    # Before: the walk to the unexplored hall, whatever else was open.
    assert roam([frags, claim]) is None
    assert roam([frags]) is not None
