"""One turn, one contract (36): every driver plays the world through `Session.step`."""

from __future__ import annotations

import inspect
import re
import typing

import numpy as np
import pytest

import world.actions.driver as driver
import world.actions.routes as routes
from tests.shared import ROOT, TEST_SECRET, shipped
from world.face import (
    RAW_ACTION,
    RAW_CONTROLS,
    RawGame,
    Session,
    Turn,
    WorldFault,
    new_raw_session,
    new_session,
)
from world.turn import Later


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


def _controls(session: RawGame, steps: int) -> Turn:
    turn = session.turn
    for i in range(steps):
        arguments = {name: (2 if name == "move" else 1 if i % 3 else 0) if name in (
            "move", "turn") else 0 for name in RAW_CONTROLS}
        turn = session.step({"action": RAW_ACTION, "arguments": arguments})
    return turn


def test_a_lean_turn_builds_view_status_and_hash_only_when_asked() -> None:
    # The Raw environment's session (36, 39): a step holds the controls and carries the
    # arrays and the player's report; the rest is built at that moment if asked.
    eager = new_raw_session(shipped("exit_switch"), "easy", 3)
    lean = new_raw_session(shipped("exit_switch"), "easy", 3, lean=True)
    a, b = _controls(eager, 12), _controls(lean, 12)
    assert isinstance(b.view_, Later) and isinstance(b.state_hash_, Later)
    assert isinstance(b.result_, Later) and isinstance(b.status_, Later)
    assert a.tick == b.tick == 48 and a.report == b.report
    assert all((a.raw[k] == b.raw[k]).all() for k in a.raw)
    assert b.state_hash == a.state_hash == lean.state_hash()
    assert b.status == a.status and b.result is not None
    assert b.result["ticks"] == a.result["ticks"] == 4
    assert b.view["player"] == a.view["player"]


def test_a_lean_turn_refuses_to_build_its_parts_after_the_next_step() -> None:
    lean = new_raw_session(shipped("exit_switch"), "easy", 3, lean=True)
    old = _controls(lean, 2)
    kept = old.state_hash  # asked at its moment: kept
    _controls(lean, 1)
    assert old.state_hash == kept
    with pytest.raises(RuntimeError, match="before the next step"):
        old.view  # noqa: B018


def test_the_raw_environment_plays_through_the_sessions_step() -> None:
    pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")
    from harness.rl.raw_env import RawEnv

    env = RawEnv(level="exit_switch", secret=TEST_SECRET)
    obs, _ = env.reset(seed=0)
    start = env.live.turn
    obs, *_ = env.step(np.array([2, 1, 2, 0, 0, 0]))
    turn = env.live.turn
    assert turn is not start and turn.tick == 4 and env.live.lean
    assert all((obs[k] == turn.raw[k]).all() for k in obs)
    assert not hasattr(env.live, "hold")  # no way round the contract


def test_malformed_controls_raise_and_leave_the_latest_turn_as_it_was() -> None:
    lean = new_raw_session(shipped("exit_switch"), "easy", 3, lean=True)
    turn = _controls(lean, 2)
    bad = {name: 0 for name in RAW_CONTROLS} | {"move": 7}
    with pytest.raises(ValueError, match="'move' is 7"):
        lean.step({"action": RAW_ACTION, "arguments": bad})
    assert lean.turn is turn and turn.tick == lean.tick == 8
    assert turn.state_hash == lean.state_hash()  # still this moment's to build
