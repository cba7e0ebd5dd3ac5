"""Protocol v2: the message types, error codes and outcomes, each declared once, and the parser.

Every line an agent writes goes through `parse_agent_line`, which never raises on agent
input: it returns either a `Parsed` message or a `Fault` with a code from
`ERROR_CODES` and a sentence saying what was wrong. Schemas for every message live in
schemas/messages/; the action schema there is generated from the action catalogue by
`harness.docgen.protocol` (a test keeps the file and the catalogue in step).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Final, cast

from jsonschema.protocols import Validator
from referencing import Registry, Resource

from harness.core.bounds import (
    MAX_DEPTH,
    cap_message,
    clean_strings,
    may_hold_surrogates,
    quote,
    shorten_quoted,
    too_deep,
)
from harness.core.messages import ErrorCode as ErrorCodeName
from harness.core.messages import ObservationMessageError
from world.face import (
    MISSION_COMPLETED,
    MISSION_FAILED,
    MISSION_OUTCOMES,
    REFLEX_ARGUMENT,
    SCHEMA_DIR,
    SchemaValidator,
    catalog,
)

if TYPE_CHECKING:
    from world.face import ActionSpec

PROTOCOL_VERSION: Final = 3
# Versions an agent may speak in its hello and actions. Version 2 adds notes, keypads
# and the `enter_code` action (issue 37); a version 1 agent plays on, never using them.
# Version 3 is the reflex rule: the player shoots back only during a fighting action or
# one that asks (`return_fire`); an agent of an earlier version plays on without it.
AGENT_VERSIONS = (1, 2, 3)
# The first version under the reflex rule. A record made before it was played with return
# fire during every action, so its replay asks for it on every action that takes it.
REFLEX_RULE_VERSION = 3


@dataclass(frozen=True)
class MessageType:
    """One message type: who sends it and what it is for."""

    name: str
    sender: str
    summary: str


MESSAGE_TYPES: dict[str, MessageType] = {
    m.name: m
    for m in (
        MessageType("start", "harness", "Opens the episode: level, seed, brief, budgets, tools."),
        MessageType("hello", "agent", "The agent's reply to start: name, version, model."),
        MessageType("observation", "harness", "One turn's view: structured and text."),
        MessageType("action", "agent", "One macro action with arguments, notes and usage."),
        MessageType("summary", "harness", "Closes the episode: outcome, score, objectives."),
        MessageType("question", "harness",
                    "Offline track: a multiple-choice question built from a recorded run."),
        MessageType("answer", "agent", "Offline track: the option chosen for one question."),
    )
}


@dataclass(frozen=True)
class ErrorCode:
    """A way an agent's line can be wrong."""

    code: str
    summary: str


ERROR_CODES: dict[str, ErrorCode] = {
    e.code: e
    for e in (
        ErrorCode("not_json", "The line is not valid JSON."),
        ErrorCode("non_finite_number", "The line contains NaN or Infinity, which JSON forbids."),
        ErrorCode("not_an_object", "The line is JSON but not an object."),
        ErrorCode("unknown_type", "The type field is missing or names no message type."),
        ErrorCode("unexpected_type", "A known message type, but not the one expected now."),
        ErrorCode("bad_message", "The message breaks its schema outside the arguments."),
        ErrorCode("unknown_action", "The action names no declared macro action."),
        ErrorCode("bad_arguments", "Arguments missing, extra, of the wrong type or out of range."),
        ErrorCode("unknown_id", "An id in the arguments does not exist in this episode."),
        ErrorCode("refused_request", "The world refused the request (e.g. nothing to equip)."),
        ErrorCode("line_too_long", "The line is longer than the line limit."),
        ErrorCode("not_utf8", "The line is not valid UTF-8 text."),
        ErrorCode("extra_lines", "More than one line was written in one turn (warning only)."),
    )
}


@dataclass(frozen=True)
class UsageField:
    """One figure an agent may report about a decision's cost (the action's `usage`)."""

    name: str
    meaning: str
    most: float  # the largest value one decision may report


# The bounds keep a self-reported figure from overflowing totals (a 1e308 cost) or
# bloating records; a figure beyond its bound makes the action invalid (bad_message).
USAGE_FIELDS: dict[str, UsageField] = {
    f.name: f
    for f in (
        UsageField("input_tokens", "Prompt tokens, cached ones included.", 1e9),
        UsageField("cached_input_tokens", "Prompt tokens served from a cache.", 1e9),
        UsageField("output_tokens", "Generated tokens, reasoning included.", 1e9),
        UsageField("reasoning_tokens", "Generated tokens spent on hidden reasoning.", 1e9),
        UsageField("cost_usd", "Dollars spent on this decision.", 1e4),
    )
}


@dataclass(frozen=True)
class Outcome:
    """One way an episode can end; `kind` keeps terminated, truncated and aborted apart.

    `by_harness` marks the endings that say nothing of the agent (the harness failed or
    was stopped): a suite counts them apart and leaves them out of the agent's figures.
    """

    name: str
    kind: str
    summary: str
    by_harness: bool = False  # says nothing of the agent: left out of its figures


# Outcome names, each written once: the code compares and builds endings with these
# (a test holds them equal to `OUTCOMES`). The two of a mission ended in the world are
# the world's own.
COMPLETED: Final = MISSION_COMPLETED
FAILED: Final = MISSION_FAILED
CHAIN_PLAYED: Final = "chain_played"
TRUNCATED: Final = "truncated"
AGENT_TIMEOUT: Final = "agent_timeout"
AGENT_CRASHED: Final = "agent_crashed"
RESOURCE_LIMIT: Final = "resource_limit"
PROTOCOL_ERROR: Final = "protocol_error"
HARNESS_ERROR: Final = "harness_error"
INTERRUPTED: Final = "interrupted"

# Outcome kinds: a mission that ended, a budget that ran out, an episode cut short.
TERMINATED_KIND = "terminated"
TRUNCATED_KIND = "truncated"
ABORTED_KIND = "aborted"

# A mission ended in the world ends as one of the world's outcomes (declared there); the
# rest are the ways an episode ends outside the world.
OUTCOMES: dict[str, Outcome] = {
    o.name: o
    for o in (
        *(Outcome(name, TERMINATED_KIND, summary) for name, summary in MISSION_OUTCOMES.items()),
        Outcome(CHAIN_PLAYED, TERMINATED_KIND,
                "Stepwise track: every subtask of the chain had its turn (the summary's "
                "stepwise says how each went)."),
        Outcome(TRUNCATED, TRUNCATED_KIND, "A decision or game-time budget ran out first."),
        Outcome(AGENT_TIMEOUT, ABORTED_KIND,
                "The agent was silent past a wall-clock deadline."),
        Outcome(AGENT_CRASHED, ABORTED_KIND, "The agent exited or closed its output early."),
        Outcome(RESOURCE_LIMIT, ABORTED_KIND,
                "The agent went past one of its limits (processes, disk, CPU time); the reason "
                "names the limit and its flag."),
        Outcome(PROTOCOL_ERROR, ABORTED_KIND,
                "No valid hello, or too many bad actions in a row."),
        Outcome(HARNESS_ERROR, ABORTED_KIND,
                "The harness itself failed; the record says where.", by_harness=True),
        Outcome(INTERRUPTED, ABORTED_KIND,
                "The harness was stopped by a signal (SIGINT, SIGTERM, SIGHUP) before the episode "
                "ended.",
                by_harness=True),
    )
}


@dataclass(frozen=True)
class Parsed:
    """A well-formed message from the agent."""

    message: dict[str, Any]


@dataclass(frozen=True)
class Fault:
    """A line that is not an acceptable message, with a code and a plain-words message."""

    code: str
    message: str

    def __post_init__(self) -> None:
        if self.code not in ERROR_CODES:
            raise ValueError(f"undeclared error code {self.code!r}")
        # However a message was built, it goes into the record and to the agent bounded.
        object.__setattr__(self, "message", cap_message(self.message))

    def to_dict(self) -> ObservationMessageError:
        """The fault as JSON data: {"code", "message"}."""
        # The code was checked against ERROR_CODES when the fault was made.
        return {"code": cast(ErrorCodeName, self.code), "message": self.message}


@cache
def _registry() -> tuple[Registry, dict[str, dict[str, Any]]]:
    # Every message and record schema, by its $id, so they can refer to each other.
    by_name: dict[str, dict[str, Any]] = {}
    registry: Registry = Registry()
    for folder in ("messages", "record", "offline"):
        for path in sorted((SCHEMA_DIR / folder).glob("*.schema.json")):
            schema = json.loads(path.read_text(encoding="utf-8"))
            by_name[path.name.removesuffix(".schema.json")] = schema
            registry = registry.with_resource(schema["$id"], Resource.from_contents(schema))
    return registry, by_name


@cache
def validator(name: str) -> Validator:
    """A compiled validator for a message type, a record line or an offline-track file.

    Args:
        name: The schema's file name without ".schema.json" (a message type; header,
            turn or end; quiz or pyramid).

    Returns:
        The validator, resolving references between the schema files.
    """
    registry, by_name = _registry()
    return SchemaValidator(by_name[name], registry=registry)


@cache
def _validator_but_views(name: str) -> Validator:
    # The observation schema with its view left open: the largest part of a turn line,
    # and one replay compares whole with the view the world builds again.
    registry, by_name = _registry()
    observation = by_name["observation"]
    open_view = {**observation, "properties": {**observation["properties"], "view": True}}
    registry = registry.with_resource(observation["$id"], Resource.from_contents(open_view))
    return SchemaValidator(by_name[name], registry=registry)


def schema_errors(name: str, data: Any, *, views: bool = True) -> list[str]:
    """Every violation of a schema, as "$.path: message" lines (empty when valid).

    Args:
        name: A message type, or a record line schema name (header, turn, end).
        data: The decoded JSON data.
        views: False leaves observations' views unchecked, for a caller that compares
            each one whole with a view the world builds (replay): a view equal to the
            world's is valid, and checking it is most of the cost of a turn line.

    Returns:
        Sorted violation lines.
    """
    out = []
    check = validator(name) if views else _validator_but_views(name)
    for err in check.iter_errors(data):
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.path)
        out.append(cap_message(f"{where}: {shorten_quoted(err.message, err.instance)}"))
    return sorted(out)


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    # 1e999 parses to infinity without ever being spelt "Infinity".
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a JSON number (it overflows to infinity)")
    return value


def decode_line(text: str) -> Parsed | Fault:
    r"""Decode one line into a JSON object with a known type, without schema checks.

    Args:
        text: The line as the agent wrote it.

    Returns:
        `Parsed` or a `Fault` (not_json, non_finite_number, not_an_object, unknown_type).
        Unpaired surrogates in its strings are spelt out as `\udxxx` text.
    """
    if too_deep(text):
        # Refused unparsed: the parser recurses once per level of nesting.
        return Fault("not_json", f"arrays and objects nest deeper than {MAX_DEPTH} levels; "
                     f"the line starts {quote(text[:80])}")
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except ValueError as exc:
        if "not a JSON number" in str(exc):
            return Fault("non_finite_number", f"{exc}; send finite numbers only")
        return Fault("not_json", f"the line is not JSON ({exc}): {quote(text, 160)}")
    if may_hold_surrogates(text):
        data = clean_strings(data)
    if not isinstance(data, dict):
        return Fault("not_an_object", f"expected a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGE_TYPES:
        allowed = ", ".join(MESSAGE_TYPES)
        return Fault("unknown_type", f"type {quote(kind)} is not a message type ({allowed})")
    return Parsed(data)


def parse_agent_line(text: str, expected: str, actions: Sequence[ActionSpec] | None = None
                     ) -> Parsed | Fault:
    """Decode and schema-check one line the agent wrote when `expected` was due.

    Args:
        text: The line without its newline.
        expected: "hello", "action" or (offline track) "answer".
        actions: The actions the episode's track takes (default: the macro catalogue).

    Returns:
        `Parsed` with the message, or a `Fault` naming the first problem.
    """
    decoded = decode_line(text)
    if isinstance(decoded, Fault):
        return decoded
    data = decoded.message
    if data["type"] != expected:
        return Fault("unexpected_type", f"expected a {expected} message, got {quote(data['type'])}")
    if expected == "action":
        fault = _action_fault(data, actions)
        if fault is not None:
            return fault
    errors = schema_errors(expected, data)
    if errors:
        return Fault("bad_message", "; ".join(errors[:3]))
    return decoded


def step_fault(step: dict[str, Any], actions: Sequence[ActionSpec] | None) -> Fault | None:
    """Why a stored step or recorded action is not one an agent could have had run.

    The step is {"action", "arguments"}, checked against the track's actions; None when
    it passes. Snapshots and records are files anyone may write: their steps are checked as the
    agent's lines were before the world is asked to run them.
    """
    return _action_fault(step, actions)


def _action_fault(data: dict[str, Any], actions: Sequence[ActionSpec] | None) -> Fault | None:
    # Checked before the whole-message schema so the agent is told which action and
    # which argument is wrong, not that a oneOf failed somewhere.
    specs = {a.name: a for a in (catalog().actions if actions is None else actions)}
    names = tuple(specs)
    name = data.get("action")
    if not isinstance(name, str) or name not in names:
        return Fault("unknown_action",
                     f"{quote(name)} is not an action; actions: {', '.join(names)}")
    args = data.get("arguments", {})
    if not isinstance(args, dict):
        return Fault("bad_arguments", "arguments must be a JSON object")
    spec = specs[name]
    errors = list(SchemaValidator(spec.arguments_schema()).iter_errors(args))
    if errors:
        first = min(errors, key=lambda e: list(map(str, e.path)))
        where = ".".join(str(p) for p in first.path)
        prefix = f"{name}: argument {where}: " if where else f"{name}: "
        return Fault("bad_arguments", prefix + shorten_quoted(first.message, first.instance))
    return None


def encode(message: Mapping[str, Any]) -> str:
    """One message as a compact JSON line (no newline; NaN refused).

    Args:
        message: The message, with `type` and `protocol_version`.

    Returns:
        The JSON text.
    """
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def as_played(action: dict[str, Any], version: int) -> dict[str, Any]:
    """A recorded action as the world plays it today, for a record of this protocol version.

    Records made before the reflex rule (`REFLEX_RULE_VERSION`) were played with return
    fire during every action: their actions ask for it explicitly, so they replay alike.
    """
    if version >= REFLEX_RULE_VERSION:
        return action
    spec = catalog().action(action["action"]) if action["action"] in catalog().action_names \
        else None
    if spec is None or REFLEX_ARGUMENT not in spec.parameters:
        return action
    return {**action, "arguments": {**action["arguments"], REFLEX_ARGUMENT: True}}
