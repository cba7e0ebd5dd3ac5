"""Notes and keypads (issue 37): a code is learnt only by reading, and guessing loses.

The world's rules (right code, wrong codes, lock-out), the level checker's rules (a
code lives only in notes, reachable before its door), the reference agent's reading of
which code is whose, and two whole episodes on signal_station: the reference agent, which
reads, wins and no message before its first reading holds a code; an agent that guesses
locks the keypad out and fails. Each record replays.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from harness.core.protocol import parse_agent_line
from harness.episode import runner
from harness.episode.replay import replay
from harness.episode.runner import RunSettings
from tests.level_factory import short_copy
from tests.shared import SHIPPED_AGENTS, TEST_AGENTS, python_agent, shipped_path
from world.level.load import load_level
from world.levelcheck.checker import check_data
from world.setup import create_world

CODES = ("2604", "7391")  # signal_station's generator and server room codes
SETTINGS = RunSettings(decision_timeout_s=20.0, episode_timeout_s=150.0)


def _keypad_world():
    world = create_world(load_level(shipped_path("signal_station")), "easy", 0)
    return world, world.objects["generator_keypad"], world.doors_system.gates


def test_the_right_code_opens_the_door_it_drives() -> None:
    world, keypad, gates = _keypad_world()
    assert gates["corridor_generator"].state == "locked"
    assert world.items.enter_code(world.player, keypad, "2604") == "accepted"
    assert gates["corridor_generator"].state in ("opening", "open")
    assert keypad.accepted and not keypad.locked_out


def test_a_wrong_code_locks_a_one_try_keypad_for_good() -> None:
    world, keypad, gates = _keypad_world()
    assert world.items.enter_code(world.player, keypad, "5150") == "refused"
    assert keypad.locked_out
    kinds = [e.kind for e in world.events.since(0)]
    assert "keypad_locked" in kinds
    # Locked out: the right code is no longer taken and the door stays shut.
    assert world.items.enter_code(world.player, keypad, "2604") == "locked_out"
    assert gates["corridor_generator"].state == "locked"
    # No event tells the digits: the outcome only.
    assert all("2604" not in str(e.detail) for e in world.events.since(0))


def test_three_tries_by_default_and_the_lock_out_sounds_the_keypads_alarm() -> None:
    data = json.loads(shipped_path("signal_station").read_text())
    pad = next(o for o in data["objects"] if o["id"] == "generator_keypad")
    del pad["attempts"]
    pad["alarm"] = "siren"
    data["objects"].append({"id": "siren", "kind": "alarm", "name": "siren", "area": "yard",
                            "at": [500, 500]})
    report = check_data(data)
    assert report.ok, report.problems
    from world.level.load import parse_level

    world = create_world(parse_level(data), "easy", 0)
    keypad = world.objects["generator_keypad"]
    outcomes = [world.items.enter_code(world.player, keypad, c) for c in ("1", "2", "3")]
    assert outcomes == ["refused"] * 3 and keypad.locked_out
    assert world.objects["siren"].active


def _level_with(change) -> list[tuple[str, str]]:
    data = json.loads(shipped_path("signal_station").read_text())
    change(data)
    return [(p.path, p.message) for p in check_data(data).problems]


def test_the_checker_wants_each_code_in_a_note_and_nowhere_else() -> None:
    def no_note(data):
        data["objects"] = [o for o in data["objects"] if o["id"] != "locker_note"]

    def in_the_brief(data):
        data["brief"] += " The generator code is 2604."

    def in_a_name(data):
        next(o for o in data["objects"] if o["id"] == "gen_switch")["name"] = "switch 7391"

    def not_its_target(data):
        next(o for o in data["objects"] if o["id"] == "server_keypad")["targets"] = []

    assert any(p.endswith(".code") and "no note" in m for p, m in _level_with(no_note))
    assert any(p.endswith("door.panel") and "no code opens it" in m
               for p, m in _level_with(not_its_target))
    assert any(p == "$.brief" and "gives away" in m for p, m in _level_with(in_the_brief))
    assert any(p.endswith(".name") and "gives away" in m for p, m in _level_with(in_a_name))


def test_a_code_only_behind_its_own_door_leaves_the_objective_unreachable() -> None:
    def note_behind(data):
        note = next(o for o in data["objects"] if o["id"] == "locker_note")
        note["area"], note["at"] = "plant", [1300, 700]

    problems = _level_with(note_behind)
    assert problems and any("objectives" in p for p, _ in problems), problems


def test_the_reference_agent_takes_only_the_code_its_note_names() -> None:
    from agents.reference.codes import candidates
    from agents.reference.memory import Memory

    mem = Memory()
    mem.notes = {
        "o5": "Cleaners: the locker code is 5150. Generator keypad: 2604, as before.",
        "o8": "Log: server room keypad changed today. New server room keypad code 7391; "
              "the old 1188 no longer works.",
        "o2": "Night rota: Dana on the gate, Sam in the plant room until 0300.",
    }
    assert candidates(mem, {"id": "o3", "name": "generator keypad"}) == ["2604"]
    assert candidates(mem, {"id": "o6", "name": "server room keypad"}) == ["7391"]
    mem.wrong_codes.add(("o6", "7391"))
    assert candidates(mem, {"id": "o6", "name": "server room keypad"}) == []


def test_every_protocol_version_may_say_hello_and_act() -> None:
    for version in (1, 2, 3):
        hello = {"type": "hello", "protocol_version": version, "name": "a", "version": "1"}
        assert not hasattr(parse_agent_line(json.dumps(hello), "hello"), "code")
    bad = {"type": "hello", "protocol_version": 4, "name": "a", "version": "1"}
    assert parse_agent_line(json.dumps(bad), "hello").code == "bad_message"


def _turns(record: str) -> list[dict]:
    with gzip.open(record, "rt", encoding="utf-8") as lines:
        return [json.loads(x) for x in lines]


def test_the_reader_wins_and_nothing_before_its_reading_holds_a_code(tmp_path: Path) -> None:
    agent = python_agent(SHIPPED_AGENTS / "reference_agent.py")
    summary = runner.run("signal_station", agent, difficulty="easy", seed=0,
                         out_dir=tmp_path, settings=SETTINGS)
    assert summary["success"], summary["reason"]
    lines = _turns(summary["record"])
    turns = [x for x in lines if x["kind"] == "turn"]
    first_read = next(t["turn"] for t in turns if (t["result"] or {}).get("read")
                      and any(c in json.dumps(t["result"]["read"]) for c in CODES))
    # Everything the agent was sent up to the turn it read a code: the start message and
    # each observation (view, text, last result, errors) and its own actions.
    before = [lines[0]["start"]] + [t["observation"] for t in turns if t["turn"] <= first_read]
    for message in before:
        text = json.dumps(message)
        assert not any(code in text for code in CODES), message.get("turn")
    # The view never repeats the words after the turn they were read.
    later = [t["observation"] for t in turns if t["turn"] > first_read + 1]
    assert later and all("Generator keypad: 2604" not in json.dumps(o["view"]) + o["text"]
                         for o in later)
    assert any(t["action"] and t["action"]["action"] == "enter_code" for t in turns)
    # The run page shows the words read and the code keyed in on its timeline.
    page = (Path(summary["record"]).parent / "index.html").read_text(encoding="utf-8")
    assert 'class="read"' in page and "Generator keypad: 2604" in page
    assert "enter_code" in page and "code=2604" in page
    report = replay(summary["record"])
    assert report.verified, report.divergence


@pytest.mark.parametrize("guess", ["1234", "5150"])
def test_a_guess_locks_the_keypad_and_the_mission_is_lost(tmp_path: Path, guess: str) -> None:
    level = short_copy(tmp_path / "level", "signal_station", max_decisions=12)
    agent = python_agent(TEST_AGENTS / "code_guesser_agent.py", guess)
    summary = runner.run(str(level), agent, difficulty="easy", seed=0,
                         out_dir=tmp_path, settings=SETTINGS)
    assert not summary["success"]
    lines = _turns(summary["record"])
    turns = [x for x in lines if x["kind"] == "turn"]
    # It never read a note: nothing it was sent, errors and answers included, holds a code.
    sent = [lines[0]["start"], *(t["observation"] for t in turns)]
    assert not any(code in json.dumps(m) for m in sent for code in CODES)
    entered = [t for t in turns if t["action"] and t["action"]["action"] == "enter_code"]
    assert entered, "the guesser never met the keypad"
    said = [t["result"]["detail"] for t in entered]
    assert "locked out for good" in said[0]
    assert all("2604" not in d for d in said)  # a wrong code's answer tells nothing of it
    assert all("locked out" in d for d in said[1:])
    report = replay(summary["record"])
    assert report.verified, report.divergence
