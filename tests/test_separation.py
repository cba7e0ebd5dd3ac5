"""The sweep's list of settings that do not separate the agents (37)."""

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
