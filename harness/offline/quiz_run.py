"""Asking a question set: one agent process, one `question` line out and one `answer` line back.

The agent runs as it does in an episode (harness.agent.process with the episode's sandbox
and bounds: scrubbed environment, memory limit, line limit, deadlines kept by the parent),
and the question file (which holds the answer key) is hidden from it. Where each
question's right option stands is drawn from a key the agent never sees (`arranged`):
fresh for each run unless the operator gives one, and printed in the report once the
agent has gone, so a run can be repeated. A bad answer line
is counted wrong and named in the report; an answer to an earlier question that timed
out is dropped; an agent that exits leaves the rest unanswered, counted wrong. Accuracy
per kind carries a 95% Wilson interval (the suite's own).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.agent.process import (
    AgentLaunchError,
    AgentProcess,
    Eof,
    Line,
    LineTooLong,
    NotUtf8,
    Timeout,
)
from harness.agent.sandbox import plan
from harness.compare.results import wilson_interval
from harness.core.protocol import PROTOCOL_VERSION, Fault, encode, parse_agent_line
from harness.episode.settings import RunSettings
from harness.offline.quiz_kinds import QUESTION_KINDS

# Problems listed in full in a report; the rest are counted.
MAX_PROBLEMS_SHOWN = 50


@dataclass
class Tally:
    """Right answers and questions asked, per kind, and what went wrong."""

    right: dict[str, int] = field(default_factory=dict)
    asked: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def count(self, kind: str, correct: bool) -> None:
        """Count one question of a kind."""
        self.asked[kind] = self.asked.get(kind, 0) + 1
        self.right[kind] = self.right.get(kind, 0) + int(correct)


def new_key() -> bytes:
    """A fresh secret order key (16 random bytes)."""
    return secrets.token_bytes(16)


def _keyed(key: bytes, *parts: str) -> random.Random:
    digest = hmac.new(key, "/".join(parts).encode("utf-8"), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def arranged(questions: list[dict[str, Any]], key: bytes) -> list[dict[str, Any]]:
    """The questions with their options in the order an agent is sent them under a key.

    Kind by kind in file order, each block of four questions puts its right options at
    the four places in an order drawn from the key, and each question's wrong options are
    shuffled by the key: always picking one place scores a quarter (to within one
    block's remainder), and neither the question file, its ids nor its text tells where
    the right option is without the key.
    """
    out = list(questions)
    for kind in QUESTION_KINDS:
        where = [n for n, q in enumerate(questions) if q["kind"] == kind]
        for start in range(0, len(where), 4):
            block = where[start:start + 4]
            places = [0, 1, 2, 3]
            _keyed(key, kind, *(questions[n]["id"] for n in block)).shuffle(places)
            for n, place in zip(block, places, strict=False):
                q = questions[n]
                right = q["options"][q["answer"]]
                wrong = [o for i, o in enumerate(q["options"]) if i != q["answer"]]
                _keyed(key, q["id"], "wrong").shuffle(wrong)
                out[n] = {**q, "options": [*wrong[:place], right, *wrong[place:]],
                          "answer": place}
    return out


def question_message(question: dict[str, Any], observation: bool) -> dict[str, Any]:
    """The line sent for one question: no answer key, the observation only when asked."""
    return {"type": "question", "protocol_version": PROTOCOL_VERSION, "id": question["id"],
            "kind": question["kind"], "prompt": question["prompt"],
            "options": question["options"],
            "observation": question["observation"] if observation else None}


def _line_problem(event: object, limit: int) -> str:
    if isinstance(event, LineTooLong):
        return f"the line is longer than {limit} bytes"
    if isinstance(event, NotUtf8):
        return "the line is not UTF-8"
    return f"unexpected {type(event).__name__}"


def _await_answer(proc: AgentProcess, question: dict[str, Any], earlier: set[str],
                  settings: RunSettings, end_by: float) -> tuple[int | None, str | None, bool]:
    """(choice, problem, agent gone) for one question."""
    deadline = min(time.monotonic() + settings.decision_timeout_s, end_by)
    while True:
        event = proc.read_line(deadline)
        if isinstance(event, Timeout):
            if deadline >= end_by:
                return None, (f"the set's time limit ({settings.episode_timeout_s:g} s) "
                              "ran out"), False
            return None, f"no answer within {settings.decision_timeout_s:g} s", False
        if isinstance(event, Eof):
            return None, f"the agent exited (status {event.returncode})", True
        if not isinstance(event, Line):
            return None, _line_problem(event, settings.max_line_bytes), False
        parsed = parse_agent_line(event.text, "answer")
        if isinstance(parsed, Fault):
            return None, f"{parsed.code}: {parsed.message}", False
        said = parsed.message["id"]
        if said in earlier:
            continue  # a late answer to a question already counted wrong
        if said != question["id"]:
            return None, f"answered question {said[:80]!r}, not this one", False
        return int(parsed.message["choice"]), None, False


def ask(quiz: dict[str, Any], quiz_path: Path, command: str, settings: RunSettings,
        log_path: Path, observation: bool = True, key: bytes | None = None
        ) -> dict[str, Any]:
    """Ask every question of a set, in file order, and score the answers.

    The options are sent in the order `arranged` draws from `key` (a fresh one when
    None); the report names the key.

    Raises:
        harness.agent.process.AgentLaunchError: The agent cannot be started, or the
            sandbox is required and cannot be made.
    """
    sandbox = plan(settings.agent_memory_mb, (quiz_path.resolve(),), settings.agent_network,
                   **settings.sandbox_limits())
    if settings.require_sandbox and not sandbox.bubblewrap:
        raise AgentLaunchError(f"--require-sandbox: the agent cannot be sandboxed: "
                               f"{sandbox.reason}")
    key = new_key() if key is None else key
    tally = Tally()
    earlier: set[str] = set()
    end_by = time.monotonic() + settings.episode_timeout_s
    with AgentProcess.start(command, stderr_path=log_path,
                            stderr_cap_bytes=settings.stderr_cap_bytes,
                            env_passthrough=settings.env_passthrough,
                            max_line_bytes=settings.max_line_bytes, sandbox=sandbox) as proc:
        gone = False
        for question in arranged(quiz["questions"], key):
            choice: int | None = None
            problem: str | None = "not asked: the agent had exited"
            if not gone:
                proc.send_line(encode(question_message(question, observation)))
                choice, problem, gone = _await_answer(proc, question, earlier, settings, end_by)
            earlier.add(question["id"])
            tally.count(question["kind"], choice == question["answer"])
            if problem:
                tally.problems.append(f"question {question['id']}: {problem}")
        isolation = proc.isolation
    return {**report(tally, observation, isolation), "order_key": key.hex()}


def _figures(right: int, asked: int) -> dict[str, Any]:
    low, high = wilson_interval(right, asked)
    return {"asked": asked, "right": right, "accuracy": right / asked if asked else None,
            "ci95": [low, high]}


def report(tally: Tally, observation: bool, isolation: dict[str, Any]) -> dict[str, Any]:
    """Accuracy per kind and overall with 95% Wilson intervals, and the problems."""
    kinds = {k: _figures(tally.right.get(k, 0), tally.asked.get(k, 0))
             for k in QUESTION_KINDS if tally.asked.get(k)}
    return {"observation": observation, "kinds": kinds,
            "all": _figures(sum(tally.right.values()), sum(tally.asked.values())),
            "problems": tally.problems[:MAX_PROBLEMS_SHOWN],
            "problems_not_shown": max(0, len(tally.problems) - MAX_PROBLEMS_SHOWN),
            "isolation": isolation}


def markdown(result: dict[str, Any]) -> str:
    """The report as a Markdown table with the problems below it."""
    rows = ["| kind | right / asked | accuracy | 95% interval |", "|---|---|---|---|"]
    for name, f in [*result["kinds"].items(), ("all", result["all"])]:
        share = "-" if f["accuracy"] is None else f"{f['accuracy']:.3f}"
        rows.append(f"| {name} | {f['right']} / {f['asked']} | {share} | "
                    f"{f['ci95'][0]:.3f} to {f['ci95'][1]:.3f} |")
    seen = "with" if result["observation"] else "without"
    lines = [f"Asked {seen} observations; options in the order of key "
             f"{result.get('order_key', '-')}.", "", *rows]
    if result["problems"]:
        lines += ["", "Problems:", *(f"- {p}" for p in result["problems"])]
    if result["problems_not_shown"]:
        lines.append(f"- and {result['problems_not_shown']} more")
    return "\n".join(lines)
