"""Blind answerers of the offline track: rules that pick an option from its surface alone.

Each rule scores the four options of a `question` message from their text, the prompt's
and what earlier questions showed, never from the game; the highest score wins and a tie
goes to the first of the tied options as sent. A question set is fair to them when every
rule stays at a fair guess on every kind (`harness.offline.quiz_blind`), so no surface feature
(length, rounding, form, shared words, the last step, repetition) tells the right option.

Part of the agent kit: it imports only the standard library, so an agent may import it
inside the sandbox (`agents/quiz_blind.py --rule NAME` answers by one rule).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

Message = dict[str, Any]
# A rule: (question message, what earlier questions showed) -> one score per option.
Rule = Callable[[Message, Counter[str]], list[float]]

_STEP_NUMBER = re.compile(r"^\d+\) ")


def words(text: str) -> set[str]:
    """The lower-case words and numbers of a text."""
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def parts(option: str) -> list[str]:
    """An option's pieces: the steps of a sequence, the two halves of a pair, or itself."""
    out = []
    for piece in re.split(r"; | \| ", option):
        piece = _STEP_NUMBER.sub("", piece.strip())
        for label in ("instruction: ", "action: "):
            piece = piece.removeprefix(label)
        out.append(piece)
    return out


def _trigrams(text: str) -> set[str]:
    return {text[i:i + 3] for i in range(max(1, len(text) - 2))}


def _first(q: Message, seen: Counter[str]) -> list[float]:
    return [-float(i) for i in range(len(q["options"]))]


def _longest(q: Message, seen: Counter[str]) -> list[float]:
    return [float(len(o)) for o in q["options"]]


def _shortest(q: Message, seen: Counter[str]) -> list[float]:
    return [-float(len(o)) for o in q["options"]]


def _most_alike(q: Message, seen: Counter[str]) -> list[float]:
    # Mean Jaccard likeness of character trigrams: digits, rounding and wording alike.
    grams = [_trigrams(o) for o in q["options"]]
    return [sum(len(g & h) / max(1, len(g | h)) for j, h in enumerate(grams) if j != i)
            / max(1, len(grams) - 1) for i, g in enumerate(grams)]


def _least_alike(q: Message, seen: Counter[str]) -> list[float]:
    return [-s for s in _most_alike(q, seen)]


def _most_shared(q: Message, seen: Counter[str]) -> list[float]:
    asked = words(q["prompt"])
    return [float(len(words(o) & asked)) for o in q["options"]]


def _last_step_matches(q: Message, seen: Counter[str]) -> list[float]:
    # The option whose last piece (a sequence's last step) shares most words with the goal.
    asked = words(q["prompt"])
    return [float(len(words(parts(o)[-1]) & asked)) for o in q["options"]]


def _least_seen(q: Message, seen: Counter[str]) -> list[float]:
    return [-float(sum(seen[p] for p in parts(o))) for o in q["options"]]


def _most_seen(q: Message, seen: Counter[str]) -> list[float]:
    return [-s for s in _least_seen(q, seen)]


RULES: dict[str, Rule] = {
    "first": _first,
    "longest": _longest,
    "shortest": _shortest,
    "most_alike": _most_alike,
    "least_alike": _least_alike,
    "most_shared": _most_shared,
    "last_step_matches": _last_step_matches,
    "least_seen": _least_seen,
    "most_seen": _most_seen,
}
SUMMARIES: dict[str, str] = {
    "first": "the first option as sent",
    "longest": "the longest option",
    "shortest": "the shortest option",
    "most_alike": "the option most like the other three (character trigrams)",
    "least_alike": "the option least like the other three",
    "most_shared": "the option sharing most words with the question",
    "last_step_matches": "the option whose last step shares most words with the question",
    "least_seen": "the option whose pieces appeared least in earlier questions",
    "most_seen": "the option whose pieces appeared most in earlier questions",
}


def choose(rule: str, question: Message, seen: Counter[str]) -> int:
    """The option a rule picks (the first of the best); the question is then added to `seen`."""
    scores = RULES[rule](question, seen)
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    remember(question, seen)
    return best


def remember(question: Message, seen: Counter[str]) -> None:
    """Count the pieces of a question's options as seen."""
    seen.update(p for o in question["options"] for p in parts(o))
