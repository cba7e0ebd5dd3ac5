"""Question sets: built from records, written as gzip JSON, read back and checked against records.

A question carries its provenance (the record's play hash, level, difficulty, seed, turn
and goal), so `check` finds the record it came from, builds the question again and
re-derives its answer key from the record's own turns. The observation a question shows
is the one the agent saw at that turn, with the two wall-clock figures (which differ
from run to run and with the run's settings) replaced by the default limits, so a rebuilt
set is the same byte for byte.

A set holds each question's options sorted by their text, so the file's order says
nothing; where the right one stands when an agent is asked is drawn at run time from a
secret key (`harness.offline.quiz_run.arranged`).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from harness.core.bounds import MAX_DEPTH, TooLargeError, read_capped, too_deep
from harness.core.protocol import schema_errors
from harness.core.record import Record, RecordError
from harness.episode.settings import RunSettings
from harness.episode.text_view import render_text_view
from harness.offline.pyramid import Pyramid, pyramid, read_checked
from harness.offline.quiz_kinds import QUESTION_KINDS, Question, seeded

DEFAULTS = RunSettings()
QUIZ_VERSION = 2
QUIZ_SCHEMA = "quiz"
# A question set is read whole; anything larger is not one.
MAX_QUIZ_BYTES = 256 << 20


class QuizError(Exception):
    """A question set or record that cannot be used, with a message naming it."""


def offline_observation(record: Record, turn: int) -> dict[str, Any]:
    """The observation of a turn as a question shows it: the view and its text."""
    obs = json.loads(json.dumps(record.turns[turn]["observation"]))
    obs["budgets"]["episode_wall_s_left"] = DEFAULTS.episode_timeout_s
    obs["budgets"]["decision_timeout_s"] = DEFAULTS.decision_timeout_s
    return {"turn": turn, "text": render_text_view(obs)}


def record_questions(record: Record, pyr: Pyramid | None = None) -> list[Question]:
    """Every question one record gives, kind by kind, in a stable order."""
    if record.interrupted:
        return []
    pyr = pyr or pyramid(record)
    header = record.header
    out = []
    for kind in QUESTION_KINDS.values():
        units = kind.units(pyr)
        seeded(pyr.record, kind.name, "pick").shuffle(units)
        made = 0
        for unit in units:
            if made == kind.per_record:
                break
            number = getattr(unit, "turn", None)
            number = getattr(unit, "number", number)
            q = kind.make(record, pyr, unit, seeded(pyr.record, kind.name, number))
            if q is None:
                continue
            made += 1
            out.append({
                "id": f"{kind.name}-{pyr.record[:12]}-{number}",
                "kind": kind.name,
                "provenance": {"record": pyr.record, "level": header.get("level"),
                               "difficulty": header.get("difficulty"),
                               "seed": header.get("seed"), "turn": q["turn"], "goal": q["goal"]},
                "prompt": q["prompt"],
                "observation": offline_observation(record, q["turn"]),
                "options": sorted(q["options"]),
                "answer": sorted(q["options"]).index(q["options"][q["answer"]]),
            })
    return sorted(out, key=lambda q: (list(QUESTION_KINDS).index(q["kind"]), q["id"]))


def build(paths: Iterable[Path]) -> dict[str, Any]:
    """A question set from records (files or run directories), in the order given."""
    sources, questions = [], []
    seen: set[str] = set()
    for path in paths:
        record = load_record(path)
        pyr = pyramid(record)
        if pyr.record in seen:
            continue
        seen.add(pyr.record)
        made = record_questions(record, pyr)
        sources.append({"record": pyr.record, "level": record.header.get("level"),
                        "difficulty": record.header.get("difficulty"),
                        "seed": record.header.get("seed"), "questions": len(made)})
        questions += made
    return {"quiz_version": QUIZ_VERSION, "records": sources,
            "questions": questions}


def _same_question(a: Question, b: Question) -> bool:
    # A question as its record gives it and as the set holds it: the same but for the
    # order of the options (a set written by an older build may hold another).
    def plain(q: Question) -> dict[str, Any]:
        return {**q, "options": sorted(q["options"]), "answer": q["options"][q["answer"]]}
    return plain(a) == plain(b)


def load_record(path: Path) -> Record:
    """A finished record, or a QuizError naming the file."""
    try:
        record = read_checked(path)
    except RecordError as exc:
        raise QuizError(str(exc)) from None
    if record.interrupted:
        raise QuizError(f"{path}: an interrupted run (no end line, or the outcome "
                        "interrupted) proves nothing to ask about")
    return record


def write(quiz: dict[str, Any], out: Path) -> None:
    """Write a set as gzip JSON (mtime 0: the same set gives the same bytes)."""
    text = json.dumps(quiz, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    with open(out, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                               mtime=0) as gz:
        gz.write(text.encode("utf-8"))


def read(path: Path) -> dict[str, Any]:
    """Read and validate a set (gzip or plain JSON); QuizError names what is wrong."""
    try:
        text = read_capped(path, MAX_QUIZ_BYTES).decode("utf-8")
        if too_deep(text):
            raise QuizError(f"{path}: nested deeper than {MAX_DEPTH} levels; not a question set")
        quiz = json.loads(text)
    except TooLargeError:
        raise QuizError(f"{path}: larger than {MAX_QUIZ_BYTES} bytes; not a question set") \
            from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise QuizError(f"{path}: not a readable question set ({exc})") from None
    errors = schema_errors(QUIZ_SCHEMA, quiz)
    if errors:
        raise QuizError(f"{path}: not a question set: " + "; ".join(errors[:3]))
    ids = [q["id"] for q in quiz["questions"]]
    if len(set(ids)) != len(ids):
        raise QuizError(f"{path}: question ids repeat")
    return dict(quiz)


def _truth(question: Question, pyr: Pyramid) -> str | None:
    # The right option re-derived from the record's own pyramid, by the kind's rule.
    where = question["provenance"]
    turn = where["turn"]
    op = pyr.operations[turn] if turn < len(pyr.operations) else None
    # A question asked about an operation is checked against the goal holding it.
    goal = next((g for g in pyr.goals if g.number == where["goal"] or
                 (where["goal"] is None and turn in g.turns)), None)
    if op is None or op.action is None or goal is None or turn not in goal.turns:
        return None
    return QUESTION_KINDS[question["kind"]].truth(pyr, op, goal)


def check(quiz: dict[str, Any], paths: Iterable[Path]) -> tuple[int, list[str]]:
    """Check every question's answer key against the record it came from.

    Returns:
        (questions checked, problems): each problem names the question and what differs.
    """
    records: dict[str, tuple[Record, Pyramid]] = {}
    for path in paths:
        record = load_record(path)
        pyr = pyramid(record)
        records[pyr.record] = (record, pyr)
    problems = []
    rebuilt: dict[str, dict[str, Question]] = {}
    for q in quiz["questions"]:
        key = q["provenance"]["record"]
        if key not in records:
            problems.append(f"question {q['id']}: no record given has play hash {key[:12]}...")
            continue
        record, pyr = records[key]
        truth = _truth(q, pyr)
        if truth is None or q["options"][q["answer"]] != truth:
            problems.append(f"question {q['id']}: the key says option {q['answer']} "
                            f"({q['options'][q['answer']][:120]!r}), the record's turn "
                            f"{q['provenance']['turn']} says {str(truth)[:120]!r}")
            continue
        if q["options"].count(truth) != 1:
            problems.append(f"question {q['id']}: the right option appears more than once")
        if key not in rebuilt:
            rebuilt[key] = {r["id"]: r for r in record_questions(record, pyr)}
        again = rebuilt[key].get(q["id"])
        if again is None or not _same_question(again, q):
            problems.append(f"question {q['id']}: differs from the question its record gives")
    return len(quiz["questions"]), problems
