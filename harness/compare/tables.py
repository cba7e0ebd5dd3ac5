"""The differences as tables, and tables made to fit: empty columns dropped, commands shortened.

A difference cell reads "+20% [+3%, +37%]": first minus second, then its 95% interval.
The "significant at 5%" column names which differences are significant, so nobody
subtracts intervals by eye; the "settings" column says whether the pairs were matched
setting by setting or fell back to the two-sample intervals.
"""

from __future__ import annotations

import re
from typing import Any

MISSING = "—"
# Longest agent command shown whole in a page's table; longer ones are cut (see
# `short_commands`) and shown whole in a tooltip.
COMMAND_CHARS = 48


def _signed(value: float, percent: bool) -> str:
    text = f"{value * 100:+.0f}%" if percent else f"{value:+.2f}"
    return text.replace("-", "−")  # a minus sign, not a hyphen


def _span(figure: dict[str, Any], percent: bool) -> str:
    low, high = figure["ci95"]
    return (f"{_signed(figure['difference'], percent)} "
            f"[{_signed(low, percent)}, {_signed(high, percent)}]")


def _settings(diff: dict[str, Any]) -> str:
    if diff["method"] == "paired":
        alone = diff["left_out"]
        return f"{diff['settings']} paired" + (
            f" ({alone[0]} + {alone[1]} episodes of one agent left out)" if any(alone) else "")
    first, second = diff["episodes"]
    return f"not paired ({first} vs {second} episodes)"


def _p_value(figure: dict[str, Any]) -> str:
    p = figure["p_value"]
    return MISSING if p is None else (f"{p:.3f}" if p >= 0.001 else "<0.001")


def _significant(diff: dict[str, Any]) -> str:
    which = [name for name in ("success", "score") if diff[name]["significant"]]
    return " and ".join(which) if which else "no"


DIFF_HEAD = ["settings", "success difference (95%)", "McNemar p",
             "mean score difference (95%)", "significant at 5%"]


def _cells(diff: dict[str, Any]) -> list[str]:
    return [_settings(diff), _span(diff["success"], True), _p_value(diff["success"]),
            _span(diff["score"], False), _significant(diff)]


def _pair(pair: dict[str, Any]) -> str:
    return f"{pair['first']['label']} − {pair['second']['label']}"


def difference_tables(comparison: dict[str, Any]) -> list[dict[str, Any]]:
    """The differences of every pair of agents: overall, by category, by level.

    Returns:
        Titled tables as `harness.compare.report.tables` makes them (none when the
        comparison holds fewer than two agents).
    """
    pairs = comparison.get("differences") or []
    if not pairs:
        return []
    overall = [[_pair(p), *_cells(p["overall"])] for p in pairs]
    categories = [[c["category"], _pair(p), *_cells(c)] for p in pairs for c in p["categories"]]
    levels = [[lv["level"], lv["difficulty"], _pair(p), *_cells(lv)]
              for p in pairs for lv in p["levels"]]
    return [
        {"title": "Differences (first agent minus second)", "head": ["agents", *DIFF_HEAD],
         "rows": overall},
        {"title": "Differences by category", "head": ["category", "agents", *DIFF_HEAD],
         "rows": categories},
        {"title": "Differences by level and difficulty",
         "head": ["level", "difficulty", "agents", *DIFF_HEAD], "rows": levels},
    ]


def interleave(tables: list[dict[str, Any]], differences: list[dict[str, Any]]
               ) -> list[dict[str, Any]]:
    """Each table followed by its differences (the same grouping).

    The charts go after the first pair: a page draws them after the table marked
    "charts": true.
    """
    out = []
    for n, table in enumerate(tables):
        out.append(table)
        if n < len(differences):
            out.append(differences[n])
    out[1 if differences else 0] = {**out[1 if differences else 0], "charts": True}
    return out


def fit(table: dict[str, Any]) -> dict[str, Any]:
    """The table without the columns that carry no figure (every cell a dash)."""
    rows = table["rows"]
    keep = [i for i in range(len(table["head"]))
            if not rows or any(row[i] != MISSING for row in rows)]
    out = {**table, "head": [table["head"][i] for i in keep],
           "rows": [[row[i] for i in keep] for row in rows]}
    if table.get("code") is not None:
        out["code"] = keep.index(table["code"]) if table["code"] in keep else None
    return out


def code_cells(table: dict[str, Any]) -> list[list[str]]:
    """The rows with the table's code column (if any) as Markdown code spans."""
    column = table.get("code")
    rows: list[list[str]] = table["rows"]
    if column is None or column >= len(table["head"]):
        return rows

    def code(text: str) -> str:
        fence = "``" if "`" in text else "`"  # a backtick inside needs a longer fence
        return f"{fence} {text} {fence}" if fence == "``" else f"`{text}`"

    return [[code(c) if i == column else c for i, c in enumerate(row)] for row in rows]


_BOUNDARY = re.compile(r"[ /]")


def _shared_start(texts: list[str]) -> str:
    first, last = min(texts), max(texts)  # the two that differ soonest bound them all
    n = next((i for i, (a, b) in enumerate(zip(first, last, strict=False)) if a != b),
             min(len(first), len(last)))
    # Cut after a space or a slash, so a word or a folder is never split.
    return first[:max((m.end() for m in _BOUNDARY.finditer(first[:n])), default=0)]


def short_commands(commands: list[str], limit: int = COMMAND_CHARS) -> dict[str, str]:
    """Each command as a table shows it: whole when it fits, else what tells it apart.

    A longer command loses the start it shares with the others (an ellipsis in its
    place), then its end beyond `limit` characters.
    """
    distinct = sorted(set(commands))
    shared = _shared_start(distinct) if len(distinct) > 1 else ""
    out = {}
    for command in distinct:
        text = command if len(command) <= limit or not shared else "…" + command[len(shared):]
        out[command] = text if len(text) <= limit else text[:limit - 1] + "…"
    return out
