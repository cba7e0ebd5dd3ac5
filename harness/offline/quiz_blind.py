"""The blind-answerer check: every surface rule of `quiz_rules` stays at a fair guess.

Each rule answers every question of a set as an agent using it would (the messages as
`quiz run` sends them, in file order, with what earlier questions showed), and its
accuracy per kind must hold 0.25 in its 99.9% Wilson interval: a fair guess misses it on
one kind in a thousand, so a rule outside has found a cue in the wording. The options'
order is drawn from a key as in a run; the check's own key is fixed so that it gives the
same figures every time (any key gives a fair order: the rules that read no place are
unaffected, and `first` is held to a quarter by the block balancing).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from harness.compare.results import wilson_interval
from harness.offline.quiz_kinds import QUESTION_KINDS
from harness.offline.quiz_rules import RULES, SUMMARIES, choose
from harness.offline.quiz_run import arranged, question_message

GUESS = 0.25
GUESS_Z = 3.29  # two-sided 99.9%
CHECK_KEY = b"blind-answerer check"


def blind_scores(quiz: dict[str, Any], key: bytes = CHECK_KEY) -> dict[str, Any]:
    """Every rule's right answers per kind, with 99.9% intervals and whether each is fair.

    Returns:
        {"fair": all fair, "rules": {rule: {"summary", "kinds": {kind: {"asked", "right",
        "accuracy", "ci999", "fair"}}}}}
    """
    questions = arranged(quiz["questions"], key)
    rules: dict[str, Any] = {}
    for rule in RULES:
        seen: Counter[str] = Counter()
        right: Counter[str] = Counter()
        asked: Counter[str] = Counter()
        for q in questions:
            choice = choose(rule, question_message(q, observation=False), seen)
            asked[q["kind"]] += 1
            right[q["kind"]] += int(choice == q["answer"])
        kinds = {}
        for kind in QUESTION_KINDS:
            if asked[kind]:
                low, high = wilson_interval(right[kind], asked[kind], GUESS_Z)
                kinds[kind] = {"asked": asked[kind], "right": right[kind],
                               "accuracy": right[kind] / asked[kind],
                               "ci999": [low, high], "fair": low <= GUESS <= high}
        rules[rule] = {"summary": SUMMARIES[rule], "kinds": kinds}
    fair = all(k["fair"] for r in rules.values() for k in r["kinds"].values())
    return {"fair": fair, "rules": rules}


def unfair(scores: dict[str, Any]) -> list[str]:
    """One line per rule and kind outside a fair guess's interval."""
    return [f"{rule} ({r['summary']}) scores {k['right']} of {k['asked']} "
            f"({k['accuracy']:.3f}, 99.9% interval {k['ci999'][0]:.3f} to "
            f"{k['ci999'][1]:.3f}) on {kind}, where a fair guess scores {GUESS}"
            for rule, r in scores["rules"].items() for kind, k in r["kinds"].items()
            if not k["fair"]]
