"""`harness tools`: the action tools in each function-calling dialect, each tool checked
against the dialect's documented rules (tests/tool_dialects.py)."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from harness.cli import main
from harness.core.tracks import TRACKS, TrackSpec
from harness.mcp.tools_cmd import DIALECTS, tools
from tests.tool_dialects import CHECKERS, check_openai_strict
from world.actions.catalog import catalog


def _sample(schema: dict) -> object:
    # The smallest value the schema takes, for the required arguments of each action.
    kind = schema.get("type")
    if kind in ("number", "integer"):
        if "minimum" in schema:
            return schema["minimum"]
        return schema.get("exclusiveMinimum", -1) + 1
    if kind == "string" and str(schema.get("pattern", "")).startswith("^[0-9]"):
        return "0"  # a code's digits
    if kind == "string":
        return "a" * max(1, schema.get("minLength", 1))
    return True


def _arguments(action) -> dict:
    schema = action.arguments_schema()
    return {k: _sample(schema["properties"][k]) for k in schema["required"]}


@pytest.mark.parametrize("track", list(TRACKS))
@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_every_dialect_follows_its_rules(dialect, track):
    listed = tools(dialect, track)
    names = [a.name for a in TrackSpec(track).actions()]
    assert len(listed) == len(names)
    assert [CHECKERS[dialect](tool) for tool in listed] == [[] for _ in names]


def test_the_openai_dialect_is_what_start_sends():
    # The start message's tools are the track's actions' definitions (harness/episode/turns.py).
    assert tools("openai") == catalog().tool_definitions()
    assert tools("openai", "raw") == [a.tool_definition() for a in TrackSpec("raw").actions()]


def test_the_strict_checker_refuses_the_plain_schemas():
    plain = tools("openai")[0]
    plain = {**plain, "function": {**plain["function"], "strict": True}}
    problems = " ".join(check_openai_strict(plain))
    assert "every property must be required" in problems
    assert "'minimum' is not supported" in problems


@pytest.mark.parametrize("action", TrackSpec("macro").actions(), ids=lambda a: a.name)
def test_strict_schemas_take_the_same_arguments(action):
    original = Draft202012Validator(action.arguments_schema())
    strict_tool = next(t for t in tools("openai-strict")
                       if t["function"]["name"] == action.name)
    strict = Draft202012Validator(strict_tool["function"]["parameters"])
    arguments = _arguments(action)
    # A strict model fills every optional argument with null; dropping those nulls
    # gives arguments the action schema takes.
    filled = {k: arguments.get(k) for k in strict_tool["function"]["parameters"]["required"]}
    assert list(strict.iter_errors(filled)) == []
    assert list(original.iter_errors({k: v for k, v in filled.items() if v is not None})) == []
    assert list(strict.iter_errors({**filled, "extra": 1}))
    # A bound strict mode cannot state is restated in the description.
    for name, prop in action.arguments_schema()["properties"].items():
        if "maximum" in prop:
            described = strict_tool["function"]["parameters"]["properties"][name]
            assert f"at most {prop['maximum']}" in described["description"]


@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_the_command_prints_the_dialect(dialect, capsys):
    assert main(["tools", "--format", dialect]) == 0
    assert json.loads(capsys.readouterr().out) == tools(dialect)
