"""The offline question track: building, checking and asking questions, and their validity."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from harness.agent.sandbox import bubblewrap_problem
from harness.cli import main
from harness.compare.results import wilson_interval
from harness.core.protocol import parse_agent_line, schema_errors
from harness.offline.pyramid import pyramid, read_checked
from harness.offline.quiz_blind import CHECK_KEY, GUESS_Z
from harness.offline.quiz_file import build, check, read, write
from harness.offline.quiz_kinds import shown
from harness.offline.quiz_run import arranged, ask, question_message
from tests.quiz_shared import FAST
from tests.quiz_shared import reference_run as any_run
from tests.shared import ROOT

SHIPPED = ROOT / "quiz" / "questions.json.gz"


def reference_run() -> Path:
    # Easy gives questions of all three kinds (normal gives no consistency question).
    return any_run("easy")


# The module-scoped runs below are played once: the tests that read them share a worker.
pytestmark = pytest.mark.xdist_group("quiz_track")


@pytest.fixture(scope="module")
def quiz_file(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("quiz") / "q.json.gz"
    assert main(["quiz", "build", str(reference_run()), "--out", str(out)]) == 0
    return out


def test_every_answer_key_checks_and_a_tampered_one_is_named(quiz_file, tmp_path) -> None:
    quiz = read(quiz_file)
    kinds = {q["kind"] for q in quiz["questions"]}
    assert kinds == {"next_action", "goal_sequence", "consistency"}
    assert check(quiz, [reference_run()]) == (len(quiz["questions"]), [])
    assert main(["quiz", "check", str(quiz_file), str(reference_run())]) == 0
    q = quiz["questions"][0]
    q["answer"] = (q["answer"] + 1) % 4
    _, problems = check(quiz, [reference_run()])
    assert len(problems) == 1 and problems[0].startswith(f"question {q['id']}: the key says")
    tampered = tmp_path / "t.json.gz"
    write(quiz, tampered)
    assert main(["quiz", "check", str(tampered), str(reference_run())]) == 1


def test_a_set_holds_options_sorted_and_the_key_checks(quiz_file) -> None:
    # The file's order says nothing (the place is drawn when asking, from a secret key:
    # tests/test_quiz_blind.py), and moving the right option keeps the check passing.
    for quiz in (read(SHIPPED), read(quiz_file)):
        assert all(q["options"] == sorted(q["options"]) for q in quiz["questions"])
    assert check(read(quiz_file), [reference_run()])[1] == []


def test_build_is_deterministic(quiz_file, tmp_path) -> None:
    again = tmp_path / "again.json.gz"
    write(build([reference_run()]), again)
    assert again.read_bytes() == quiz_file.read_bytes()


def test_next_action_options_are_the_same_action_valid_at_that_turn(quiz_file) -> None:
    record = read_checked(reference_run())
    asked = [q for q in read(quiz_file)["questions"] if q["kind"] == "next_action"]
    assert asked
    for q in asked:
        view = json.dumps(record.turns[q["provenance"]["turn"]]["observation"]["view"])
        actions = [json.loads(o) for o in q["options"]]
        assert len({a["action"] for a in actions}) == 1, q["options"]
        # The reference agent's action, its point rounded as every option's is.
        assert q["options"][q["answer"]] == shown(record.turns[q["provenance"]["turn"]]["action"])
        for action in actions:
            line = json.dumps({"type": "action", "protocol_version": 1, **action})
            assert not hasattr(parse_agent_line(line, "action"), "code"), action
            for value in action["arguments"].values():
                if isinstance(value, str):
                    assert f'"{value}"' in view, (value, q["id"])


def test_sequence_options_are_real_operations_in_two_orders(quiz_file) -> None:
    texts = {op.text for op in pyramid(read_checked(reference_run())).operations}
    asked = [q for q in read(quiz_file)["questions"] if q["kind"] == "goal_sequence"]
    assert asked
    for q in asked:
        steps = [[s.split(") ", 1)[1] for s in o.split("; ")] for o in q["options"]]
        assert all(set(s) <= texts for s in steps)
        bags = sorted(tuple(sorted(s)) for s in steps)
        assert bags[0] == bags[1] and bags[2] == bags[3]  # each content twice, in two orders


def test_messages_follow_their_schemas(quiz_file) -> None:
    q = read(quiz_file)["questions"][0]
    for observation in (True, False):
        message = question_message(q, observation)
        assert schema_errors("question", message) == []
        assert "answer" not in message
    answer = {"type": "answer", "protocol_version": 1, "id": q["id"], "choice": 4}
    fault = parse_agent_line(json.dumps(answer), "answer")
    assert fault.code == "bad_message" and "choice" in fault.message


BAD_AGENT = """
import json, sys
for n, line in enumerate(sys.stdin):
    q = json.loads(line)
    if n == 0:
        print("not json", flush=True)
    elif n == 1:
        print(json.dumps({"type": "answer", "protocol_version": 1, "id": "other", "choice": 0}),
              flush=True)
    elif n == 2:
        print(json.dumps({"type": "answer", "protocol_version": 1, "id": q["id"], "choice": 9}),
              flush=True)
    elif n == 3:
        print(json.dumps({"type": "answer", "protocol_version": 1, "id": q["id"],
                          "choice": 0}), flush=True)
    else:
        sys.exit(3)
"""


def test_bad_answers_are_counted_wrong_and_named(quiz_file, tmp_path) -> None:
    agent = tmp_path / "bad_agent.py"
    agent.write_text(BAD_AGENT)
    quiz = read(quiz_file)
    result = ask(quiz, quiz_file, f"{sys.executable} {agent}", FAST, tmp_path / "log",
                 key=b"bad agent")
    n = len(quiz["questions"])
    assert result["all"]["asked"] == n
    assert result["all"]["right"] == int(arranged(quiz["questions"], b"bad agent")[3]["answer"]
                                         == 0)
    ids = [q["id"] for q in quiz["questions"]]
    problems = result["problems"]
    assert problems[0].startswith(f"question {ids[0]}: not_json")
    assert problems[1] == f"question {ids[1]}: answered question 'other', not this one"
    assert problems[2].startswith(f"question {ids[2]}: bad_message") and "choice" in problems[2]
    assert problems[3] == f"question {ids[4]}: the agent exited (status 3)"
    assert all(p.endswith("not asked: the agent had exited") for p in problems[4:])
    assert len(problems) == n - 1


@pytest.mark.skipif(bubblewrap_problem() is not None, reason="needs the bubblewrap sandbox")
def test_the_answer_key_is_hidden_from_the_agent(quiz_file, tmp_path) -> None:
    agent = tmp_path / "peek.py"
    agent.write_text(
        "import json, sys\n"
        f"try:\n    open({str(quiz_file)!r}, 'rb').read(); choice = 1\n"
        "except OSError:\n    choice = 0\n"
        "for line in sys.stdin:\n"
        "    q = json.loads(line)\n"
        "    print(json.dumps({'type': 'answer', 'protocol_version': 1, 'id': q['id'],"
        " 'choice': choice}), flush=True)\n")
    quiz = read(quiz_file)
    quiz["questions"] = quiz["questions"][:1]
    # A key that puts the right option first.
    key = next(k for k in (b"%d" % n for n in range(100))
               if arranged(quiz["questions"], k)[0]["answer"] == 0)
    result = ask(quiz, quiz_file, f"{sys.executable} {agent}", FAST, tmp_path / "log", key=key)
    assert result["all"]["right"] == 1  # choice 0: opening the question file failed


def test_shipped_questions_of_a_fresh_run_check_against_it() -> None:
    quiz = read(SHIPPED)
    key = pyramid(read_checked(reference_run())).record
    mine = [q for q in quiz["questions"] if q["provenance"]["record"] == key]
    assert mine
    assert check({**quiz, "questions": mine}, [reference_run()]) == (len(mine), [])


@pytest.mark.parametrize("agent", ["quiz_random.py", "quiz_blind.py --rule longest"])
@pytest.mark.parametrize("observation", [True, False])
def test_guessing_and_wording_score_near_chance(agent, observation, tmp_path) -> None:
    command = f"{sys.executable} {ROOT / 'agents' / agent}"
    # A fixed order key: a fresh one each run would make the figures a new draw each time.
    result = ask(read(SHIPPED), SHIPPED, command, FAST, tmp_path / "log", observation,
                 key=CHECK_KEY)
    assert result["problems"] == []
    low, high = result["all"]["ci95"]
    if agent == "quiz_random.py":
        # A fair guess is a binomial draw at a quarter: its 95% interval misses 0.25 on one
        # rebuilt set in twenty, so the guesser is held to a 99.9% interval (one in a
        # thousand). A blind rule is held to the 95% interval here, over all kinds (every
        # rule on every kind: tests/test_quiz_blind.py).
        low, high = wilson_interval(result["all"]["right"], result["all"]["asked"], GUESS_Z)
    assert low <= 0.25 <= high, result["all"]
    assert result["all"]["asked"] >= 400


@pytest.mark.slow
@pytest.mark.timeout(900)  # 45 reference episodes (every level and difficulty), two at once
def test_every_shipped_question_checks_against_a_fresh_build() -> None:
    import subprocess
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "build_quiz.py"), "--check"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "every answer key checks against its record" in done.stdout


def test_reading_the_observation_answers_next_action_questions(tmp_path) -> None:
    command = f"{sys.executable} {ROOT / 'agents' / 'quiz_grounded.py'}"
    seen = ask(read(SHIPPED), SHIPPED, command, FAST, tmp_path / "log", True, key=CHECK_KEY)
    blind = ask(read(SHIPPED), SHIPPED, command, FAST, tmp_path / "log", False, key=CHECK_KEY)
    assert seen["kinds"]["next_action"]["ci95"][0] > 0.5, seen["kinds"]
    low, high = blind["kinds"]["next_action"]["ci95"]
    assert low <= 0.25 <= high, blind["kinds"]


def test_unusable_files_are_named_without_a_traceback(quiz_file, tmp_path, capsys) -> None:
    junk = tmp_path / "junk.json.gz"
    junk.write_bytes(b"\x1f\x8bnot gzip at all")
    assert main(["quiz", "run", str(junk), "--agent", "true", "--log",
                 str(tmp_path / "log")]) == 2
    err = capsys.readouterr().err
    assert str(junk) in err and "not a readable question set" in err
    assert main(["quiz", "check", str(quiz_file), str(tmp_path / "missing")]) == 2
    assert "no such record file or folder" in capsys.readouterr().err
    other = json.loads(json.dumps(read(quiz_file)))
    other["questions"][0]["provenance"]["record"] = "0" * 64
    _, problems = check(other, [reference_run()])
    assert problems == [f"question {other['questions'][0]['id']}: no record given has "
                        f"play hash 000000000000..."]
