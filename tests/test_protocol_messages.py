"""The parser and the message schemas, from both sides of the channel."""

from __future__ import annotations

import io
import json

import pytest

from harness.agent.kit import action_message, run_agent
from harness.core.protocol import Fault, Parsed, parse_agent_line, schema_errors
from world.actions.catalog import catalog


def line(**fields) -> str:
    return json.dumps({"type": "action", "protocol_version": 1, **fields})


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("nope", "not_json"),
        ('{"type": "action", "x": NaN}', "non_finite_number"),
        ('{"type": "action", "x": -Infinity}', "non_finite_number"),
        ('{"type": "action", "x": 1e400}', "non_finite_number"),
        ("42", "not_an_object"),
        ('{"type": "chat"}', "unknown_type"),
        ('{"type": "hello", "protocol_version": 1, "name": "a", "version": "1"}',
         "unexpected_type"),
        (line(action="teleport", arguments={}), "unknown_action"),
        (line(action="go_to", arguments={"x": 1}), "bad_arguments"),
        (line(action="wait", arguments={"seconds": 1, "x": 2}), "bad_arguments"),
        (line(action="wait", arguments={"seconds": True}), "bad_arguments"),
        (line(action="wait", arguments={"seconds": 0}), "bad_arguments"),
        (line(action="wait", arguments={"seconds": 1}, usage={"input_tokens": -1}),
         "bad_message"),
        (line(action="wait", arguments={"seconds": 1}, mood="calm"), "bad_message"),
    ],
)
def test_faults_are_named(text: str, code: str) -> None:
    result = parse_agent_line(text, "action")
    assert isinstance(result, Fault), result
    assert result.code == code
    assert result.message


def test_usage_may_leave_figures_out_or_null() -> None:
    text = line(action="wait", arguments={"seconds": 1},
                usage={"input_tokens": 10, "cost_usd": None}, notes="hi")
    assert isinstance(parse_agent_line(text, "action"), Parsed)


def test_every_tool_definition_is_accepted_by_the_action_schema() -> None:
    for spec in catalog().actions:
        assert spec.tool_definition()["function"]["name"] == spec.name
    assert schema_errors("action", action_message("wait", {"seconds": 2}, "n")) == []


def test_agent_kit_speaks_valid_messages() -> None:
    start = {"type": "start", "protocol_version": 1, "seed": 1}
    obs = {"type": "observation", "turn": 0}
    summary = {"type": "summary"}
    stdin = io.StringIO("\n".join(json.dumps(m) for m in (start, obs, summary)) + "\n")
    stdout = io.StringIO()
    got = run_agent(lambda o, s: ("wait", {"seconds": 1}), name="t", version="1",
                    stdin=stdin, stdout=stdout)
    assert got == summary
    hello, action = (json.loads(x) for x in stdout.getvalue().splitlines())
    assert schema_errors("hello", hello) == []
    assert schema_errors("action", action) == []


def test_absurd_usage_figures_make_the_action_invalid() -> None:
    from harness.core.protocol import Fault, parse_agent_line

    for usage in ('{"cost_usd": 1e308}', '{"input_tokens": ' + "9" * 4000 + "}"):
        line = ('{"type": "action", "protocol_version": 1, "action": "wait", '
                '"arguments": {"seconds": 1}, "usage": ' + usage + "}")
        fault = parse_agent_line(line, "action")
        assert isinstance(fault, Fault) and fault.code == "bad_message"


@pytest.mark.parametrize("code", ["2604\n", "2604\n\n", "\n2604", "٢٦٠٤"])
def test_a_code_with_a_newline_or_other_digits_is_refused_as_the_schema_means(code) -> None:
    # Python's `$` also matches before a final newline; the schemas' `$` (ECMA-262) does
    # not: such a code is a malformed argument, never a try at the keypad.
    line = json.dumps({"type": "action", "protocol_version": 2, "action": "enter_code",
                       "arguments": {"object_id": "o3", "code": code}})
    parsed = parse_agent_line(line, "action", catalog().actions)
    assert isinstance(parsed, Fault) and parsed.code == "bad_arguments", parsed
    ok = json.dumps({"type": "action", "protocol_version": 2, "action": "enter_code",
                     "arguments": {"object_id": "o3", "code": "2604"}})
    assert isinstance(parse_agent_line(ok, "action", catalog().actions), Parsed)


def test_schema_dollar_means_the_end_of_the_string_outside_classes_and_escapes() -> None:
    from world.schema_validator import ecma_anchored
    assert ecma_anchored(r"^[a$]\$x$").pattern == r"^[a$]\$x\Z"
    assert ecma_anchored("^[0-9a-f]{64}$").search("a" * 64 + "\n") is None
    assert ecma_anchored("^[0-9a-f]{64}$").search("a" * 64)
