"""Everything derived from the declarations: the action schema, shared enums, PROTOCOL.md tables.

Run `python3 -m harness.docgen.protocol` to rewrite schemas/messages/action.schema.json,
schemas/messages/enums.schema.json and the generated tables in PROTOCOL.md and docs/rl.md
after the action catalogue or a protocol table changes; a test fails while they are out of
step.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from harness.agent.limits import LIMITS
from harness.compare.results import MAX_RESULTS_BYTES, NAME_CHARS
from harness.core.bounds import MAX_DEPTH
from harness.core.claims import UNVERIFIED
from harness.core.protocol import (
    AGENT_VERSIONS,
    ERROR_CODES,
    MESSAGE_TYPES,
    OUTCOMES,
    USAGE_FIELDS,
)
from harness.core.record import MAX_RECORD_BYTES, MAX_RECORD_LINES
from harness.core.tracks import TRACKS
from harness.docgen.fields import MESSAGES, field_table
from harness.docgen.messages import MESSAGES_PY
from harness.docgen.messages import render as message_types
from harness.episode.snapshot import MAX_SNAPSHOT_BYTES, MAX_TICKS_PER_BUDGET
from harness.episode.subtask import CHAIN_ORDERS
from harness.offline.quiz_file import MAX_QUIZ_BYTES
from harness.offline.quiz_kinds import QUESTION_KINDS
from harness.rl.tables import rl_tables
from world.face import (
    ALERT_LEVELS,
    CARRIED_KINDS,
    DOOR_STATE_MEANINGS,
    MAX_LEVEL_BYTES,
    MAX_NESTING,
    OBJECT_KINDS,
    OBJECT_STATES,
    SCHEMA_DIR,
    VERIFIERS,
    ActionSpec,
    catalog,
    level_schema,
)

PROTOCOL_MD = SCHEMA_DIR.parent / "PROTOCOL.md"
RL_MD = SCHEMA_DIR.parent / "docs" / "rl.md"


def enums_schema() -> dict[str, Any]:
    """The shared enumerations other message schemas refer to."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "enums.schema.json",
        "title": "Shared enumerations (generated from the declarations; do not edit)",
        "$defs": {
            "outcome": {"enum": list(OUTCOMES)},
            "error_code": {"enum": list(ERROR_CODES)},
            "end_reason": {"enum": list(catalog().end_reason_names)},
            "action_name": {"enum": list(catalog().action_names)},
            "alertness": {"enum": [level.name for level in ALERT_LEVELS]},
            "objective_kind": {"enum": list(VERIFIERS)},
            "object_kind": {"enum": list(OBJECT_KINDS)},
            "object_state": {"enum": [*OBJECT_STATES, None]},
            "door_state": {"enum": list(DOOR_STATE_MEANINGS)},
            "carried_kind": {"enum": list(CARRIED_KINDS)},
            "question_kind": {"enum": list(QUESTION_KINDS)},
            "chain_order": {"enum": list(CHAIN_ORDERS)},
        },
    }


def _every_action() -> list[ActionSpec]:
    # The actions of every track, each once: the macro catalogue, then raw controls.
    seen: dict[str, ActionSpec] = {}
    for track in TRACKS.values():
        for spec in track.actions():
            seen.setdefault(spec.name, spec)
    return list(seen.values())


def action_schema() -> dict[str, Any]:
    """The action message schema: the envelope plus one branch per declared action."""
    usage = {
        "type": "object",
        "description": "Self-reported usage for this decision; leave a figure out (or null) "
        "when unknown, since a missing figure is not zero.",
        "properties": {
            f.name: {"type": ["number", "null"], "minimum": 0, "maximum": f.most,
                     "description": f.meaning}
            for f in USAGE_FIELDS.values()
        },
        "additionalProperties": False,
    }
    branches = [
        {
            "if": {"properties": {"action": {"const": spec.name}}},
            "then": {"properties": {"arguments": spec.arguments_schema()}},
        }
        for spec in _every_action()
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "action.schema.json",
        "title": "action (agent to harness; generated from the action catalogue, do not edit)",
        "type": "object",
        "properties": {
            "type": {"const": "action", "description": "The message type."},
            "protocol_version": {"enum": list(AGENT_VERSIONS),
                                 "description": "The protocol version the agent speaks: "
                                 "1, or 2 (notes, keypads and enter_code)."},
            "action": {"enum": [spec.name for spec in _every_action()],
                       "description": "The action's name (the actions table)."},
            "arguments": {"type": "object", "description": "The action's arguments, as its "
                          "tool definition in start gives them (the actions table)."},
            "notes": {"type": ["string", "null"], "maxLength": 20000,
                      "description": "Free text shown on run pages as the agent's own words."},
            "usage": {"anyOf": [usage, {"type": "null"}]},
        },
        "required": ["type", "protocol_version", "action", "arguments"],
        "additionalProperties": False,
        "allOf": branches,
    }


def _table(header: tuple[str, str], rows: list[tuple[str, str]]) -> str:
    lines = [f"| {header[0]} | {header[1]} |", "|---|---|"]
    lines += [f"| `{a}` | {b} |" for a, b in rows]
    return "\n".join(lines)


def _input_caps() -> list[tuple[str, str]]:
    # Every cap on a file an agent or a stranger may have made, from the constants that
    # enforce it; going over one is bad input (exit status 2, one line naming the file).
    def mib(n: int) -> str:
        return f"{n >> 20} MiB"

    steps = json.loads((SCHEMA_DIR / "record" / "snapshot.schema.json").read_text(
        encoding="utf-8"))["properties"]["steps"]["maxItems"]
    entries = ", ".join(f"{name} {sub['maxItems']:,}" for name, sub in
                        level_schema()["properties"].items() if "maxItems" in sub)
    return [
        ("record", f"{mib(MAX_RECORD_BYTES)} once inflated (read no further); "
                   f"{MAX_RECORD_LINES:,} lines; each line one JSON object with a `kind`, "
                   f"nested at most {MAX_DEPTH} deep; no blank line"),
        ("snapshot", f"{mib(MAX_SNAPSHOT_BYTES)}; {steps:,} steps, each an action of its "
                     f"track; its tick at most {MAX_TICKS_PER_BUDGET} times the level's "
                     "game-time budget, and restoring stops once the steps pass it"),
        ("results.json", f"{mib(MAX_RESULTS_BYTES)}; nested at most {MAX_DEPTH} deep; "
                         "each row's fields of their type (a real boolean, finite numbers); "
                         f"names shown cut to {NAME_CHARS} characters"),
        ("question file", f"{mib(MAX_QUIZ_BYTES)} once inflated; nested at most "
                          f"{MAX_DEPTH} deep"),
        ("level file", f"{mib(MAX_LEVEL_BYTES)} (checked before reading); nested at most "
                       f"{MAX_NESTING} deep; entries at most: {entries}"),
    ]


def _argument_list(spec: ActionSpec) -> str:
    parts = []
    for name in spec.parameters:
        mark = "" if name in spec.required else "?"
        parts.append(f"`{name}{mark}`")
    return ", ".join(parts)


def _objective_rows() -> list[tuple[str, str]]:
    # A standing condition holds until broken and is judged done when the mission succeeds.
    return [(name, f"{'standing' if verifier.standing else 'task'}: {verifier.description}")
            for name, verifier in VERIFIERS.items()]


def tables() -> dict[str, str]:
    """Each generated PROTOCOL.md table by its marker name."""
    actions = [(s.name, f"{s.summary} Arguments: {_argument_list(s)}.") for s in catalog().actions]
    return {
        "messages": _table(
            ("type", "sender: purpose"),
            [(m.name, f"{m.sender}: {m.summary}") for m in MESSAGE_TYPES.values()],
        ),
        "actions": _table(("action", "what it does"), actions),
        "end_reasons": _table(
            ("end_reason", "meaning"), [(r.name, r.summary) for r in catalog().end_reasons]
        ),
        "error_codes": _table(
            ("code", "meaning"), [(e.code, e.summary) for e in ERROR_CODES.values()]
        ),
        "outcomes": _table(
            ("outcome", "kind: meaning"),
            [(o.name, f"{o.kind}: {o.summary}") for o in OUTCOMES.values()],
        ),
        "agent_limits": _table(
            ("flag", "unit: what it bounds; how it is enforced; the kind of its ending"),
            [(lim.flag, f"{lim.unit}: {lim.bounds}; {lim.enforced_by}; kind `{lim.name}_limit`")
             for lim in LIMITS.values()],
        ),
        "alertness": _table(("alertness", "what the character does"),
                            [(a.name, a.meaning.capitalize() + ".") for a in ALERT_LEVELS]),
        "objective_kinds": _table(("objective kind", "task or standing: what finishes it"),
                                  _objective_rows()),
        "object_kinds": _table(("object kind", "what it is"), list(OBJECT_KINDS.items())),
        "object_states": _table(("object state", "meaning"), list(OBJECT_STATES.items())),
        "door_states": _table(("door state", "meaning"), list(DOOR_STATE_MEANINGS.items())),
        "carried_kinds": _table(("carried kind", "what it is for"), list(CARRIED_KINDS.items())),
        "question_kinds": _table(("question kind", "what it asks"),
                                 [(k.name, k.summary) for k in QUESTION_KINDS.values()]),
        "chain_orders": _table(("order", "meaning"), list(CHAIN_ORDERS.items())),
        "input_caps": _table(("file", "caps"), _input_caps()),
        "record_unverified": _table(("record field", "why replay takes it on the record's word"),
                                    list(UNVERIFIED.items())),
        **{f"fields_{message}": field_table(message, action_schema() if message == "action"
                                            else None) for message in MESSAGES},
        "usage": _table(("usage field", "meaning"),
                        [(f.name, f"{f.meaning} At most {f.most:g} a decision.")
                         for f in USAGE_FIELDS.values()]),
    }


# A block is its opening marker, any generated lines, and the closing marker.
_BLOCK = re.compile(r"(<!-- table:(\w+) -->\n)((?:(?!<!--).*\n)*?)(<!-- end table -->)")


def render_protocol_md(text: str) -> str:
    """PROTOCOL.md (or docs/rl.md) text with every generated table block rewritten."""
    generated = {**tables(), **rl_tables()}
    return _BLOCK.sub(lambda m: m.group(1) + generated[m.group(2)] + "\n" + m.group(4), text)


def generated_files() -> dict[Path, str]:
    """Every generated file and the text it should hold."""
    def dump(data: dict[str, Any]) -> str:
        return json.dumps(data, indent=2) + "\n"

    action, enums = action_schema(), enums_schema()
    out = {
        SCHEMA_DIR / "messages" / "action.schema.json": dump(action),
        SCHEMA_DIR / "messages" / "enums.schema.json": dump(enums),
        MESSAGES_PY: message_types({"action": action, "enums": enums}),
    }
    for doc in (PROTOCOL_MD, RL_MD):
        if doc.exists():
            out[doc] = render_protocol_md(doc.read_text(encoding="utf-8"))
    return out


def main() -> int:
    """Rewrite the generated files; print which changed."""
    for path, text in generated_files().items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"rewrote {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
