"""The per-tick shortcut of the objectives system: its table covers every kind."""

from world.objectives.base import DONE, TODO
from world.objectives.registry import VERIFIERS
from world.objectives.triggers import CLOCK, EVENTS, PLAYER, WAKES, wakes


class _State:
    def __init__(self, kind: str, status: str) -> None:
        self.objective = type("O", (), {"kind": kind})()
        self.status = status


def test_every_objective_kind_says_what_wakes_it():
    assert set(WAKES) == set(VERIFIERS)
    assert set(WAKES.values()) <= {EVENTS, PLAYER, CLOCK}


def test_the_strongest_open_objective_decides():
    assert wakes([]) == EVENTS
    assert wakes([_State("reach_area", TODO), _State("waypoints", TODO)]) == PLAYER
    assert wakes([_State("survive", DONE), _State("reach_area", TODO)]) == EVENTS
    assert wakes([_State("survive", TODO), _State("waypoints", TODO)]) == CLOCK
    assert wakes([_State("not_a_kind", TODO)]) == CLOCK
