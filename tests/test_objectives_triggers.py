"""The per-tick shortcut of the objectives system: its table covers every kind."""

from world.objectives.base import DONE, TODO
from world.objectives.registry import VERIFIERS
from world.objectives.triggers import (
    CLOCK,
    EVENTS,
    PLAYER,
    READS,
    SYSTEM_READS,
    WAKES,
    reads,
    wakes,
)
from world.sim.events import EVENT_KINDS


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


def test_every_objective_kind_says_which_events_it_reads():
    assert set(READS) == set(VERIFIERS)
    declared = set(EVENT_KINDS)
    for kinds in READS.values():
        assert kinds is None or kinds <= declared
    assert declared >= SYSTEM_READS


def test_open_objectives_and_the_system_decide_what_is_read():
    assert reads([]) == SYSTEM_READS
    assert reads([_State("no_alarm", TODO), _State("gadget_on_object", DONE)]) == (
        SYSTEM_READS | {"alarm_raised"})
    assert reads([_State("survive", TODO), _State("no_alarm", TODO)]) is None
    assert reads([_State("not_a_kind", TODO)]) is None
    assert "shot_fired" not in reads([_State(k, TODO) for k in READS if READS[k] is not None])
