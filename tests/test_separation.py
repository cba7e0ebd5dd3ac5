"""The sweep's list of settings that do not separate the agents (37)."""

from benchmarks.sweep import generated_block
from harness.compare.separation import separation_lines, unseparated


def _rows(level: str, difficulty: str, score: float) -> list[dict]:
    return [{"level": level, "difficulty": difficulty, "seed": s, "score": score}
            for s in range(2)]


def test_ties_and_inversions_are_named_and_easy_is_not_checked() -> None:
    tables = {
        "wait": _rows("a", "normal", 0.0) + _rows("b", "hard", 0.0) + _rows("c", "easy", 0.0),
        "random": _rows("a", "normal", 0.1) + _rows("b", "hard", 0.3) + _rows("c", "easy", 0.9),
        "greedy": _rows("a", "normal", 1.0) + _rows("b", "hard", 0.2) + _rows("c", "easy", 0.5),
        "reference": _rows("a", "normal", 1.0) + _rows("b", "hard", 1.0)
        + _rows("c", "easy", 1.0),
    }
    found = {(u.level, u.difficulty): u.reasons for u in unseparated(tables)}
    assert found == {("a", "normal"): ("greedy level with reference (both win every episode)",),
                     ("b", "hard"): ("random above greedy",)}
    lines = separation_lines(tables)
    assert any(line.startswith("| b | hard |") and "random above greedy" in line
               for line in lines)


def test_nothing_is_listed_without_every_agent() -> None:
    assert unseparated({"reference": _rows("a", "normal", 1.0)}) == []
    assert separation_lines({"reference": _rows("a", "normal", 1.0)}) == []


def _generated(template: str, difficulty: str, scores: list[float]) -> list[dict]:
    return [{"level": f"{template}@{s}", "difficulty": difficulty, "seed": 0, "score": v,
             "success": v == 1.0} for s, v in enumerate(scores)]


def test_generated_missions_give_mean_scores_and_the_order_per_template() -> None:
    # Two maze levels whose means only tie when taken together: judged per template.
    tables = {
        "reference": _generated("maze", "hard", [1.0, 1.0]),
        "greedy": _generated("maze", "hard", [1.0, 0.0]),
        "random": _generated("maze", "hard", [0.5, 0.5]),
        "wait": _generated("maze", "hard", [0.0, 0.0]),
    }
    block = generated_block(tables, 2)
    assert "| `maze` | hard | 2/2 (1.00) | 1/2 (0.50) | 0/2 (0.50) | 0/2 (0.00) |" in block
    assert "| `maze` | hard | 0.00 | 0.50 | 0.50 | 1.00 | random level with greedy |" in block
