"""The reference agent under threat: whom it fights first, when it reloads, heals or holds.

Each test folds hand-made observations into the agent's memory and asks for its next
decision, so they run in milliseconds; whole episodes live in test_reference_agent.py.
"""

from __future__ import annotations

from tests import reference_views as rv


def test_a_bare_handed_attacker_running_in_is_fought_before_a_far_gunman() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    gun = {"id": "o1", "kind": "weapon", "name": "smg", "ammo": 300, "loaded": 30,
           "weapon": "smg"}
    observation = rv.observation([], carried=[gun])
    observation["view"]["player"]["in_hand"] = "o1"
    # He reaches the player in two or three seconds, less than a duel at 1,000 units lasts.
    runner, gunman = rv.hostile("c1", 550.0, armed=False), rv.hostile("c2", 1000.0, armed=True)
    observation["view"]["characters"] = [runner, gunman]
    mem = Memory()
    mem.update(observation)
    assert [r["id"] for r in fight.threats(mem, False)] == ["c1", "c2"]
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "attack" and step[1]["character_id"] == "c1"
    # Not yet in combat (only wandering about), bare hands that far are no threat yet.
    observation["view"]["characters"] = [{**runner, "alertness": "alerted"}, gunman]
    mem.update(observation)
    assert [r["id"] for r in fight.threats(mem, False)] == ["c2", "c1"]


def test_a_gun_all_but_empty_is_reloaded_out_of_a_far_gunmans_sight() -> None:
    pistol = rv.pistol(16, 1)
    way = rv.WAY_BACK
    observation = rv.observation([], carried=[pistol])
    observation["view"]["player"]["in_hand"] = "o1"
    observation["view"]["area"]["ways_out"] = [way]
    observation["view"]["characters"] = [rv.hostile("c1", 800.0, armed=True, health=1.0)]
    step = rv.fight_step(observation)
    # Out through the way out, away from him and past the doorway's frame.
    assert step is not None and step[0] == "go_to" and "reload" in step[2]
    assert step[1]["x"] < -300.0
    # Under fire, every hit would stop the walk: the player shoots back instead.
    hit = {"action": "attack", "end_reason": "damage", "detail": "", "changes": [],
           "distance_moved": 0.0}
    step = rv.fight_step({**observation, "last_result": hit})
    assert step is not None and step[0] == "attack"
    # With a full magazine the duel is taken where the player stands.
    observation["view"]["player"]["carried"] = [{**pistol, "loaded": 8}]
    step = rv.fight_step(observation)
    assert step is not None and step[0] == "attack"


def test_a_duel_is_fought_with_a_gun_whose_magazine_finishes_it() -> None:
    pistol = rv.pistol(40, 7)
    cannon = {"id": "o2", "kind": "weapon", "name": "heavy cannon", "ammo": 0, "loaded": 3,
              "weapon": "heavy_cannon"}
    observation = rv.observation([], carried=[pistol, cannon])
    observation["view"]["player"]["in_hand"] = "o2"
    observation["view"]["characters"] = [rv.hostile("c1", 900.0, armed=True, health=0.8)]
    # Three heavy rounds at that range, none to reload with: the cannon would run dry
    # mid-duel, so the pistol, whose magazine holds the shots it takes, is drawn first.
    step = rv.fight_step(observation)
    assert step is not None and step[0] == "equip" and step[1]["item_id"] == "o1"
    # With its magazine full the heavier gun of the two is kept for the duel.
    observation["view"]["player"]["carried"] = [pistol, {**cannon, "loaded": 20}]
    step = rv.fight_step(observation)
    assert step is not None and step[0] == "attack"
    # A reload under way is finished rather than swapped for a gun that must reload too.
    rifle = {"id": "o3", "kind": "weapon", "name": "rifle", "ammo": 30, "loaded": 0,
             "weapon": "rifle"}
    observation["view"]["player"].update(carried=[{**pistol, "loaded": 0}, rifle],
                                         in_hand="o1", reloading=True)
    step = rv.fight_step(observation)
    assert step is not None and step[0] == "attack"


def test_a_walk_to_a_medkit_cut_short_by_a_far_gunmans_hit_turns_to_shoot_back() -> None:
    from agents.reference import brain

    pistol = rv.pistol(32, 7)
    kit = rv.thing("o5", "medkit", 1200.0)
    observation = rv.observation([kit], carried=[pistol])
    observation["view"]["player"].update(in_hand="o1", health=0.26)
    observation["view"]["characters"] = [rv.hostile("c1", 950.0, armed=True, health=1.0)]
    player = brain.Brain()
    player.mem.update(observation)
    # Hurt, with the gunman still far off, the player walks to the medkit.
    step = player._stay_alive(stealth=False)
    assert step is not None and step[0] == "go_to_object" and step[1]["object_id"] == "o5"
    # His hit stopped the walk: every further step would stop at the next one.
    player.mem.last_decision = step
    hit = {"action": "go_to_object", "end_reason": "damage", "detail": "", "changes": [],
           "distance_moved": 40.0}
    player.mem.update({**observation, "last_result": hit})
    step = player._stay_alive(stealth=False)
    assert step is not None and step[0] == "attack" and step[1]["character_id"] == "c1"


def test_a_guide_is_not_left_behind_to_reload_or_hold() -> None:
    from agents.reference import cover
    from agents.reference.memory import Memory

    pistol = rv.pistol(16, 1)
    way = rv.WAY_BACK
    guide = {"index": 1, "status": "todo", "counts": True, "kind": "follow", "targets": ["c9"]}
    observation = rv.observation([], [guide], [pistol])
    observation["view"]["player"]["in_hand"] = "o1"
    observation["view"]["area"]["ways_out"] = [way]
    observation["view"]["characters"] = [rv.hostile("c1", 800.0, armed=True, health=1.0)]
    # The same far gunman and nearly empty gun that send a free player out of his sight:
    # the guide walks on meanwhile, so the reload is taken where the player stands.
    step = rv.fight_step(observation)
    assert step is not None and step[0] == "attack"
    # Nor does the player hold its ground after a kill while the guide walks on.
    kill = {"action": "attack", "end_reason": "arrived", "detail": "c1 is down.",
            "changes": [], "distance_moved": 0.0}
    observation["view"]["player"]["health"] = 0.5
    observation["view"]["characters"] = [{**rv.hostile("c1", 800.0, armed=True), "down": True}]
    mem = Memory()
    mem.last_decision = ("attack", {"character_id": "c1"}, "fighting")
    mem.update({**observation, "last_result": kill})
    assert cover.hold_after_kill(mem, False) is None
    # Without the guide, the hurt player waits for whoever heard the shots.
    observation["view"]["objectives"] = []
    mem.update({**observation, "last_result": kill})
    step = cover.hold_after_kill(mem, False)
    assert step is not None and step[0] == "wait"


def test_a_player_one_hit_from_down_fetches_a_medkit_rather_than_hold_after_a_kill() -> None:
    from agents.reference import brain

    pistol = rv.pistol(32, 7)
    observation = rv.observation([rv.thing("o5", "medkit", 800.0)], carried=[pistol])
    observation["view"]["player"].update(in_hand="o1", health=0.5)
    observation["view"]["characters"] = [{**rv.hostile("c1", 600.0, armed=True), "down": True}]
    kill = {"action": "attack", "end_reason": "arrived", "detail": "c1 is down.",
            "changes": [], "distance_moved": 0.0}

    def step(health: float) -> tuple:
        player = brain.Brain()
        player.mem.last_decision = ("attack", {"character_id": "c1"}, "fighting")
        observation["view"]["player"]["health"] = health
        player.mem.update({**observation, "last_result": kill})
        return player._stay_alive(stealth=False)

    # Hurt but able to take another duel: the player waits for whoever heard the shots.
    assert step(0.5)[0] == "wait"
    # One hit from down, the ambush is not survived: the known medkit comes first.
    low = step(0.2)
    assert low[0] == "go_to_object" and low[1]["object_id"] == "o5"


def test_in_a_room_with_no_way_out_a_gunman_firing_goes_before_bare_hands_farther_off() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    gun = {"id": "o1", "kind": "weapon", "name": "smg", "ammo": 300, "loaded": 30,
           "weapon": "smg"}

    def order(runner_at: float, ways_out: list) -> list[str]:
        mem = Memory()
        for turn, time_s in ((1, 1.0), (2, 1.5)):
            # Two looks half a second apart: the gunman has kept his ground, firing.
            observation = rv.observation([], carried=[gun])
            observation.update(turn=turn, time_s=time_s)
            observation["view"]["player"]["in_hand"] = "o1"
            observation["view"]["area"]["ways_out"] = ways_out
            observation["view"]["characters"] = [
                rv.hostile("c1", runner_at - 100.0 * turn, armed=False),
                rv.hostile("c2", 1000.0, armed=True)]
            mem.update(observation)
            rows = fight.threats(mem, False)
        return [r["id"] for r in rows]

    # Nowhere to hide from his shots: he goes first while the runner is still far.
    assert order(650.0, []) == ["c2", "c1"]
    # Fists landing within a second come first; with a way out, cover answers him.
    assert order(450.0, []) == ["c1", "c2"]
    assert order(650.0, [rv.WAY_BACK]) == ["c1", "c2"]


def test_a_suspicious_gunman_facing_the_player_is_shot_first_one_looking_away_is_not() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    observation = rv.observation([], carried=[rv.pistol(24, 8)])
    observation["view"]["player"]["in_hand"] = "o1"
    # Across the next room, turned toward the player (facing 180: back along x): he opens
    # fire within a second or two on a player walking up to him.
    guard = {**rv.hostile("c1", 1100.0, armed=True, alertness="suspicious", health=1.0),
             "facing_deg": 180.0, "view_angle_deg": 120.0, "view_range": 1725.0}
    observation["view"]["characters"] = [guard]
    mem = Memory()
    mem.update(observation)
    assert [r["id"] for r in fight.threats(mem, False)] == ["c1"]
    step = fight.fight(mem, False)
    assert step is not None and step[0] == "attack" and step[1]["character_id"] == "c1"
    # Looking away he has not seen the player: the long shot would only wake the level.
    observation["view"]["characters"] = [{**guard, "facing_deg": 0.0}]
    mem.update(observation)
    assert fight.threats(mem, False) == []
    # In a mission that asks for quiet he is left alone as before.
    observation["view"]["characters"] = [guard]
    mem.update(observation)
    assert fight.threats(mem, True) == []
    # Nor with a second gunman in sight: the shot would wake both at once.
    other = rv.hostile("c2", 900.0, armed=True, alertness="unaware", health=1.0)
    observation["view"]["characters"] = [guard, other]
    mem.update(observation)
    assert fight.threats(mem, False) == []
