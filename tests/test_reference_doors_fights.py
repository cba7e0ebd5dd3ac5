"""The reference agent at a door that opens onto guards: ready before it, one guard at a time.

Each test folds hand-made observations into the agent's memory and asks for its next
decision, so they run in milliseconds; whole episodes live in test_reference_agent.py.
"""

from __future__ import annotations

from typing import Any

PISTOL = {"id": "o9", "kind": "weapon", "name": "pistol", "ammo": 24, "loaded": 8,
          "weapon": "pistol"}
DOOR = {"id": "d1", "position": [200.0, 0.0, 0.0], "between": ["a1", "a2"], "state": "closed",
        "locked_from_this_side": False, "key": None, "key_area": None, "needs_key": False,
        "panel": "o2", "has_panel": True, "open_seconds": 10.0, "one_way": False,
        "distance": 200.0}
PANEL = {"id": "o2", "kind": "panel", "name": "hall panel", "position": [150.0, 0.0, 50.0],
         "area": "a1", "distance": 158.0, "objective": False, "state": None, "weapon": None,
         "facing_deg": None, "view_angle_deg": None, "view_range": None}
MEDKIT = {**PANEL, "id": "o3", "kind": "medkit", "name": "medkit",
          "position": [-800.0, 0.0, 300.0], "area": "a3", "distance": 854.0}
# The walk that met the door: it has no handle, and its panel is named.
BLOCKED = {"action": "go_to", "end_reason": "door_closed", "ticks": 30, "distance_moved": 300.0,
           "detail": "The door d1 has no handle; the panel o2 opens it.", "changes": [],
           "door": {"door": "d1", "state": "closed", "key": None, "key_area": None,
                    "panel": "o2"}}


def _observation(health: float, characters: list[dict[str, Any]],
                 objects: list[dict[str, Any]]) -> dict[str, Any]:
    # A player in corridor a1 beside a panel door to a2, with a pistol in hand.
    player = {"position": [0.0, 0.0, 0.0], "health": health, "armour": 0.0, "in_hand": "o9",
              "carried": [PISTOL], "keys": [], "reloading": False}
    area = {"id": "a1", "name": "Corridor", "storey": "ground", "ways_out": [], "windows": []}
    view = {"player": player, "area": area, "objectives": [], "characters": characters,
            "objects": objects, "doors": [DOOR], "hazards": [], "exit": None}
    return {"turn": 5, "time_s": 20.0, "view": view, "last_result": BLOCKED, "error": None}


def _guard(cid: str, distance: float, alertness: str = "unaware") -> dict[str, Any]:
    return {"id": cid, "kind": "guard", "position": [-distance, 0.0, 0.0], "area": "a4",
            "health": 0.9, "down": False, "alertness": alertness, "armed": True,
            "weapon": "pistol", "friendly": False, "seen": "now", "distance": distance}


def _decide(health: float, characters: list[dict[str, Any]]) -> tuple[str, dict[str, Any], str]:
    from agents.reference import brain

    player = brain.Brain()
    return player.decide(_observation(health, characters, [PANEL, MEDKIT]), {})


def test_a_hurt_player_heals_before_opening_a_panel_door_with_a_guard_about() -> None:
    # Hurt, a guard in sight down the corridor, a medkit known a few steps back: the
    # medkit comes before the panel (the door may open on a second guard). Below the
    # calm mark (supplies.CALM_MARK) the plain top-up takes it there first.
    for health in (0.6, 0.82):
        step = _decide(health, [_guard("c5", 1600.0)])
        assert step[0] == "go_to_object" and step[1]["object_id"] == "o3", (health, step)


def test_the_door_rule_alone_sends_a_hurt_player_to_the_medkit_first() -> None:
    # The door's own rule, asked directly: below supplies.FRESH with a gunman about, the
    # known medkit on this storey; nearly whole, or with nobody armed seen, nothing.
    from agents.reference import doors
    from agents.reference.memory import Memory

    def asked(health: float, characters: list[dict[str, Any]]) -> Any:
        observation = _observation(health, characters, [PANEL, MEDKIT])
        mem = Memory()
        mem.update(observation)
        return doors.fresh_for_door(mem)

    step = asked(0.82, [_guard("c5", 1600.0)])
    assert step is not None and step[1]["object_id"] == "o3", step
    assert "before opening" in step[2]
    assert asked(0.9, [_guard("c5", 1600.0)]) is None
    assert asked(0.82, []) is None


def test_the_panel_is_pressed_at_once_when_fresh() -> None:
    # Nearly whole, with a guard about or nobody armed seen: the panel is pressed
    # straight away.
    for health, characters in ((0.95, [_guard("c5", 1600.0)]), (0.95, [])):
        step = _decide(health, characters)
        assert step[0] == "go_to_object" and step[1]["object_id"] == "o2", (health, step)


def test_a_calm_player_below_the_calm_mark_tops_up_before_the_panel() -> None:
    # Nobody in sight, health under supplies.CALM_MARK (0.9), a medkit known: the next
    # room's guard is met fresh.
    step = _decide(0.82, [])
    assert step[0] == "go_to_object" and step[1]["object_id"] == "o3", step
    assert step[2].startswith("healing up"), step


CAMERA = {**PANEL, "id": "o4", "kind": "camera", "name": "camera",
          "position": [700.0, 0.0, 300.0], "area": "a1", "distance": 762.0,
          "facing_deg": 90.0, "view_angle_deg": 60.0, "view_range": 900.0}


def test_a_camera_in_reach_is_shot_out_before_a_calm_walk_to_a_medkit() -> None:
    # An alarm is allowed (no quiet objective), yet the alarm brings soldiers: hurt, with
    # nobody in sight, the camera goes before the walk to the medkit crosses its view.
    from agents.reference import brain

    def decide(characters: list[dict[str, Any]]) -> tuple[str, dict[str, Any], str]:
        observation = _observation(0.6, characters, [CAMERA, MEDKIT])
        observation["last_result"] = None
        observation["view"]["doors"] = []
        return brain.Brain().decide(observation, {})

    step = decide([])
    assert step[0] == "shoot_object" and step[1]["object_id"] == "o4", step
    # A gunman in sight comes first: the camera waits for a calm moment.
    step = decide([_guard("c5", 600.0, "in_combat")])
    assert step[0] != "shoot_object", step


def _spare_kit(health: float) -> tuple[str, dict[str, Any], str]:
    # A closed door ahead, a medkit lying a step before it on this side: the walk that
    # opens the door would pass over it.
    from agents.reference import doors
    from agents.reference.memory import Memory

    kit = {**MEDKIT, "position": [250.0, 0.0, 60.0], "area": "a1", "distance": 257.0}
    observation = _observation(health, [], [kit])
    observation["last_result"] = None
    mem = Memory()
    mem.update(observation)
    return doors.spare_kit(mem, ("go_to_object", {"object_id": "d1"}, "opening door d1"))


def test_a_door_beside_a_medkit_is_opened_from_its_other_side_when_only_grazed() -> None:
    # Grazed: the medkit is left for after the fight behind the door; the door is opened
    # from a spot beside it on the side away from the medkit, out of the medkit's reach.
    step = _spare_kit(0.9)
    assert step[0] == "go_to" and "leaving medkit o3" in step[2], step
    assert step[1]["z"] < 0 and step[1]["x"] < 200.0, step
    assert ((step[1]["x"] - 250.0) ** 2 + (step[1]["z"] - 60.0) ** 2) ** 0.5 > 100.0
    # Unhurt (the walk leaves it lying anyway) or hurt enough to want it now: no detour.
    for health in (1.0, 0.6):
        assert _spare_kit(health)[0] == "go_to_object", health


def test_a_medkit_a_step_off_is_taken_mid_fight_once_half_spent() -> None:
    from tests.reference_views import fight_step, hostile, observation, pistol, thing

    def step(health: float) -> Any:
        obs = observation([thing("o5", "medkit", 100.0, area="a1")],
                          carried=[pistol(24, 8)])
        obs["view"]["player"].update(health=health, in_hand="o1")
        obs["view"]["characters"] = [hostile("c1", 650.0, armed=True, health=1.0)]
        return fight_step(obs)

    assert step(0.35)[:2] == ("go_to_object", {"object_id": "o5"}), step(0.35)
    assert step(0.8)[0] == "attack", step(0.8)
