"""Season 2's code templates (vault, records, relay, expedition): checked levels at every
difficulty, the same bytes per name, codes only in notes that name their keypads, no seed
in anything the agent sees, and the mechanic played both ways."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from agents.reference.codes import candidates
from agents.reference.memory import Memory
from harness.episode import runner
from harness.episode.runner import RunSettings
from tests.shared import SHIPPED_AGENTS, TEST_AGENTS, python_agent
from world.generate.registry import TEMPLATES, generate
from world.levelcheck.checker import check_data

SEASON_2 = ("vault", "records", "relay", "expedition")
SETTINGS = RunSettings(decision_timeout_s=20.0, episode_timeout_s=150.0)


def _problems(name: str) -> list[str]:
    made = generate(name)
    return [str(p) for p in check_data(json.loads(made.text()), made.name).problems]


@pytest.mark.parametrize("template", SEASON_2)
def test_seeds_and_extreme_parameters_pass_the_checker(template: str) -> None:
    # The checker judges every difficulty of a level at once (objectives and characters
    # carry their lowest difficulty), so one check covers easy, normal and hard.
    schema = TEMPLATES[template].params
    names = [f"{template}@{seed}" for seed in range(3)]
    names += [f"{template}@7?" + "&".join(f"{k}={s[end]}" for k, s in schema.items())
              for end in ("minimum", "maximum")]
    assert {n: p for n in names if (p := _problems(n))} == {}


@pytest.mark.parametrize("template", SEASON_2)
def test_one_name_one_level_and_no_seed_in_what_the_agent_sees(template: str) -> None:
    first, again = generate(f"{template}@424242"), generate(f"{template}@424242")
    assert first.text() == again.text()
    assert generate(f"{template}@424243").text() != first.text()
    # Issue 34: the id and every string a player is shown carry no trace of the seed.
    assert "424242" not in first.text() and first.data["id"].startswith(f"{template}_")


def _keypads_and_notes(data: dict) -> tuple[list[dict], list[str]]:
    keypads = [o for o in data["objects"] if o["kind"] == "keypad"]
    return keypads, [o["text"] for o in data["objects"] if o["kind"] == "note"]


@pytest.mark.parametrize("template", SEASON_2)
def test_a_reader_of_every_note_finds_each_keypads_code_and_no_other(template: str) -> None:
    # The reference agent's reading (a code counts when its clause names the keypad in
    # full) gives exactly the right code for every keypad, though the notes hold decoys.
    for seed in range(5):
        keypads, notes = _keypads_and_notes(generate(f"{template}@{seed}").data)
        mem = Memory()
        mem.notes = {f"n{i}": text for i, text in enumerate(notes)}
        numbers = {n for text in notes for n in re.findall(r"\d{3,}", text)}
        assert keypads and len(numbers) > len(keypads), seed  # more numbers than codes
        for keypad in keypads:
            assert candidates(mem, keypad) == [keypad["code"]], (seed, keypad["name"])


def test_records_keypad_takes_one_try_among_its_old_code_and_other_keypads_codes() -> None:
    data = generate("records@3?notes=4").data
    (keypad,), notes = _keypads_and_notes(data)
    assert keypad["attempts"] == 1 and len(notes) == 5
    named = [t for t in notes if keypad["name"] in t.lower()]
    assert len(named) == 2  # the code's note and the one saying it was changed
    assert sum(keypad["code"] in t for t in notes) == 1


def test_relay_code_is_read_in_the_start_room_and_keyed_in_at_the_far_end() -> None:
    data = generate("relay@5").data
    (keypad,), _ = _keypads_and_notes(data)
    note = next(o for o in data["objects"] if o["kind"] == "note" and keypad["code"] in o["text"])
    assert note["area"] == data["start"]["area"] != keypad["area"]
    assert keypad["attempts"] == 1
    assert any(c.get("min_difficulty") is None for c in data["characters"])  # a fight at easy


def test_expedition_codes_lie_a_stage_before_their_gates_and_hard_asks_for_more() -> None:
    data = generate("expedition@2").data
    keypads, _ = _keypads_and_notes(data)
    assert len(keypads) == 2
    by_when: dict[str | None, int] = {}
    for objective in data["objectives"]:
        by_when[objective.get("min_difficulty")] = by_when.get(
            objective.get("min_difficulty"), 0) + 1
    assert by_when == {None: 6, "normal": 3, "hard": 6}


def _turns(record: str) -> list[dict]:
    with gzip.open(record, "rt", encoding="utf-8") as lines:
        return [t for t in map(json.loads, lines) if t["kind"] == "turn"]


def _both_ways(tmp_path: Path, name: str) -> None:
    reader = runner.run(name, python_agent(SHIPPED_AGENTS / "reference_agent.py"),
                        difficulty="easy", seed=0, out_dir=tmp_path / "reader",
                        settings=SETTINGS)
    assert reader["success"], reader["reason"]
    keyed = [t for t in _turns(reader["record"])
             if t["action"] and t["action"]["action"] == "enter_code"]
    assert keyed and all("accepted" in t["result"]["detail"] or "opens" in
                         t["result"]["detail"] for t in keyed), [t["result"] for t in keyed]
    # Without the notes' words a keypad is only guessed at, and a guess never opens it.
    guesser = runner.run(name, python_agent(TEST_AGENTS / "code_guesser_agent.py", "1234"),
                         difficulty="easy", seed=0, out_dir=tmp_path / "guesser",
                         settings=SETTINGS)
    assert not guesser["success"]
    guessed = [t["result"]["detail"] for t in _turns(guesser["record"])
               if t["action"] and t["action"]["action"] == "enter_code"]
    assert not any("accepted" in d for d in guessed), guessed


def test_records_is_won_by_reading_and_lost_by_guessing(tmp_path: Path) -> None:
    _both_ways(tmp_path, "records@1")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["vault@1", "relay@1", "expedition@1"])
def test_the_other_code_templates_are_won_by_reading_and_lost_by_guessing(
        tmp_path: Path, name: str) -> None:
    _both_ways(tmp_path, name)


def test_an_accepted_keypad_is_keyed_in_again_for_its_door_closed_since() -> None:
    from agents.reference.codes import key_in

    # The way back out of a vault: its door swung shut behind the player, and only the
    # keypad opens it (the right code opens it again every time it is keyed in).
    mem = Memory()
    mem.notes = {"o4": "The vault keypad code is 4817."}
    mem.objects["o5"] = {"id": "o5", "kind": "keypad", "name": "vault keypad",
                         "state": "accepted"}
    step = key_in(mem, "o5", "for door d7")
    assert step is not None and step[:2] == ("enter_code", {"object_id": "o5", "code": "4817"})
    mem.objects["o5"]["state"] = "locked_out"
    assert key_in(mem, "o5", "for door d7") is None
