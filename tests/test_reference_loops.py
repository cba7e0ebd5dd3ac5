"""The reference agent does not repeat a step that changes nothing until the budget ends.

Doom records of E1M1 showed two such loops: asking to open a door already open where
the player stood ("The door is open.", nothing moved), and walking back and forth
between two ways out of one room that it had given up passing.
"""

from __future__ import annotations

from tests.reference_views import observation as _observation


def test_a_door_already_open_is_not_asked_open_again_and_again() -> None:
    from agents.reference import brain

    door = {"id": "d1", "position": [3.0, 0.0, 0.0], "between": ["a1", "a2"],
            "state": "open", "needs_key": False, "key": None, "distance": 3.0}
    way = {"id": "w1", "to": "a2", "to_name": "Room", "via": "door", "door": "d1",
           "position": [3.0, 0.0, 0.0], "visited": False, "one_way": False,
           "other_storey": False, "distance": 3.0}
    observation = _observation([])
    observation["view"]["area"].update(ways_out=[way], windows=[])
    observation["view"]["player"].update(facing_deg=0.0, alive=True)
    observation["view"]["doors"] = [door]
    player = brain.Brain()
    open_again = {"action": "go_to_object", "end_reason": "arrived",
                  "detail": "The door is open.", "changes": [], "distance_moved": 0.0}
    stuck = {"action": "go_to_area", "end_reason": "stuck",
             "detail": "Did not get through the way out.", "changes": [],
             "distance_moved": 28.0}
    decisions = [player.decide(observation, {})]
    for _ in range(6):
        last = stuck if decisions[-1][0] == "go_to_area" else open_again
        decisions.append(player.decide({**observation, "last_result": last}, {}))
    asks = [d for d in decisions if d[0] == "go_to_object" and d[1]["object_id"] == "d1"]
    assert len(asks) <= 2, decisions
    # The way is tried otherwise: a walk past the door.
    assert any(d[0] == "go_to" for d in decisions), decisions


def test_ways_out_given_up_here_are_not_walked_between() -> None:
    from agents.reference.memory import Memory
    from agents.reference.moves import PAST_TRIES, explore

    def way(wid: str, x: float) -> dict:
        return {"id": wid, "to": f"a{wid}", "to_name": "Room", "via": "opening",
                "door": None, "position": [x, 0.0, 0.0], "visited": False,
                "one_way": False, "other_storey": False, "distance": abs(x)}

    mem = Memory()
    observation = _observation([])
    observation["view"]["area"].update(ways_out=[way("w1", 300.0), way("w2", -300.0)],
                                       windows=[])
    mem.update(observation)
    for wid in ("w1", "w2"):
        # Going through failed, and so did every walk past it.
        mem.fail(("go_to_area", {"exit_id": wid}, ""), 3)
        mem.failures[("past", wid)] = PAST_TRIES
    assert explore(mem) is None
