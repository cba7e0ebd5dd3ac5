"""`harness compare`'s differences: paired settings, McNemar, Newcombe, bootstrap, fall-back."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from harness.cli import main
from harness.compare.pairs import (
    full_comparison,
    mcnemar_exact,
    paired_bootstrap,
    paired_interval,
    two_sample_bootstrap,
    unpaired_interval,
)
from harness.compare.results import load_episodes, results_files

# The 2x2 table of the paired suites below, first agent against second, 20 settings.
BOTH, FIRST_ONLY, SECOND_ONLY, NEITHER = 10, 5, 1, 4


def _row(seed: int, success: bool, score: float, hello: dict, level: str = "outpost") -> dict:
    # The fields `harness eval` writes per episode (harness.suite.plan.row_from_summary).
    return {"level": level, "difficulty": "easy", "seed": seed,
            "outcome": "completed" if success else "failed", "success": success,
            "score": score, "decisions": 12, "game_time_s": 30.5, "invalid_actions": 0,
            "usage": None, "wall_s": 1.5, "run_dir": f"episodes/{level}/easy/s{seed}/x",
            "agent": hello}


def _suite(folder: Path, command: str, rows: list[dict]) -> Path:
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(json.dumps(
        {"suite": {"agent": command, "levels": ["outpost"], "seeds": len(rows)},
         "episodes": rows, "table": []}), encoding="utf-8")
    return folder


def _paired_suites(tmp_path: Path) -> None:
    """Seeds 0-9 both succeed, 10-14 only the first, 15 only the second, 16-19 neither.

    A success scores 1; a failure scores 0.2 for the first agent and 0.1 for the second.
    """
    first_wins = [s < 15 for s in range(20)]
    second_wins = [s < 10 or s == 15 for s in range(20)]
    _suite(tmp_path / "a", "./first", [_row(s, w, 1.0 if w else 0.2, {"name": "first"})
                                       for s, w in enumerate(first_wins)])
    _suite(tmp_path / "b", "./second", [_row(s, w, 1.0 if w else 0.1, {"name": "second"})
                                        for s, w in enumerate(second_wins)])


def test_mcnemar_exact_by_hand() -> None:
    # 5 against 1 discordant pairs: 2 * P(X <= 1), X ~ Binomial(6, 1/2) = 2 * 7/64.
    assert mcnemar_exact(5, 1) == pytest.approx(14 / 64)
    assert mcnemar_exact(1, 5) == mcnemar_exact(5, 1)
    assert mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(10, 0) == pytest.approx(2 / 1024)
    assert 0 < mcnemar_exact(2000, 2300) < 0.01  # many pairs: exact integers, no overflow


def test_unpaired_interval_matches_newcombe() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 - 48/80, method 10.
    assert unpaired_interval(56, 70, 48, 80) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def test_paired_suites_give_the_hand_computed_difference(tmp_path: Path) -> None:
    _paired_suites(tmp_path)
    episodes, _ = load_episodes(results_files([tmp_path]))
    [pair] = full_comparison(episodes)["differences"]
    assert (pair["first"]["label"], pair["second"]["label"]) == ("first", "second")
    overall = pair["overall"]
    assert overall["method"] == "paired" and overall["settings"] == 20
    success = overall["success"]
    assert success["discordant"] == [FIRST_ONLY, SECOND_ONLY]
    assert success["difference"] == pytest.approx((15 - 11) / 20)
    assert success["p_value"] == pytest.approx(14 / 64)
    assert success["significant"] is False
    # Newcombe's paired interval by hand: p1 = 15/20, p2 = 11/20, D = 0.2;
    # Wilson(15, 20) = (0.531299, 0.888138), Wilson(11, 20) = (0.342085, 0.741802);
    # phi = (10*4 - 5*1 - 20/2) / sqrt(15*5*11*9) = 25 / 86.1684 = 0.290129;
    # low  = 0.2 - sqrt(0.218701^2 - 2*phi*0.218701*0.191802 + 0.191802^2) = -0.045515;
    # high = 0.2 + sqrt(0.207915^2 - 2*phi*0.207915*0.138138 + 0.138138^2) = 0.413647.
    low = 0.2 - math.sqrt(0.218701 ** 2 - 2 * 0.290129 * 0.218701 * 0.191802 + 0.191802 ** 2)
    high = 0.2 + math.sqrt(0.207915 ** 2 - 2 * 0.290129 * 0.207915 * 0.138138
                           + 0.138138 ** 2)
    assert (low, high) == pytest.approx((-0.045515, 0.413647), abs=1e-5)
    assert success["ci95"] == pytest.approx([low, high], abs=1e-5)
    assert paired_interval(BOTH, FIRST_ONLY, SECOND_ONLY, NEITHER) == pytest.approx(
        (low, high), abs=1e-5)
    # Per-setting score differences: 10 x 0, 5 x (1 - 0.1), 1 x (0.2 - 1), 4 x (0.2 - 0.1).
    score = overall["score"]
    assert score["difference"] == pytest.approx((5 * 0.9 - 0.8 + 4 * 0.1) / 20)
    low_s, high_s = score["ci95"]
    assert -0.8 < low_s < 0.205 < high_s < 0.9
    # The same suites give the same interval (a fixed seed), narrower when paired: the
    # pairs share how hard each setting was.
    diffs = [0.0] * 10 + [0.9] * 5 + [-0.8] + [0.1] * 4
    assert paired_bootstrap(diffs) == pytest.approx(tuple(score["ci95"]))
    lone = two_sample_bootstrap([1.0] * 15 + [0.2] * 5, [1.0] * 11 + [0.1] * 9)
    assert high_s - low_s < lone[1] - lone[0]
    # Per category and per level, the same pairs.
    assert [lv["level"] for lv in pair["levels"]] == ["outpost"]
    assert pair["levels"][0]["success"]["ci95"] == success["ci95"]
    assert pair["categories"] and all(c["method"] == "paired" for c in pair["categories"])


def test_bootstrap_of_equal_differences_is_that_difference() -> None:
    assert paired_bootstrap([0.25] * 8) == pytest.approx((0.25, 0.25))


def test_a_clear_difference_is_significant(tmp_path: Path) -> None:
    _suite(tmp_path / "a", "./a", [_row(s, True, 1.0, {"name": "a"}) for s in range(12)])
    _suite(tmp_path / "b", "./b", [_row(s, False, 0.1, {"name": "b"}) for s in range(12)])
    [pair] = full_comparison(load_episodes(results_files([tmp_path]))[0])["differences"]
    overall = pair["overall"]
    assert overall["success"]["p_value"] == pytest.approx(2 / 4096)
    assert overall["success"]["significant"] and overall["score"]["significant"]
    assert overall["score"]["ci95"] == pytest.approx([0.9, 0.9])


def test_unpaired_settings_fall_back_and_say_so(tmp_path: Path, capsys) -> None:
    # The second agent played other seeds: no setting has a partner.
    _suite(tmp_path / "a", "./a", [_row(s, s < 15, 1.0 if s < 15 else 0.2, {"name": "a"})
                                   for s in range(20)])
    _suite(tmp_path / "b", "./b", [_row(s, s < 31, 1.0 if s < 31 else 0.1, {"name": "b"})
                                   for s in range(20, 40)])
    [pair] = full_comparison(load_episodes(results_files([tmp_path]))[0])["differences"]
    overall = pair["overall"]
    assert overall["method"] == "unpaired" and overall["settings"] is None
    assert overall["episodes"] == [20, 20]
    assert overall["success"]["p_value"] is None
    assert overall["success"]["ci95"] == pytest.approx(
        list(unpaired_interval(15, 20, 11, 20)))
    assert "not paired" in overall["success"]["how"]
    assert main(["compare", str(tmp_path), "--out", str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    assert "not paired (20 vs 20 episodes)" in printed
    assert "McNemar p" not in printed  # no pair, no test: the empty column is left out


def test_a_setting_played_twice_is_not_paired(tmp_path: Path) -> None:
    hello = {"name": "a"}
    _suite(tmp_path / "a1", "./a", [_row(0, True, 1.0, hello), _row(1, True, 1.0, hello)])
    _suite(tmp_path / "a2", "./a", [_row(0, False, 0.0, hello)])
    _suite(tmp_path / "b", "./b", [_row(s, False, 0.0, {"name": "b"}) for s in range(2)])
    [pair] = full_comparison(load_episodes(results_files([tmp_path]))[0])["differences"]
    assert pair["overall"]["method"] == "unpaired"


def test_every_output_carries_the_differences(tmp_path: Path, capsys) -> None:
    _paired_suites(tmp_path / "runs")
    assert main(["compare", str(tmp_path / "runs"), "--out", str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    data = json.loads((tmp_path / "out" / "compare.json").read_text(encoding="utf-8"))
    assert data["differences"][0]["overall"]["success"]["p_value"] == pytest.approx(14 / 64)
    row = "| first − second | 20 paired | +20% [−5%, +41%] | 0.219 | +0.20 ["
    assert row in printed
    md = (tmp_path / "out" / "compare.md").read_text(encoding="utf-8")
    assert "## Differences by category" in md and "## Differences by level and difficulty" in md
    page = (tmp_path / "out" / "compare.html").read_text(encoding="utf-8")
    assert "+20% [−5%, +41%]" in page and "McNemar p" in page
    assert "`" not in page  # commands are code elements, not Markdown backticks
    assert '<code title="./first">./first</code>' in page


def test_the_sweep_writes_the_agents_differences() -> None:
    from benchmarks.sweep import block

    def rows(wins: int) -> list[dict]:
        return [{**_row(s, s < wins, 1.0 if s < wins else 0.0, {}), "difficulty": d}
                for d in ("easy", "normal") for s in range(10)]

    text = block({"reference": rows(10), "wait": rows(0)}, seeds=10)
    assert "### Differences between the agents" in text
    # 20 pairs, all won by the reference agent only: McNemar's p = 2 / 2^20.
    assert "| reference − wait | 20 paired | +100% [" in text and "<0.001" in text
    assert "#### Differences by category" in text


def test_settings_of_one_agent_only_are_left_out_of_the_pairs(tmp_path: Path,
                                                              capsys) -> None:
    # The first agent also played blue_door; the comparison keeps to outpost, like for like.
    _paired_suites(tmp_path / "runs")
    _suite(tmp_path / "runs" / "a2", "./first",
           [_row(s, False, 0.0, {"name": "first"}, level="blue_door") for s in range(7)])
    episodes, _ = load_episodes(results_files([tmp_path / "runs"]))
    [pair] = full_comparison(episodes)["differences"]
    overall = pair["overall"]
    assert overall["method"] == "paired" and overall["settings"] == 20
    assert overall["left_out"] == [7, 0] and overall["episodes"] == [27, 20]
    assert overall["success"]["p_value"] == pytest.approx(14 / 64)
    assert [lv["level"] for lv in pair["levels"]] == ["outpost"]
    assert main(["compare", str(tmp_path / "runs")]) == 0
    assert "| 20 paired (7 + 0 episodes of one agent left out) |" in capsys.readouterr().out
