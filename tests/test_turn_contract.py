"""One turn, one contract (36): every driver plays the world through `Session.step`."""

from __future__ import annotations

import inspect
import re
import typing

import world.actions.driver as driver
import world.actions.routes as routes
from tests.shared import ROOT, shipped
from world.face import Session, Turn, WorldFault, new_session


def _session() -> Session:
    return new_session(shipped("outpost"), "normal", 7)


def test_the_factory_returns_the_session_type_not_any() -> None:
    hints = typing.get_type_hints(new_session)
    assert hints["return"] is Session


def test_a_step_is_a_whole_turn_with_the_view_built_inside() -> None:
    session = _session()
    start = session.turn
    assert start.tick == 0 and start.result is None and start.fault is None
    assert start.view["player"]["alive"] and start.report is not None
    turn = session.step({"action": "wait", "arguments": {"seconds": 1}})
    assert isinstance(turn, Turn) and turn is session.turn
    assert turn.tick == 30 and turn.result is not None and turn.fault is None
    assert turn.state_hash != start.state_hash and not turn.status.ended


def test_a_refusal_is_a_typed_fault_and_changes_nothing() -> None:
    session = _session()
    before = session.step({"action": "wait", "arguments": {"seconds": 1}})
    refused = session.step({"action": "pick_up", "arguments": {"object_id": "o99"}})
    assert refused.fault == WorldFault("unknown_id", refused.fault.message)
    assert "o99" in refused.fault.message and refused.result is None
    assert (refused.tick, refused.state_hash) == (before.tick, before.state_hash)
    assert session.step(None).view == refused.view  # no action: the same moment again


def test_actions_are_configured_on_the_world_not_in_module_tables() -> None:
    session = _session()
    world = session.world  # type: ignore[attr-defined]
    assert world.planning.mind is session.known  # type: ignore[attr-defined]
    for module in (routes, driver):
        source = inspect.getsource(module)
        assert "WeakKeyDictionary" not in source, module.__name__


def test_no_driver_in_the_harness_acts_or_looks_but_through_step() -> None:
    # The view is built inside the world's step: a driver calling act or view itself
    # would bring back the rule that one must look before acting. (The harness names
    # the world it drives `game`; `harness play`'s session is an agent's side.)
    calls = re.compile(r"\bgame\.(act\(|view\(\))")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "harness").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if calls.search(line)]
    assert found == []
