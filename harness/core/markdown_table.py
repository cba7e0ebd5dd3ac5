"""Markdown tables, built one way for every report, generated doc and benchmark page.

A table is a header row, a rule of `---` cells and one row per line, each cell between
`| ` and ` |`. Cells are text as given: a report whose cells may hold a `|` (an agent's
name, a command line) asks for it to be escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence


def table_lines(head: Sequence[str], rows: Iterable[Sequence[str]],
                escape: bool = False) -> list[str]:
    """The lines of a table (`escape`: a `|` in a body cell gets a backslash before it)."""
    def line(cells: Iterable[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    body = ([c.replace("|", "\\|") for c in row] if escape else row for row in rows)
    return [line(head), "|" + "---|" * len(head), *(line(row) for row in body)]


def keyed_table_lines(columns: Sequence[tuple[str, str]],
                      rows: Iterable[Mapping[str, str]]) -> list[str]:
    """The lines of a table declared as (key, header) columns, each row's cells by key."""
    return table_lines([header for _, header in columns],
                       ([row[key] for key, _ in columns] for row in rows))
