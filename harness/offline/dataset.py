"""Supervised fine-tuning rows from finished runs, in the chat-completions format.

Each executed action of a record becomes one row (schemas/offline/chat_row.schema.json):
system = the rules and the mission (the start message's brief and budgets), user = the
turn's text view, assistant = the action as one tool call (its notes as the words), tool
= how the action ended, in one sentence (harness.episode.result_words). Rows are split into train
and validation by level variant, so the two splits never share one: a shipped level's
variant is its id, a generated level's its template and level seed (its content hash
for a level of a secret set, whose seed is not recorded), and the split is a hash of
the variant (the same variant always falls on the same side).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema.protocols import Validator

from harness.core.protocol import schema_errors
from harness.core.record import Record, RecordError, find_records, is_run_dir, read_record
from harness.episode.result_words import result_sentence
from world.face import SCHEMA_DIR, SchemaValidator

SPLITS = ("train", "validation")
ROW_SCHEMA = SCHEMA_DIR / "offline" / "chat_row.schema.json"

# The rules every row's system message opens with: how the conversation goes, not how
# to play (the brief says what to do).
RULES = (
    "You play a mission in a 3D game through a text interface. Each turn you are shown "
    "what the player character can see and know, and you answer with exactly one tool "
    "call: the next macro action. Use the ids the observation shows; one tool call is one "
    "decision, and decisions are limited. The tool's answer says how the action ended.")


@dataclass(frozen=True)
class Rejected:
    """A record left out, and why, in one line."""

    path: Path
    reason: str

    def line(self) -> str:
        """The one line that says it."""
        return f"{self.path}: {self.reason}"


@cache
def _row_validator() -> Validator:
    return SchemaValidator(json.loads(ROW_SCHEMA.read_text(encoding="utf-8")))


def row_errors(row: Mapping[str, Any]) -> list[str]:
    """What breaks the row schema in a row (empty when it is valid)."""
    return [f"{'/'.join(map(str, e.absolute_path)) or 'row'}: {e.message}"
            for e in _row_validator().iter_errors(row)]


def variant(header: Mapping[str, Any]) -> str:
    """The level variant a record plays: the level id, or for a generated level TEMPLATE@SEED.

    A level of a secret held-out set has no recorded seed: its variant is its template
    and its content hash, which tells one level from another as the seed would.
    """
    generated = header.get("generated")
    if not isinstance(generated, Mapping):
        return str(header.get("level"))
    if "seed" in generated:
        return f"{generated.get('template')}@{generated.get('seed')}"
    return f"{generated.get('template')}@content:{str(header.get('level_hash'))[:16]}"


def split_of(level_variant: str, validation_share: float) -> str:
    """The split of a variant: a hash of its name below the share goes to validation."""
    digest = hashlib.sha256(level_variant.encode("utf-8")).digest()
    return "validation" if int.from_bytes(digest[:8], "big") / 2**64 < validation_share \
        else "train"


def system_message(start: Mapping[str, Any]) -> str:
    """The rules, then the mission as the start message gives it."""
    budgets = ", ".join(f"{k.replace('_', ' ')} {v}"
                        for k, v in (start.get("budgets") or {}).items())
    return (f"{RULES}\n\nMission: {start.get('title')} ({start.get('level')}), difficulty "
            f"{start.get('difficulty')}.\nBrief: {start.get('brief')}\nBudgets: {budgets}.")


def rows_of(record: Record, validation_share: float) -> list[dict[str, Any]]:
    """One row per executed action of a finished record, in turn order."""
    header, end = record.header, record.end or {}
    summary = end.get("summary") or {}
    start = header["start"]
    level_variant = variant(header)
    meta = {"level": str(header["level"]), "variant": level_variant,
            "difficulty": str(header["difficulty"]), "seed": int(header["seed"]),
            "split": split_of(level_variant, validation_share),
            "agent": str((header.get("hello") or {}).get("name") or "unknown"),
            "outcome": str(summary.get("outcome")), "score": float(summary.get("score") or 0)}
    system = system_message(start)
    rows = []
    for turn in record.turns:
        action, result = turn.get("action"), turn.get("result")
        if action is None or result is None:  # refused or never sent: nothing was played
            continue
        call_id = f"call_{turn['turn']}"
        rows.append({
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": turn["observation"]["text"]},
                {"role": "assistant", "content": str(action.get("notes") or ""),
                 "tool_calls": [{"id": call_id, "type": "function", "function": {
                     "name": action["action"],
                     "arguments": json.dumps(action["arguments"], sort_keys=True)}}]},
                # Only the public result keys are read: what the next observation shows.
                {"role": "tool", "tool_call_id": call_id,
                 "content": result_sentence(result, None)},
            ],
            "tools": start["tools"],
            "metadata": {**meta, "turn": int(turn["turn"])},
        })
    return rows


def record_paths(paths: Iterable[str | Path]) -> list[Path]:
    """The records named: files and run directories as given, other folders searched."""
    out: list[Path] = []
    for path in map(Path, paths):
        out += find_records(path) if path.is_dir() and not is_run_dir(path) else [path]
    return out


def read_finished(path: Path, verify: bool) -> Record | Rejected:
    """A record fit for rows: readable, schema-valid, finished (and replayed, with verify)."""
    try:
        record = read_record(path)
    except RecordError as exc:
        return Rejected(path, str(exc))
    for line in (record.header, *record.turns, *([record.end] if record.end else [])):
        errors = schema_errors(line.get("kind", "header"), line)
        if errors:
            where = "header" if line is record.header else f"turn {line.get('turn')}"
            return Rejected(path, f"{where} breaks schemas/record: {errors[0]}")
    if record.interrupted:
        return Rejected(path, "not a finished run (no end line, or interrupted)")
    if verify:
        # start-up cost: replay loads the world, and only --verify needs it
        from harness.episode.replay import replay

        try:
            report = replay(path)
        except Exception as exc:  # a level that is gone, a record replay refuses
            return Rejected(path, f"replay failed: {exc}")
        if not report.verified:
            return Rejected(path, f"replay did not verify it: {report.divergence}")
    return record


def _checked_rows(record: Record, validation_share: float) -> list[dict[str, Any]] | Rejected:
    # A schema-valid record can still hold what no chat row may (an empty text view, a
    # start without tools): the record is left out, never a row written that breaks.
    try:
        made = rows_of(record, validation_share)
    except (KeyError, TypeError, ValueError) as exc:
        return Rejected(record.path, f"cannot be made into rows ({type(exc).__name__}: {exc})")
    for row in made:
        errors = row_errors(row)
        if errors:
            return Rejected(record.path, f"turn {row['metadata']['turn']} makes a row that "
                            f"breaks the row schema: {errors[0]}")
    return made


def build(paths: Iterable[str | Path], validation_share: float = 0.2, verify: bool = False
          ) -> tuple[dict[str, list[dict[str, Any]]], list[Record], list[Rejected]]:
    """Rows by split from the records named, the records used and those left out."""
    rows: dict[str, list[dict[str, Any]]] = {s: [] for s in SPLITS}
    found_rows: list[tuple[tuple[str, str, int, str, int], list[dict[str, Any]]]] = []
    used: list[Record] = []
    rejected: list[Rejected] = []
    for order, path in enumerate(record_paths(paths)):
        found = read_finished(path, verify)
        if isinstance(found, Rejected):
            rejected.append(found)
            continue
        made = _checked_rows(found, validation_share)
        if isinstance(made, Rejected):
            rejected.append(made)
            continue
        used.append(found)
        if made:
            m = made[0]["metadata"]
            found_rows.append(((m["variant"], m["difficulty"], m["seed"], m["agent"], order),
                               made))
    # Episodes in a stable order whatever the order of the paths' listing.
    for _key, made in sorted(found_rows, key=lambda pair: pair[0]):
        for row in made:
            rows[row["metadata"]["split"]].append(row)
    return rows, used, rejected
