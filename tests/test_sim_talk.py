"""Characters who talk when used (issue 37): their words, heard once, decide; deafness loses.

The world's rule (pressing use on a friendly character with `words` gives them in the
action's `read`, like a note's, each time; the view marks it `talks` and keeps nothing of
what it said), the checker's rules (a code or a decoy's area may be said instead of
written; only a friendly character talks; the speaker must be reachable before the door
its code opens), a scripted player both ways on a three-room level (asking, it keys in
the code it heard and wins; deaf, it can only guess and the keypad locks) and the
reference agent's win on mountain_prison, keying in a code heard tens of decisions
before. Each record replays.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from harness.episode import runner
from harness.episode.replay import replay
from harness.episode.runner import RunSettings
from tests.shared import SHIPPED_AGENTS, TEST_AGENTS, python_agent, shipped_path
from world.level.load import parse_level
from world.levelcheck.checker import check_data
from world.observe.session import WorldSession

SETTINGS = RunSettings(decision_timeout_s=20.0, episode_timeout_s=150.0)
RECORDS_CODE = "9046"  # what mountain_prison's prisoner says


def _beside_prisoner(session, level=None):
    game = session("mountain_prison", "easy", 0) if level is None else \
        WorldSession(level, "easy", 0)
    world = game.world
    prisoner = world.characters["prisoner"]
    world.teleport(world.player.id, prisoner.x - 60, prisoner.z)
    game.known.update(world)
    return game, prisoner


def test_a_talking_character_gives_its_words_in_the_result_and_the_view_keeps_none(
        session) -> None:
    game, prisoner = _beside_prisoner(session)
    row = next(r for r in game.view()["characters"] if r["kind"] == "hostage")
    assert row["talks"] is True and row["friendly"] is True
    result = game.act("turn_and_use", {"x": prisoner.x, "z": prisoner.z})
    words = game.level.character("prisoner").words
    assert result["read"] == [{"object": row["id"], "text": words}]
    assert f"{row['id']} spoke to you" in result["changes"]
    # The view after it holds neither the words nor the code: the agent must keep them.
    view = json.dumps(game.view())
    assert RECORDS_CODE not in view and "forgery" not in view
    assert next(r for r in game.view()["characters"] if r["id"] == row["id"])["talks"]
    # Asked again, it says the same again (as a note is read again).
    again = game.act("turn_and_use", {"x": prisoner.x, "z": prisoner.z})
    assert again["read"] == result["read"]


def test_a_character_without_words_is_not_marked_and_says_nothing(session) -> None:
    data = json.loads(shipped_path("mountain_prison").read_text())
    del next(c for c in data["characters"] if c["id"] == "prisoner")["words"]
    data["objects"].append({"id": "slate", "kind": "note", "name": "slate", "area": "guardroom",
                            "at": [100, 1100], "text": "Prisoner: the records keypad code is "
                            "9046. The real release warrant is in the Records room."})
    game, prisoner = _beside_prisoner(session, parse_level(data))
    row = next(r for r in game.view()["characters"] if r["kind"] == "hostage")
    assert "talks" not in row
    result = game.act("turn_and_use", {"x": prisoner.x, "z": prisoner.z})
    assert row["id"] in result["detail"] and "read" not in result
    assert not any(e.kind == "words_heard" for e in game.world.events.since(0))


def _problems(change) -> list[tuple[str, str]]:
    data = json.loads(shipped_path("mountain_prison").read_text())
    change(data)
    return [(p.path, p.message) for p in check_data(data).problems]


def _char(data: dict, cid: str) -> dict:
    return next(c for c in data["characters"] if c["id"] == cid)


def test_the_checker_takes_words_said_as_words_written() -> None:
    def silent(data):
        del _char(data, "prisoner")["words"]

    def hostile(data):
        _char(data, "yard_guard")["words"] = "The records keypad code is 9046."

    def locked_away(data):  # the prisoner moved behind the door his code opens
        prisoner = _char(data, "prisoner")
        prisoner["area"], prisoner["at"] = "records_room", [1500, 2100]

    quiet = _problems(silent)
    assert any(p.endswith(".code") and "character's words" in m for p, m in quiet), quiet
    assert any(p.endswith(".decoy_of") and "records room" in m for p, m in quiet), quiet
    def late(data):
        _char(data, "chaplain")["min_difficulty"] = "hard"

    assert any(p.endswith(".min_difficulty") and "every difficulty" in m
               for p, m in _problems(late))
    said = _problems(hostile)
    assert any(p.startswith("$.characters[") and p.endswith(".words") and "friendly" in m
               for p, m in said), said
    away = _problems(locked_away)
    assert any("objectives" in p for p, _ in away), away
    assert _problems(lambda data: None) == []


def _turns(record: str) -> list[dict]:
    with gzip.open(record, "rt", encoding="utf-8") as lines:
        return [json.loads(x) for x in lines if '"turn"' in x]


def _play(tmp_path: Path, agent: str, difficulty: str = "easy") -> dict:
    summary = runner.run("mountain_prison", agent, difficulty=difficulty, seed=0,
                         out_dir=tmp_path, settings=SETTINGS)
    report = replay(summary["record"])
    assert report.verified, report.divergence
    return summary


def test_the_reference_agent_asks_and_wins_the_prison(tmp_path: Path) -> None:
    summary = _play(tmp_path, python_agent(SHIPPED_AGENTS / "reference_agent.py"))
    assert summary["success"], summary["reason"]
    turns = [t for t in _turns(summary["record"]) if t.get("kind") == "turn"]
    heard = next(i for i, t in enumerate(turns)
                 if RECORDS_CODE in json.dumps((t["result"] or {}).get("read")))
    keyed = next(i for i, t in enumerate(turns) if t["action"]
                 and t["action"]["action"] == "enter_code")
    assert turns[keyed]["action"]["arguments"]["code"] == RECORDS_CODE
    # The text view says who spoke, in the one observation that carries the words.
    assert 'says: "Prisoner: the records keypad' in turns[heard + 1]["observation"]["text"]
    assert keyed - heard >= 20, (heard, keyed)
    assert not any(RECORDS_CODE in json.dumps(t["observation"]) for t in turns[heard + 2:])
    page = (Path(summary["record"]).parent / "index.html").read_text(encoding="utf-8")
    assert "Prisoner: the records keypad code is 9046" in page


def _porter_level(directory: Path) -> Path:
    # Three rooms in a row: the porter beside the start says the vault code; the vault
    # keypad (one try) in the lobby opens the vault, where the ledger lies.
    def room(x: int) -> list[list[int]]:
        return [[x, 0], [x + 600, 0], [x + 600, 600], [x, 600]]

    data = {
        "format_version": 1, "id": "porter_vault", "title": "The porter's vault",
        "brief": "Take the ledger from the vault.", "categories": ["puzzle"],
        "difficulties": [{"id": "easy"}], "budgets": {"max_decisions": 12, "max_game_seconds": 120},
        "navmesh": {"agent_radius": 20, "step_height": 30}, "storeys": [{"id": "ground", "y": 0}],
        "areas": [{"id": i, "name": n, "storey": "ground", "polygon": room(x)}
                  for i, n, x in (("hall", "Hall", 0), ("lobby", "Lobby", 600),
                                  ("vault", "Vault", 1200))],
        "exits": [{"id": "hall_lobby", "kind": "opening", "areas": ["hall", "lobby"],
                   "segment": [[600, 220], [600, 380]]},
                  {"id": "lobby_vault", "kind": "door", "areas": ["lobby", "vault"],
                   "segment": [[1200, 220], [1200, 380]],
                   "door": {"initial": "locked", "panel": "pad", "characters_may_open": False}}],
        "objects": [{"id": "pad", "kind": "keypad", "name": "vault keypad", "area": "lobby",
                     "at": [1100, 150], "code": "3141", "targets": ["lobby_vault"],
                     "attempts": 1},
                    {"id": "ledger", "kind": "key", "name": "ledger", "area": "vault",
                     "at": [1500, 300]}],
        "characters": [{"id": "porter", "kind": "ally", "side": "friendly", "behaviour": "stay",
                        "area": "hall", "at": [380, 300], "facing_deg": 180,
                        "words": "Porter: the vault keypad code is 3141, one try only."}],
        "start": {"area": "hall", "at": [300, 300], "facing_deg": 0},
        "objectives": [{"id": "take", "kind": "collect_item", "object": "ledger",
                        "text": "Take the ledger from the vault."}],
    }
    report = check_data(data)
    assert report.ok, report.problems
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "porter_vault.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _scripted(tmp_path: Path, mode: str) -> tuple[dict, list[dict]]:
    level = _porter_level(tmp_path / "level")
    summary = runner.run(str(level), python_agent(TEST_AGENTS / "listener_agent.py", mode),
                         difficulty="easy", seed=0, out_dir=tmp_path / mode, settings=SETTINGS)
    report = replay(summary["record"])
    assert report.verified, report.divergence
    return summary, [t for t in _turns(summary["record"]) if t.get("kind") == "turn"]


def test_a_scripted_player_wins_with_the_words_heard_and_loses_without(tmp_path: Path) -> None:
    won, turns = _scripted(tmp_path, "listen")
    assert won["success"], won["reason"]
    assert [t["action"]["action"] for t in turns][:2] == ["turn_and_use", "enter_code"]
    assert turns[1]["action"]["arguments"]["code"] == "3141"
    lost, turns = _scripted(tmp_path, "deaf")
    assert not lost["success"]
    entered = [t for t in turns if t["action"] and t["action"]["action"] == "enter_code"]
    assert entered and "locked out for good" in entered[0]["result"]["detail"]
    # The deaf player was never sent the code, in any message.
    assert not any("3141" in json.dumps(t["observation"]) for t in turns)
