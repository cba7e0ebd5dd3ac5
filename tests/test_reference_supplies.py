"""The reference agent's supplies: which pickups it remembers, heals with and rearms from.

Each test folds hand-made observations into the agent's memory and asks for its next
decision, so they run in milliseconds; whole episodes live in test_reference_agent.py.
"""

from __future__ import annotations

from tests import reference_views as rv


def test_memory_keeps_pickups_between_the_cap_and_far_objective_targets() -> None:
    from agents.reference.memory import VIEW_CAP, Memory

    mem = Memory()
    mem.update(rv.observation([rv.thing("o99", "ammo", 1500.0)]))
    # Later the view lists the cap's worth of nearer things and, beyond the cap, an
    # objective target farther than the box: the box is merely crowded out, not taken.
    near = [rv.thing(f"o{i}", "panel", 100.0 * (i + 1)) for i in range(VIEW_CAP)]
    mem.update(rv.observation([*near, rv.thing("o50", "computer", 3000.0, objective=True)]))
    assert "o99" in mem.objects
    # A box nearer than the cap-th listed thing and missing from the list is gone.
    mem.update(rv.observation([rv.thing("o98", "ammo", 50.0)]))
    mem.update(rv.observation(near))
    assert "o98" not in mem.objects


def test_rounds_elsewhere_wait_for_hand_work_in_this_room() -> None:
    from agents.reference import supplies
    from agents.reference.memory import Memory

    pistol = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 8, "weapon": "pistol"}
    camera = {"id": "o2", "kind": "gadget", "name": "camera", "ammo": None, "weapon": None}
    box = {**rv.thing("o3", "ammo", 2000.0), "weapon": "pistol"}
    photo = {"index": 1, "status": "todo", "counts": True, "kind": "gadget_on_object",
             "targets": ["o4", "o2"]}
    prop = rv.thing("o4", "prop", 300.0, objective=True, area="a1")
    mem = Memory()
    mem.update(rv.observation([prop, box], [photo], [pistol, camera]))
    assert supplies.heal(mem, 0.3) is None  # the photograph here comes first
    mem.update(rv.observation([prop, box], [{**photo, "status": "done"}], [pistol, camera]))
    step = supplies.heal(mem, 0.3)
    assert step is not None and step[1]["object_id"] == "o3"


def test_an_empty_gun_is_refilled_before_other_errands() -> None:
    from agents.reference import supplies
    from agents.reference.memory import Memory

    empty = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 0, "weapon": "pistol"}
    box = {**rv.thing("o3", "ammo", 2000.0), "weapon": "pistol"}
    mem = Memory()
    mem.update(rv.observation([box], carried=[empty]))
    # One walk to the box was stopped by a shut door: with nothing loaded it is tried again.
    mem.fail(("go_to_object", {"object_id": "o3"}, "rearming"))
    step = supplies.heal(mem, 0.3)
    assert step is not None and step[1]["object_id"] == "o3"


def test_a_walk_to_a_pickup_that_ran_out_of_time_goes_on_to_the_same_one() -> None:
    from agents.reference import supplies
    from agents.reference.memory import Memory

    far, near = rv.thing("o5", "medkit", 900.0), rv.thing("o6", "medkit", 400.0)
    mem = Memory()
    observation = rv.observation([far, near])
    observation["view"]["player"]["health"] = 0.2
    mem.update(observation)
    assert supplies.heal(mem, 0.3)[1]["object_id"] == "o6"
    # Walking to the farther one ran out of time: it is kept, not swapped for the other.
    mem.last_decision = ("go_to_object", {"object_id": "o5"}, "healing up")
    observation["last_result"] = {"action": "go_to_object", "end_reason": "gave_up",
                                  "detail": "", "changes": [], "distance_moved": 500.0}
    mem.update(observation)
    assert supplies.heal(mem, 0.3)[1]["object_id"] == "o5"


def test_a_medkit_that_gave_a_point_or_two_is_passed_over_when_healing() -> None:
    from agents.reference import supplies
    from agents.reference.memory import Memory

    bonus, other, kit = (rv.thing("o1", "medkit", 100.0), rv.thing("o2", "medkit", 200.0),
                         rv.thing("o3", "medkit", 600.0))
    for row in (bonus, other):
        row["name"] = "health bonus"
    kit["name"] = "medikit"
    mem = Memory()
    observation = rv.observation([bonus, other, kit])
    observation["view"]["player"]["health"] = 0.2
    mem.update(observation)
    assert supplies.heal(mem, 0.3)[1]["object_id"] == "o1"  # nearest, its worth not known yet
    mem.last_decision = ("go_to_object", {"object_id": "o1"}, "healing up")
    observation = rv.observation([other, kit])
    observation["view"]["player"]["health"] = 0.21
    observation["last_result"] = {"action": "go_to_object", "end_reason": "arrived",
                                  "detail": "Took it.", "distance_moved": 100.0,
                                  "changes": ["you gained 1 health", "1 items picked up"]}
    mem.update(observation)
    assert "health bonus" not in mem.trifles  # one pickup's net gain may be a walk's cost
    mem.objects["o1"] = bonus
    mem.update(observation)
    # Two of one point of health: the other trinket of that name is not worth the walk.
    assert supplies.heal(mem, 0.3)[1]["object_id"] == "o3"
    # A medkit that topped the player up to full says nothing of what it holds.
    observation = rv.observation([kit])
    observation["last_result"] = {"action": "go_to_object", "end_reason": "arrived",
                                  "detail": "Took it.", "distance_moved": 100.0,
                                  "changes": ["you gained 2 health"]}
    mem.last_decision = ("go_to_object", {"object_id": "o2"}, "healing up")
    observation["view"]["player"]["health"] = 1.0
    mem.objects["o2"] = {**other, "name": "medikit"}
    mem.gains["medikit"] = [2]  # one small gain already: a second would mark the name
    mem.update(observation)
    assert "medikit" not in mem.trifles


def test_few_rounds_left_are_topped_up_between_fights() -> None:
    from agents.reference import fight
    from agents.reference.memory import Memory

    pistol = {"id": "o1", "kind": "weapon", "name": "pistol", "ammo": 8, "loaded": 4,
              "weapon": "pistol"}
    box = {**rv.thing("o3", "ammo", 1200.0), "weapon": "pistol"}
    shells = {**rv.thing("o4", "ammo", 300.0), "weapon": "shotgun"}
    observation = rv.observation([box, shells], carried=[pistol])
    mem = Memory()
    mem.update(observation)
    # Twelve rounds: the box of pistol rounds is fetched; the nearer shells fit no gun.
    step = fight.rearm_between_fights(mem, 500.0, 0.5)
    assert step is not None and step[1]["object_id"] == "o3"
    # With plenty left the box is no detour worth taking.
    observation["view"]["player"]["carried"] = [{**pistol, "ammo": 40}]
    mem.update(observation)
    assert fight.rearm_between_fights(mem, 500.0, 0.5) is None
