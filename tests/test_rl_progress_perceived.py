"""Progress and reward count distance only toward what the player has located (34).

A hostile probe walks Raw-v0 straight at exit_switch's first goal (the lift switch in the
control room) from the dock, where nothing shows it: the figures the agent reads stay
flat while the judge's own route progress toward the hidden switch climbs, and they rise
only once the switch is in sight (from the corridor, through the workshop's window).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")

from harness.rl.raw_env import RawEnv
from tests.level_factory import short_copy
from tests.shared import shipped
from world.face import RAW_CONTROLS, new_raw_session

FORWARD = [2, 1, 2, 0, 0, 0]  # walk along the facing (east, toward the control room)
STILL = [1, 1, 2, 0, 0, 0]
SWITCH = "lift_switch"


def _walk(env: RawEnv, steps: int, action: list[int]) -> list[tuple]:
    """(located, reward, observed progress, info progress, info score, judge's progress)."""
    game = env.game
    rows = []
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(action)
        rows.append((SWITCH in game.known.objects, reward, float(obs["player"][7]),
                     info["progress"], info["score"], game.report().progress))
        if terminated or truncated:
            break
    return rows


def test_progress_and_reward_stay_flat_until_the_goal_is_located() -> None:
    env = RawEnv(level="exit_switch", difficulty="easy", reward="shaped")
    env.reset(seed=0)
    rows = _walk(env, 24, FORWARD)
    blind = [r for r in rows if not r[0]]
    seen = [r for r in rows if r[0]]
    assert len(blind) >= 10 and len(seen) >= 5
    # The judge's progress toward the hidden switch climbs all the way (old code showed it).
    assert blind[-1][5] > 0.25
    # What the agent reads does not move: no reward, no progress, no score.
    assert {(r[1], r[2], r[3], r[4]) for r in blind} == {(0.0, 0.0, 0.0, 0.0)}
    # Once in sight, walking on toward it is paid and the figure rises from 0.
    progress = [r[3] for r in seen]
    assert progress == sorted(progress) and progress[-1] > 0.1
    assert all(r[1] > 0 for r in seen[1:])
    assert seen[-1][3] < seen[-1][5]  # measured from where it was located, not the start


def test_last_step_pays_up_to_the_final_score(tmp_path: Path) -> None:
    # Half a second of walking toward the unseen switch, then standing until the game
    # time runs out: every reward before the last is 0, the last pays the judge's route
    # credit, and the summed reward equals the final score.
    level = short_copy(tmp_path, "exit_switch", 150, max_game_seconds=1.0)
    env = RawEnv(level=str(level), difficulty="easy")
    env.reset(seed=0)
    rows = _walk(env, 4, FORWARD) + _walk(env, 20, STILL)
    rewards = [r[1] for r in rows]
    assert not any(r[0] for r in rows) and len(rows) < 24  # truncated, switch unseen
    assert set(rewards[:-1]) == {0.0}
    assert rewards[-1] > 0 and sum(rewards) == pytest.approx(rows[-1][4], abs=1e-12)


def test_raw_track_observation_reads_the_players_progress() -> None:
    # The JSON-lines raw track's `raw.player` (what `harness run --track raw` sends) and
    # the view come from the same report built from the player's knowledge.
    game = new_raw_session(shipped("exit_switch"), "easy", 0, frame_skip=8)
    forward = dict(zip(RAW_CONTROLS, FORWARD, strict=True))
    for _ in range(6):
        game.act("controls", forward)
    assert SWITCH not in game.known.objects and game.report().progress > 0.1
    assert float(game.raw_observation()["player"][7]) == 0.0
    assert game.perceived_report().score == 0.0 < game.report().score
