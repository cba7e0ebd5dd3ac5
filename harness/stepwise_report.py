"""The stepwise track's figures, beside the end-to-end track's, per level and difficulty.

For each (level, difficulty): chains played, chains passed (every subtask succeeded)
beside the episodes won end to end, subtasks succeeded out of those played, each
subtask's own success count, and which subtask each chain failed first.
"""

from __future__ import annotations

from typing import Any

# Column -> header of the stepwise table, declared once for Markdown and the page.
STEPWISE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("level", "level"), ("difficulty", "difficulty"), ("chains", "chains"),
    ("end_to_end", "won end to end"), ("passed", "chains passed"),
    ("subtasks", "subtasks succeeded"), ("each", "per subtask (objective: succeeded/played)"),
    ("first_failed", "first failed subtask (objective: chains)"),
)


def summarise_stepwise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One summary per (level, difficulty) of the rows that carry a chain.

    Returns:
        Per group: level, difficulty, chains, harness_errors, end_to_end (episodes won),
        passed, subtasks_succeeded, subtasks_played, each (objective -> [succeeded,
        played]) and first_failed (objective -> chains that failed there first).
    """
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        if isinstance(row.get("stepwise"), dict):
            groups.setdefault((row["level"], row["difficulty"]), []).append(row)
    out = []
    for (level, difficulty), group in groups.items():
        chains = [r["stepwise"] for r in group if r["stepwise"].get("harness_error") is None]
        each: dict[str, list[int]] = {}
        first: dict[str, int] = {}
        for chain in chains:
            for sub in chain["subtasks"]:
                if not sub["played"]:
                    continue
                tally = each.setdefault(str(sub["subtask"]), [0, 0])
                tally[0] += int(bool(sub["success"]))
                tally[1] += 1
            if chain["first_failed"] is not None:
                key = str(chain["first_failed"])
                first[key] = first.get(key, 0) + 1
        out.append({
            "level": level, "difficulty": difficulty, "chains": len(chains),
            "harness_errors": len(group) - len(chains),
            "end_to_end": sum(1 for r in group if r["stepwise"].get("harness_error") is None
                              and r.get("success")),
            "passed": sum(1 for c in chains if c["passed"]),
            "subtasks_succeeded": sum(t[0] for t in each.values()),
            "subtasks_played": sum(t[1] for t in each.values()),
            "each": each, "first_failed": first,
        })
    return out


def stepwise_cells(s: dict[str, Any]) -> dict[str, str]:
    """A summary's cells as text, by column."""
    n = s["chains"]
    return {
        "level": s["level"], "difficulty": s["difficulty"],
        "chains": str(n) + (f" (+{s['harness_errors']} harness error)"
                            if s["harness_errors"] else ""),
        "end_to_end": f"{s['end_to_end']}/{n}", "passed": f"{s['passed']}/{n}",
        "subtasks": f"{s['subtasks_succeeded']}/{s['subtasks_played']}",
        "each": ", ".join(f"{k}: {v[0]}/{v[1]}" for k, v in s["each"].items()) or "none",
        "first_failed": ", ".join(f"{k}: {v}" for k, v in s["first_failed"].items()) or "none",
    }


def stepwise_markdown(summaries: list[dict[str, Any]]) -> str:
    """The stepwise table in Markdown."""
    lines = ["| " + " | ".join(h for _, h in STEPWISE_COLUMNS) + " |",
             "|" + "---|" * len(STEPWISE_COLUMNS)]
    for s in summaries:
        cells = stepwise_cells(s)
        lines.append("| " + " | ".join(cells[k] for k, _ in STEPWISE_COLUMNS) + " |")
    return "\n".join(lines) + "\n"
