"""The reference agent asks for return fire wherever the tools in start take it (37)."""

from __future__ import annotations

from agents.reference.reflex import with_reflex
from world.actions.catalog import catalog, reflex_on

START = {"tools": catalog().tool_definitions()}


def test_every_action_but_the_fighting_ones_asks_for_the_reflex() -> None:
    for spec in catalog().actions:
        action, args, _ = with_reflex((spec.name, {}, "why"), START)
        # What the world then does: return fire during every action the agent sends.
        assert reflex_on(action, args), spec.name
        assert ("return_fire" in args) == (spec.name not in ("attack", "shoot_object"))


def test_a_start_without_the_argument_leaves_decisions_as_they_are() -> None:
    decision = ("wait", {"seconds": 1.0}, "why")
    assert with_reflex(decision, {"tools": []}) == decision
    assert not reflex_on(*decision[:2])
