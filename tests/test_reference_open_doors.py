"""The reference agent at a door already open: it does not ask to open it for ever.

A Doom record (E1M1, seed 1) showed the loop: the way through a door stuck once, the
agent asked to open the door, the answer was "The door is open." without a step moved,
and it asked again until the decision budget ran out.
"""

from __future__ import annotations

from tests.test_reference_agent import _observation


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
