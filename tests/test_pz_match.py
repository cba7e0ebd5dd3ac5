"""PettingZoo over matches (40): the parallel and AEC APIs, the event-driven turn
convention, and a mixed match of a policy and an agent process whose record replays."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

from harness.match.replay import replay_match
from harness.match.runner import MATCH_RECORD
from harness.pz import match_aec_env, match_env
from harness.pz.parallel import CHOICES, NOOP, POLICY_COMMAND
from tests.shared import SHIPPED_AGENTS, TEST_SECRET, python_agent


def _sample(env, infos: dict, rng: np.random.Generator) -> dict:
    return {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in env.agents}


def test_the_parallel_env_passes_pettingzoos_parallel_api_test() -> None:
    env = match_env(level="duel_yard", secret=TEST_SECRET)
    parallel_api_test(env, num_cycles=150)
    env.close()


def test_the_aec_env_passes_pettingzoos_api_test() -> None:
    env = match_aec_env(level="team_yard", secret=TEST_SECRET)
    api_test(env, num_cycles=60)
    env.close()


def test_only_the_deciding_agent_acts_and_the_others_get_a_noop_mask() -> None:
    env = match_env(level="duel_yard", secret=TEST_SECRET)
    obs, infos = env.reset(seed=2)
    assert env.agents == ["p1", "p2"]
    assert [infos[a]["deciding"] for a in env.agents] == [True, False]
    assert np.flatnonzero(infos["p2"]["action_mask"]).tolist() == [NOOP]
    assert (obs["p2"]["action_mask"] == infos["p2"]["action_mask"]).all()
    assert infos["p1"]["action_mask"].sum() > 1
    # Each agent's observation is its own player's view: p2 stands in the east hut.
    assert infos["p2"]["view"]["area"]["name"] == "East hut"
    assert infos["p1"]["view"]["area"]["name"] == "West hut"
    with pytest.raises(ValueError, match="'p1' decides now"):
        env.step({"p2": NOOP})
    # The non-deciding agent's action is ignored: two different ones play the same match.
    wait = NOOP + 1  # another wait choice, not allowed to p2 now
    twin = match_env(level="duel_yard", secret=TEST_SECRET)
    twin.reset(seed=2)
    got = [e.step({"p1": NOOP, "p2": a}) for e, a in ((env, NOOP), (twin, wait))]
    assert got[0][4]["p2"]["deciding"] is True  # p1 waited, so p2 decides next
    assert env.session.state_hash() == twin.session.state_hash()
    assert CHOICES[NOOP].action == "wait"
    env.close()
    twin.close()


def test_a_mixed_match_of_a_policy_and_an_agent_process_plays_out_and_replays(
        tmp_path: Path) -> None:
    env = match_env(level="duel_yard", secret=TEST_SECRET, record_dir=tmp_path,
                    processes={"p2": python_agent(SHIPPED_AGENTS / "greedy_agent.py")})
    assert env.possible_agents == ["p1"]
    rng = np.random.default_rng(0)
    _, infos = env.reset(seed=4)
    steps, rewards = 0, {}
    while env.agents:
        _, rewards, terms, truncs, infos = env.step(_sample(env, infos, rng))
        steps += 1
        assert steps < 200
    assert set(rewards) == {"p1"} and infos["p1"]["result"] in ("won", "lost", "draw")
    assert terms["p1"] or truncs["p1"]
    env.close()
    record = env.run_dir / MATCH_RECORD
    lines = [json.loads(t) for t in gzip.decompress(record.read_bytes()).splitlines()]
    header = lines[0]
    assert header["agents"]["p1"]["command"] == POLICY_COMMAND
    assert "greedy_agent.py" in header["agents"]["p2"]["command"]
    assert header["agents"]["p2"]["hello"]["name"] != "pettingzoo-policy"
    turns = [x for x in lines if x["kind"] == "turn"]
    assert {t["player"] for t in turns} == {"p1", "p2"}
    report = replay_match(record)
    assert report.verified, report.divergence
    assert {s["player"]: s["score"] for s in report.standings}["p1"] == rewards["p1"]
    # The map a page draws is the level's: a record with another map does not verify.
    header["map"]["areas"][0]["name"] = "Elsewhere"
    forged = tmp_path / "forged" / MATCH_RECORD
    forged.parent.mkdir()
    forged.write_bytes(gzip.compress("".join(json.dumps(x) + "\n" for x in lines).encode()))
    assert "map differs" in str(replay_match(forged).divergence)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"level": "exit_switch"}, "no match block"),
    ({"processes": {"p3": "x"}}, "processes: ['p3'] are not players"),
    ({"processes": {"p1": "x", "p2": "y"}}, "every seat is an agent process"),
    ({"teams": ["a"]}, "teams: level 'duel_yard' is played by 2 players"),
    ({"difficulty": "hard"}, "difficulty: 'hard' is not one of normal"),
])
def test_bad_arguments_are_named_in_one_line(kwargs: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        match_env(**{"level": "duel_yard", **kwargs})
