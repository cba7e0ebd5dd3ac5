"""The offline track gives blind answerers nothing: no surface cue, no readable place.

Reads only the shipped question set (no episode is played), so it is cheap.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from pathlib import Path

from harness.cli import main
from harness.compare.results import wilson_interval
from harness.offline.quiz_blind import CHECK_KEY, GUESS_Z, blind_scores, unfair
from harness.offline.quiz_file import read, write
from harness.offline.quiz_kinds import GRID
from harness.offline.quiz_rules import RULES, choose
from harness.offline.quiz_run import arranged, ask, question_message
from tests.quiz_shared import FAST
from tests.shared import ROOT

SHIPPED = ROOT / "quiz" / "questions.json.gz"


def shipped() -> dict:
    return read(SHIPPED)


def test_every_blind_answerer_stays_at_chance_on_every_kind() -> None:
    scores = blind_scores(shipped())
    assert set(scores["rules"]) == set(RULES)
    assert unfair(scores) == [] and scores["fair"]
    for rule in scores["rules"].values():
        assert set(rule["kinds"]) == {"next_action", "goal_sequence", "consistency"}


def test_the_check_names_a_rule_that_finds_a_cue() -> None:
    # The old builder's cue: the right option longer than the others (unrounded digits).
    quiz = shipped()
    for q in quiz["questions"]:
        if q["kind"] == "next_action":
            q["options"][q["answer"]] += " "
    problems = unfair(blind_scores(quiz))
    assert any(p.startswith("longest ") and p.endswith("on next_action, where a fair "
                                                       "guess scores 0.25") for p in problems)
    assert any(p.startswith("shortest ") for p in problems)


def test_the_place_of_the_right_option_needs_the_secret_key() -> None:
    quiz = shipped()
    questions = quiz["questions"]
    # The file holds each question's options sorted: its order says nothing.
    assert all(q["options"] == sorted(q["options"]) for q in questions)
    # The old attack: places drawn from a seed made of the block's ids, which the agent
    # sees. It scored 224 of 508; against a secret key it is a guess.
    right = 0
    asked = arranged(questions, b"an operator's secret")
    for kind in {q["kind"] for q in asked}:
        of_kind = [q for q in asked if q["kind"] == kind]
        for start in range(0, len(of_kind), 4):
            block = of_kind[start:start + 4]
            digest = hashlib.sha256("/".join([*(q["id"] for q in block), "places"])
                                    .encode()).digest()
            places = [0, 1, 2, 3]
            random.Random(int.from_bytes(digest[:8], "big")).shuffle(places)
            right += sum(q["answer"] == p for q, p in zip(block, places, strict=False))
    low, high = wilson_interval(right, len(asked), GUESS_Z)
    assert low <= 0.25 <= high, right
    # Blocks of four take the four places, whatever the key; other keys, other places.
    for key in (b"one", b"two"):
        for kind in {q["kind"] for q in questions}:
            places = [0, 0, 0, 0]
            for q in arranged(questions, key):
                if q["kind"] == kind:
                    places[q["answer"]] += 1
            assert max(places) - min(places) <= 1, (kind, places)
    one, two = arranged(questions, b"one"), arranged(questions, b"two")
    assert [q["answer"] for q in one] != [q["answer"] for q in two]
    assert arranged(questions, b"one") == one
    for q, a in zip(questions, one, strict=True):
        assert a["options"][a["answer"]] == q["options"][q["answer"]]
        assert sorted(a["options"]) == q["options"]


def test_options_of_a_question_agree_in_form() -> None:
    for q in shipped()["questions"]:
        if q["kind"] == "next_action":
            actions = [json.loads(o) for o in q["options"]]
            assert len({a["action"] for a in actions}) == 1
            assert len({tuple(sorted(a["arguments"])) for a in actions}) == 1, q["id"]
            for a in actions:
                for axis in ("x", "z"):
                    if axis in a["arguments"]:
                        assert a["arguments"][axis] % GRID == 0, (q["id"], a)
        if q["kind"] == "goal_sequence":
            steps = [o.split("; ") for o in q["options"]]
            assert len({len(s) for s in steps}) == 1, q["id"]
            # Every option ends with the same last step (the one that echoes the goal).
            assert len({s[-1] for s in steps}) == 1, q["id"]


def test_the_shipped_agent_answers_as_the_check_counts(tmp_path) -> None:
    # agents/quiz_blind.py runs in the sandbox importing the rules from the agent kit,
    # and with the check's key it scores exactly what the check counted.
    quiz = shipped()
    command = f"{sys.executable} {ROOT / 'agents' / 'quiz_blind.py'} --rule least_seen"
    result = ask(quiz, SHIPPED, command, FAST, tmp_path / "log", False, key=CHECK_KEY)
    assert result["problems"] == [] and result["order_key"] == CHECK_KEY.hex()
    counted = blind_scores(quiz)["rules"]["least_seen"]["kinds"]
    assert {k: f["right"] for k, f in result["kinds"].items()} == \
        {k: f["right"] for k, f in counted.items()}


def test_choose_breaks_ties_by_place_and_remembers() -> None:
    q = question_message({"id": "q", "kind": "next_action", "prompt": "p", "observation": None,
                          "options": ["aa", "bb", "c", "dd"]}, observation=False)
    seen: Counter[str] = Counter()
    assert choose("longest", q, seen) == 0 and choose("shortest", q, seen) == 2
    assert seen["aa"] == 2
    assert choose("least_seen", {**q, "options": ["aa", "e", "bb", "f"]}, seen) == 1


def test_quiz_blind_prints_json_and_exits_by_fairness(tmp_path, capsys) -> None:
    assert main(["quiz", "blind", str(SHIPPED)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["fair"] and set(printed["rules"]) == set(RULES)
    quiz = shipped()
    for q in quiz["questions"]:
        if q["kind"] == "consistency":
            q["options"][q["answer"]] += " and more"
    unfair_file = tmp_path / "cued.json.gz"
    write(quiz, Path(unfair_file))
    assert main(["quiz", "blind", str(unfair_file)]) == 1
    err = capsys.readouterr().err
    assert "a blind answerer is off chance: longest" in err and "on consistency" in err
