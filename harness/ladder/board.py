"""The leaderboard as a reader gets it: Markdown, ladder.json and a static page.

The page is `harness compare`'s template (harness/pages/templates/compare.html.j2) with
the board's tables; the three outputs come from one list of columns, so a figure is
formatted in one place.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.compare.tables import short_commands
from harness.core.markdown_table import table_lines
from harness.ladder.ratings import TALLIES
from harness.pages.render import render
from harness.suite.files import write_atomically

LADDER_JSON = "ladder.json"
LADDER_PAGE = "ladder.html"

# Column -> (header, how an entry of ladder.json renders).
COLUMNS: dict[str, tuple[str, Callable[[dict[str, Any]], str]]] = {
    "rank": ("rank", lambda e: str(e["rank"])),
    "agent": ("agent", lambda e: e["agent"]["label"]),
    "command": ("command", lambda e: e["agent"]["command"]),
    "rating": ("rating (mu ± sigma)", lambda e: f"{e['mu']:.2f} ± {e['sigma']:.2f}"),
    "interval": ("95% interval", lambda e: f"[{e['interval95'][0]:.2f}, "
                 f"{e['interval95'][1]:.2f}]"),
    "matches": ("matches", lambda e: str(e["matches"])),
    "record": ("wins / draws / losses",
               lambda e: " / ".join(str(e[t]) for t in TALLIES.values())),
}


def note(ladder: dict[str, Any]) -> str:
    """The sentence above the board: what was counted and how agents are ranked."""
    refused = len(ladder["refused"])
    return (f"Openskill (Plackett-Luce) ratings over {ladder['matches']} match(es) whose "
            "records replay; ranked by the lower end of the 95% interval (mu - 1.96 sigma)."
            + (f" {refused} record(s) refused, listed below." if refused else ""))


def tables(ladder: dict[str, Any]) -> list[dict[str, Any]]:
    """The board and the refused records as titled tables (title, head, rows)."""
    board = {"title": "Leaderboard", "head": [h for h, _ in COLUMNS.values()],
             "rows": [[cell(e) for _, cell in COLUMNS.values()] for e in ladder["board"]],
             "code": list(COLUMNS).index("command")}
    refused = {"title": "Refused records", "head": ["record", "reason"],
               "rows": [[r["path"], r["reason"]] for r in ladder["refused"]]}
    return [board, refused] if ladder["refused"] else [board]


def markdown(ladder: dict[str, Any]) -> str:
    """The board (and the refused records) as Markdown."""
    lines = ["# Ladder", "", note(ladder), ""]
    for table in tables(ladder):
        lines += [f"## {table['title']}", "",
                  *table_lines(table["head"], table["rows"], escape=True), ""]
    return "\n".join(lines)


def write_outputs(ladder: dict[str, Any], out: Path) -> list[Path]:
    """Write ladder.json and ladder.html into `out` (each whole or not at all)."""
    out.mkdir(parents=True, exist_ok=True)
    commands = [e["agent"]["command"] for e in ladder["board"]]
    page = render("compare.html.j2", title="Ladder", note=note(ladder),
                  tables=tables(ladder), charts=[], short=short_commands(commands))
    written = {LADDER_JSON: json.dumps(ladder, indent=2, allow_nan=False) + "\n",
               LADDER_PAGE: page}
    for name, text in written.items():
        write_atomically(out / name, text)
    return [out / name for name in written]
