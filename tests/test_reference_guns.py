"""The reference agent's reloads and fire discipline against waves and gunmen.

Each test folds hand-made observations into the agent's memory and asks for its next
decision, so they run in milliseconds; whole episodes live in test_reference_agent.py.
"""

from __future__ import annotations

from typing import Any

SMG = {"id": "o1", "kind": "weapon", "name": "submachine gun", "ammo": 300, "loaded": 30,
       "weapon": "smg"}
PISTOL = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 24, "loaded": 8,
          "weapon": "pistol"}
WAY = {"id": "w1", "to": "a2", "to_name": "Hall", "via": "opening", "door": None,
       "position": [-300.0, 0.0, 0.0], "visited": True, "one_way": False,
       "other_storey": False, "distance": 300.0}


def _observation(gun: dict[str, Any], characters: list[dict[str, Any]] | None = None,
                 reloading: bool = False,
                 ways: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    # A player in area a1 holding one gun; nobody in sight unless given.
    player = {"position": [0.0, 0.0, 0.0], "health": 1.0, "armour": 0.0, "in_hand": gun["id"],
              "carried": [gun], "keys": [], "reloading": reloading}
    area = {"id": "a1", "name": "Room", "storey": "ground", "ways_out": ways or [],
            "windows": []}
    view = {"player": player, "area": area, "objectives": [], "characters": characters or [],
            "objects": [], "doors": [], "hazards": [], "exit": None}
    return {"turn": 1, "time_s": 1.0, "view": view, "last_result": None, "error": None}


def _hostile(cid: str, distance: float, *, armed: bool, health: float = 0.66) -> dict[str, Any]:
    return {"id": cid, "kind": "soldier", "position": [distance, 0.0, 0.0], "area": "a1",
            "health": health, "down": False, "alertness": "in_combat", "armed": armed,
            "weapon": "pistol" if armed else None, "friendly": False, "seen": "now",
            "distance": distance}


def _memory(full: dict[str, Any], now: dict[str, Any]) -> Any:
    from agents.reference.memory import Memory

    mem = Memory()
    mem.update(_observation(full))  # a full magazine seen: the gun's size is known
    mem.update(now)
    return mem


def test_bare_hands_far_off_are_let_come_within_the_guns_range() -> None:
    from agents.reference import fight

    # A spray at 900 units spends most of a magazine on one runner: hold fire a moment.
    runners = [_hostile("c1", 900.0, armed=False), _hostile("c2", 1000.0, armed=False)]
    mem = _memory(SMG, _observation(SMG, runners))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "wait" and 0.3 <= step[1]["seconds"] <= 1.0
    # Once one is within twice the gun's sure range, it is shot.
    runners[0] = _hostile("c1", 500.0, armed=False)
    mem = _memory(SMG, _observation(SMG, runners))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "attack" and step[1]["character_id"] == "c1"
    # A gunman among them shoots from anywhere: no holding fire.
    mem = _memory(SMG, _observation(SMG, [_hostile("c1", 900.0, armed=False),
                                          _hostile("c3", 1000.0, armed=True)]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "attack"


def test_a_duel_the_magazine_would_not_finish_is_reloaded_for_first() -> None:
    from agents.reference import fight

    # Five rounds against a runner at 450 units (about nine needed): the reload comes now,
    # while he and those behind him are farthest off, not when the magazine runs dry.
    runner = _hostile("c1", 450.0, armed=False)
    mem = _memory(SMG, _observation({**SMG, "loaded": 5}, [runner]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "equip" and step[1] == {"item_id": "o1"}
    assert "before fighting c1" in step[2]
    # Twenty rounds finish him: never a reload in the middle of a duel they finish.
    mem = _memory(SMG, _observation({**SMG, "loaded": 20}, [runner]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "attack"
    # In a gunman's sight the count of shots is a guess: five pistol rounds of the six a
    # duel at 800 takes are fired rather than reloaded for under his eyes.
    gunman = _hostile("c2", 800.0, armed=True, health=1.0)
    mem = _memory(PISTOL, _observation({**PISTOL, "loaded": 5}, [gunman]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "attack"


def test_a_magazine_is_topped_up_only_while_nobody_can_reach_the_player_meanwhile() -> None:
    from agents.reference import reloads

    low = {**SMG, "loaded": 12}
    # Runners still farther than a run of the reload's length: top up now.
    mem = _memory(SMG, _observation(low, [_hostile("c1", 900.0, armed=False)]))
    step = reloads.top_up_calm(mem)
    assert step is not None and step[0] == "equip" and "12 loaded" in step[2]
    # The same magazine is not asked to reload twice: the world did not start it.
    assert reloads.top_up_calm(mem) is None
    # A runner who would arrive within the reload, or a gunman in sight: no top-up.
    mem = _memory(SMG, _observation(low, [_hostile("c1", 400.0, armed=False)]))
    assert reloads.top_up_calm(mem) is None
    mem = _memory(SMG, _observation(low, [_hostile("c1", 1400.0, armed=True)]))
    assert reloads.top_up_calm(mem) is None
    # A round or two short is not worth a reload's time without a shot.
    mem = _memory(SMG, _observation({**SMG, "loaded": 27}))
    assert reloads.top_up_calm(mem) is None


def test_a_reload_already_running_is_waited_out_where_the_player_stands() -> None:
    from agents.reference import fight

    # One round left, a gunman far off and a way out near: the walk out of his sight.
    gunman = _hostile("c1", 800.0, armed=True, health=1.0)
    mem = _memory(PISTOL, _observation({**PISTOL, "loaded": 1}, [gunman], ways=[WAY]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "go_to" and "reload" in step[2]
    # The reload already running ends about when that walk would: it is finished here.
    mem = _memory(PISTOL, _observation({**PISTOL, "loaded": 0}, [gunman], reloading=True,
                                       ways=[WAY]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "attack"


def test_no_reload_before_a_duel_when_the_runner_arrives_first() -> None:
    from agents.reference import fight

    # Eight rounds against a runner at 430 units (nine needed from there, fewer as he
    # closes): the reload (1.6 s) would end after he arrives (about 1.1 s), so the rounds
    # loaded are fired rather than the gun being lowered while he runs up.
    mem = _memory(SMG, _observation({**SMG, "loaded": 8}, [_hostile("c1", 430.0, armed=False)]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "attack" and step[1]["character_id"] == "c1"
    # Five rounds would not put him down even from close by: the reload comes now.
    mem = _memory(SMG, _observation({**SMG, "loaded": 5}, [_hostile("c1", 430.0, armed=False)]))
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "equip" and "before fighting c1" in step[2]
