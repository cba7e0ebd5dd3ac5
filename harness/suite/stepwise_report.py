"""The stepwise track's figures, beside the end-to-end track's, per level and difficulty.

For each (level, difficulty): chains played, chains passed (every subtask succeeded)
beside the episodes won end to end, subtasks succeeded out of those played, each
subtask's own success count, and which subtask each chain failed first. A chain is
partial when its reference run did not do every work objective (those are not in it).
Episodes with no
chain (`subtask.NO_CHAIN`: nothing to chain) are counted apart and left out of every
rate, like harness errors.
"""

from __future__ import annotations

from typing import Any

from harness.core.markdown_table import keyed_table_lines
from harness.episode.subtask import NO_CHAIN

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
        Per group: level, difficulty, chains (played), partial (chains played that lack
        work objectives the reference did not do), harness_errors, no_chain
        (episodes with no chain), no_chain_why (their NO_CHAIN keys), end_to_end
        (episodes with a chain won end to end), passed, subtasks_succeeded,
        subtasks_played, each (objective -> [succeeded, played]) and first_failed
        (objective -> chains that failed there first).
    """
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        if isinstance(row.get("stepwise"), dict):
            groups.setdefault((row["level"], row["difficulty"]), []).append(row)
    out = []
    for (level, difficulty), group in groups.items():
        chains = [r["stepwise"] for r in group if _played(r["stepwise"])]
        unchained = [r["stepwise"]["no_chain"] for r in group if r["stepwise"].get("no_chain")]
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
            "harness_errors": len(group) - len(chains) - len(unchained),
            "no_chain": len(unchained), "no_chain_why": sorted(set(unchained)),
            "end_to_end": sum(1 for r in group if _played(r["stepwise"]) and r.get("success")),
            "passed": sum(1 for c in chains if c["passed"]),
            "partial": sum(1 for c in chains if c.get("missing")),
            "subtasks_succeeded": sum(t[0] for t in each.values()),
            "subtasks_played": sum(t[1] for t in each.values()),
            "each": each, "first_failed": first,
        })
    return out


def chain_harness_errors(rows: list[dict[str, Any]]) -> int:
    """How many rows' chains ended in a harness error (no chain is not one)."""
    return sum(1 for r in rows if (r.get("stepwise") or {}).get("harness_error"))


def _played(chain: dict[str, Any]) -> bool:
    return chain.get("harness_error") is None and not chain.get("no_chain")


def stepwise_cells(s: dict[str, Any]) -> dict[str, str]:
    """A summary's cells as text, by column (a group with no chain played shows dashes)."""
    n = s["chains"]
    whys = ", ".join(NO_CHAIN[w][0] for w in s.get("no_chain_why", []))
    def of(key: str) -> str:
        return f"{s[key]}/{n}" if n else "—"

    return {
        "level": s["level"], "difficulty": s["difficulty"],
        "chains": str(n) + (f" ({s['partial']} partial)" if s.get("partial") else "")
        + (f" (+{s['no_chain']} no chain: {whys})" if s.get("no_chain")
                            else "") + (f" (+{s['harness_errors']} harness error)"
                                        if s["harness_errors"] else ""),
        "end_to_end": of("end_to_end"), "passed": of("passed"),
        "subtasks": f"{s['subtasks_succeeded']}/{s['subtasks_played']}" if n else "—",
        "each": ", ".join(f"{k}: {v[0]}/{v[1]}" for k, v in s["each"].items()) or "none",
        "first_failed": ", ".join(f"{k}: {v}" for k, v in s["first_failed"].items()) or "none",
    }


def stepwise_markdown(summaries: list[dict[str, Any]]) -> str:
    """The stepwise table in Markdown."""
    lines = keyed_table_lines(STEPWISE_COLUMNS, (stepwise_cells(s) for s in summaries))
    return "\n".join(lines) + "\n\n" + stepwise_overall(summaries) + "\n"


def stepwise_overall(summaries: list[dict[str, Any]]) -> str:
    """A sentence of totals: chains passed of those played, and the episodes left out."""
    played = sum(s["chains"] for s in summaries)
    text = f"Chains passed: {sum(s['passed'] for s in summaries)}/{played}"
    partial = sum(s.get("partial", 0) for s in summaries)
    if partial:
        text += (f" ({partial} of them partial: the reference run did not do every work "
                 "objective, so those are not in the chain)")
    apart = [f"{s['level']} {s['difficulty']} ({s['no_chain']}: "
             + ", ".join(NO_CHAIN[w][0] for w in s["no_chain_why"]) + ")"
             for s in summaries if s.get("no_chain")]
    if apart:
        text += (f"; {sum(s['no_chain'] for s in summaries)} episode(s) with no chain, left "
                 "out: " + "; ".join(apart))
    failed = sum(s["no_chain"] for s in summaries
                 if "reference_did_none" in s.get("no_chain_why", []))
    if failed:
        # The level has work to chain; only the reference's failure left it unchained.
        text += (f"; the reference run failed in {failed} of them, so these figures are "
                 "incomplete")
    errors = sum(s["harness_errors"] for s in summaries)
    if errors:
        text += f"; {errors} chain(s) ended in a harness error, left out"
    return text + "."
