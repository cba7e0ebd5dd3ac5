"""The reference agent's errands between fights: cameras, gadgets and ways out explored.

Each test folds hand-made observations into the agent's memory and asks for its next
decision, so they run in milliseconds; whole episodes live in test_reference_agent.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agents.reference.memory import Memory

from tests import reference_views as rv


def test_a_camera_next_door_is_shot_from_a_doorway_outside_its_view() -> None:
    from agents.reference import brain
    from agents.reference.memory import Memory

    camera = {**rv.thing("o2", "camera", 600.0), "position": [600.0, 0.0, -150.0],
              "facing_deg": 270.0, "view_angle_deg": 60.0, "view_range": 800.0}
    way = {"id": "w1", "to": "a2", "to_name": "Next room", "via": "door", "door": "d1",
           "position": [500.0, 0.0, 0.0], "visited": False, "one_way": False,
           "other_storey": False, "distance": 500.0}
    observation = rv.observation([camera])
    observation["view"]["area"]["ways_out"] = [way]
    mem = Memory()
    mem.update(observation)
    # The camera looks away from the doorway (toward -z): the doorway is a safe spot.
    step = brain._doorway_shot(mem, camera)
    assert step is not None and step[0] == "go_to"
    assert (step[1]["x"], step[1]["z"]) == (500.0, 0.0)
    # Facing the doorway, the camera would see the player there: no such step.
    assert brain._doorway_shot(mem, {**camera, "facing_deg": 100.0}) is None


def _beside_a_ledge(distance: float) -> Memory:
    """A memory of a room whose one way out, a ledge `distance` ahead, is not visited."""
    from agents.reference.memory import Memory

    mem = Memory()
    observation = rv.observation([])
    ledge = {"id": "w1", "to": "a2", "to_name": "Ledge", "via": "opening", "door": None,
             "position": [distance, 0.0, 0.0], "visited": False, "one_way": False,
             "other_storey": False, "distance": distance}
    observation["view"]["area"]["ways_out"] = [ledge]
    mem.update(observation)
    return mem


def test_exploring_does_not_walk_to_where_it_stands_for_a_way_it_could_not_take() -> None:
    from agents.reference.moves import explore

    mem = _beside_a_ledge(30.0)
    # Through the way and a walk past it were both tried from here and went nowhere.
    mem.fail(("go_to_area", {"exit_id": "w1"}, ""), 3)
    mem.fail(("go_to", {"x": 190.0, "z": 0.0}, ""), 3)
    decision = explore(mem)
    assert decision is None or mem.distance([decision[1].get("x", 1e9), 0.0,
                                             decision[1].get("z", 0.0)]) > 40, decision


def test_a_walk_past_a_way_out_that_never_enters_is_given_up() -> None:
    from agents.reference.moves import PAST_TRIES, through

    mem = _beside_a_ledge(300.0)
    ledge = mem.view["area"]["ways_out"][0]
    mem.fail(("go_to_area", {"exit_id": "w1"}, ""), 3)
    walks = []
    for turn in range(PAST_TRIES + 2):
        # Each walk past it "arrives" somewhere new, and the player is still in a1.
        mem.view["player"]["position"] = [turn * 40.0, 0.0, turn * 25.0]
        walks.append(through(mem, ledge, "exploring"))
    assert all(w is not None and w[0] == "go_to" for w in walks[:PAST_TRIES])
    assert walks[PAST_TRIES:] == [None, None]


def test_a_camera_waits_while_a_gunman_is_after_the_player() -> None:
    from agents.reference import brain

    pistol = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 8, "loaded": 8,
              "weapon": "pistol"}
    camera = {**rv.thing("o2", "camera", 900.0), "state": None, "facing_deg": 180.0,
              "view_angle_deg": 60.0, "view_range": 800.0}
    quiet = {"index": 1, "status": "todo", "counts": True, "kind": "no_alarm", "targets": []}
    observation = rv.observation([camera], [quiet], [pistol])
    observation["view"]["player"]["in_hand"] = "o1"
    observation["view"]["characters"] = [rv.hostile("c1", 900.0, armed=True, health=1.0)]
    player = brain.Brain()
    player.mem.update(observation)
    # A long shot at the camera under his fire would empty the magazine for his duel.
    assert player._cameras_first(stealth=True) is None
    observation["view"]["characters"] = []
    player.mem.update(observation)
    step = player._cameras_first(stealth=True)
    assert step is not None and step[0] == "shoot_object"


def test_a_gadget_is_drawn_only_near_its_object() -> None:
    from agents.reference import plans
    from agents.reference.memory import Memory

    pistol = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 8, "weapon": "pistol"}
    copier = {"id": "o2", "kind": "gadget", "name": "copier", "ammo": None, "weapon": None}
    copy = {"index": 1, "status": "todo", "counts": True, "kind": "gadget_on_object",
            "targets": ["o4", "o2"]}
    quiet = {"index": 2, "status": "todo", "counts": True, "kind": "no_alarm", "targets": []}

    def step(distance: float, objectives: list[dict]) -> tuple:
        mem = Memory()
        console = rv.thing("o4", "computer", distance, objective=True)
        mem.update(rv.observation([console], objectives, [pistol, copier]))
        return plans.gadget_on_object(mem, copy)

    # Far off, the walk goes gun in hand, holding its fire, in short legs: a guard come
    # into view is shot at from a standstill at the next look; the gadget waits.
    far = step(1200.0, [copy])
    assert far[0] == "go_to" and far[1]["fire_on_way"] is False
    assert far[1]["time_limit_s"] == plans.GADGET_LEG
    assert (far[1]["x"], far[1]["z"]) == (1200.0, 0.0)
    # A few steps away, the gadget is used.
    assert step(200.0, [copy])[0] == "use_item_on"
    # While an alarm must not sound, the errand's walk is left as it was (see `quietly`).
    assert step(1200.0, [copy, quiet])[0] == "use_item_on"


def test_a_place_to_come_back_to_is_not_walked_to_while_it_waits_on_another() -> None:
    # "Come back out to where you started" follows the copy: standing in the start room
    # with it still to do shows it waits (the view does not say on what), so the walk
    # back is put off until an objective's status changes.
    from agents.reference import plans
    from agents.reference.memory import Memory

    copy = {"index": 1, "status": "todo", "counts": True, "kind": "gadget_on_object",
            "targets": []}
    back = {"index": 2, "status": "todo", "counts": True, "kind": "reach_area",
            "targets": [], "area": "a1", "area_name": "Room", "point": [0.0, 0.0, 0.0]}
    away = rv.observation([], [copy, back])
    away["view"]["area"] = {"id": "a2", "name": "Hall", "storey": "ground",
                            "ways_out": [{**rv.WAY_BACK, "to": "a1", "to_name": "Room"}]}
    mem = Memory()
    mem.update(rv.observation([], [copy, back]))
    assert plans.reach_area(mem, back) is None  # standing in it: nothing to walk to
    mem.update(away)
    assert plans.reach_area(mem, back) is None  # it still waits on the copy
    done = rv.observation([], [{**copy, "status": "done"}, back])
    done["view"]["area"] = away["view"]["area"]
    mem.update(done)
    step = plans.reach_area(mem, back)
    assert step is not None and "reach Room" in step[2]
