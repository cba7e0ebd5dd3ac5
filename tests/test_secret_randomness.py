"""An episode's randomness is drawn from a key the agent never learns (harness/core/keys.py).

The hostile agent here is the one issue 34 describes: it bundles the world's public code
and builds its own copy of the episode from what the start message gives (level,
difficulty, seed), hoping to read the episode ahead of playing it.
"""

from __future__ import annotations

import gzip
import json
import stat
import sys
from pathlib import Path

import pytest

from harness.core.game import world_game
from harness.core.keys import (
    SECRET_FILE,
    SecretError,
    episode_key,
    key_text,
    parse_secret,
    suite_secret,
)
from harness.core.level_refs import resolve
from harness.core.record import read_record
from harness.episode.live import EpisodeSpec, run_episode
from harness.episode.replay import replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from harness.episode.snapshot import Snapshot, SnapshotError, restore, take
from tests.shared import ROOT

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)
WAITER = f"{sys.executable} {ROOT / 'tests' / 'agents' / 'brief_wait_agent.py'} 5"
SECRET = bytes.fromhex("5e" * 32)
# arena_frags: four bots whose roaming is drawn from the world's generator at once.
LEVEL, DIFFICULTY = "arena_frags", "normal"


def _positions(view: dict) -> list:
    # What the agent sees of where everyone is, whatever ids name them.
    seen = sorted(tuple(c["position"]) for c in view.get("characters", []))
    return [tuple(view["player"]["position"]), seen]


def _copy_diverges_at(record_dir: Path, key: int | None = None) -> int | None:
    """Play the record's waits on a copy of the world; the first turn its view differs."""
    record = read_record(record_dir)
    start = record.header["start"]  # all the agent was told
    level = resolve(start["level"]).level
    copy = world_game(level, start["difficulty"], start["seed"] if key is None else key)
    for turn in record.turns:
        if _positions(copy.view()) != _positions(turn["observation"]["view"]):
            return int(turn["turn"])
        if turn["action"] is not None:
            copy.act(turn["action"]["action"], turn["action"]["arguments"])
    return None


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("runs")
    return run(LEVEL, WAITER, difficulty=DIFFICULTY, seed=3, out_dir=out, settings=FAST,
               secret=SECRET)


def test_a_world_copy_made_from_the_start_message_diverges_within_a_few_turns(played) -> None:
    record = read_record(played["run_dir"])
    assert record.header["start"]["seed"] == 3 and len(record.turns) >= 5
    diverged = _copy_diverges_at(Path(played["run_dir"]))
    assert diverged is not None and diverged <= 2, diverged
    # The operator's copy, made from the record's key, matches every turn: the
    # comparison is fair, and the key is all replay needs.
    level = resolve(LEVEL).level
    key = episode_key(SECRET, level.content_hash, DIFFICULTY, 3)
    assert _copy_diverges_at(Path(played["run_dir"]), key) is None


def test_the_record_carries_the_key_never_the_secret_and_replays(played) -> None:
    header = read_record(played["run_dir"]).header
    level = resolve(LEVEL).level
    assert header["key"] == key_text(episode_key(SECRET, level.content_hash, DIFFICULTY, 3))
    text = gzip.decompress((Path(played["run_dir"]) / "record.jsonl.gz").read_bytes()).decode()
    # The start message holds neither the key nor a field named for it (its tools' words
    # may say "keypad" or "key in a code": prose, not the episode key).
    start = json.dumps(header["start"])
    assert SECRET.hex() not in text and header["key"] not in start and '"key":' not in start
    report = replay(played["run_dir"])
    assert report.verified, report.divergence


def test_the_same_secret_reproduces_the_run_and_another_does_not(played, tmp_path) -> None:
    hashes = [t["state_hash"] for t in read_record(played["run_dir"]).turns]
    again = run(LEVEL, WAITER, difficulty=DIFFICULTY, seed=3, out_dir=tmp_path, settings=FAST,
                secret=SECRET)
    assert [t["state_hash"] for t in read_record(again["run_dir"]).turns] == hashes
    other = run(LEVEL, WAITER, difficulty=DIFFICULTY, seed=3, out_dir=tmp_path, settings=FAST,
                secret=bytes(range(100, 132)))
    assert [t["state_hash"] for t in read_record(other["run_dir"]).turns] != hashes
    assert not (Path(again["run_dir"]) / SECRET_FILE).exists()  # given, so not written


def test_a_run_given_no_secret_keeps_the_one_it_made_for_the_operator(tmp_path) -> None:
    summary = run(LEVEL, WAITER, difficulty=DIFFICULTY, seed=1, out_dir=tmp_path / "a",
                  settings=FAST)
    kept = Path(summary["run_dir"]) / SECRET_FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    again = run(LEVEL, WAITER, difficulty=DIFFICULTY, seed=1, out_dir=tmp_path / "b",
                settings=FAST, secret=parse_secret(str(kept)))
    assert ([t["state_hash"] for t in read_record(summary["run_dir"]).turns]
            == [t["state_hash"] for t in read_record(again["run_dir"]).turns])


def test_a_record_made_before_keys_replays_with_its_seed(tmp_path) -> None:
    level = resolve(LEVEL).level
    spec = EpisodeSpec(level, LEVEL, DIFFICULTY, 2, WAITER, tmp_path, FAST)  # key: the seed
    run_episode(spec)
    path = tmp_path / "record.jsonl.gz"
    lines = [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    assert lines[0]["key"] == key_text(2)
    del lines[0]["key"]  # as records were written before keys
    path.write_bytes(gzip.compress("".join(json.dumps(x) + "\n" for x in lines).encode()))
    report = replay(tmp_path)
    assert report.verified, report.divergence


def test_a_snapshot_holds_the_key_it_restores_with() -> None:
    level = resolve(LEVEL).level
    key = episode_key(SECRET, level.content_hash, DIFFICULTY, 0)
    game = world_game(level, DIFFICULTY, key)
    steps = []
    for _ in range(3):
        game.view()
        game.act("wait", {"seconds": 2})
        steps.append({"action": "wait", "arguments": {"seconds": 2}})
    snap = take(game, level, DIFFICULTY, 0, {"name": "macro"}, steps, "test", key=key)
    assert snap.to_dict()["key"] == key_text(key)
    restored = restore(Snapshot.from_dict(snap.to_dict(), "snap"), level, world_game)
    assert restored.state_hash() == game.state_hash()
    keyless = {k: v for k, v in snap.to_dict().items() if k != "key"}  # restores with the seed
    with pytest.raises(SnapshotError, match="state hash"):
        restore(Snapshot.from_dict(keyless, "snap"), level, world_game)


def test_a_suite_secret_is_made_once_private_and_reused(tmp_path) -> None:
    secret = suite_secret(tmp_path / "suite")
    path = tmp_path / "suite" / SECRET_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert suite_secret(tmp_path / "suite") == secret and len(secret) == 32


def test_a_bad_secret_is_refused_with_one_line(tmp_path) -> None:
    with pytest.raises(SecretError, match="--secret: a secret is a file holding hex"):
        parse_secret("abc")
    bad = tmp_path / "bad"
    bad.write_text("not hex\n")
    with pytest.raises(SecretError, match=str(bad)):
        parse_secret(str(bad))
    assert parse_secret(("ab" * 16) + "\n") == bytes.fromhex("ab" * 16)


def test_the_environments_draw_their_key_from_their_own_secret() -> None:
    pytest.importorskip("gymnasium")
    from harness.rl.macro_env import MacroEnv

    level = resolve("exit_switch").level
    env = MacroEnv(level="exit_switch", difficulty="easy", secret=SECRET)
    env.reset(seed=4)
    key = episode_key(SECRET, level.content_hash, "easy", 4)
    assert env.game is not None
    assert env.game.state_hash() == world_game(level, "easy", key).state_hash()
    assert MacroEnv(level="exit_switch").secret != SECRET
