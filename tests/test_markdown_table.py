"""The one Markdown table builder every report, generated doc and benchmark page uses."""

from __future__ import annotations

from harness.core.markdown_table import keyed_table_lines, table_lines


def test_a_table_is_head_rule_and_rows() -> None:
    assert table_lines(["a", "b"], [["1", "2"], ["3", "4"]]) == [
        "| a | b |", "|---|---|", "| 1 | 2 |", "| 3 | 4 |"]
    assert table_lines(["only"], []) == ["| only |", "|---|"]


def test_escape_guards_body_cells_only() -> None:
    lines = table_lines(["a|b"], [["x|y"]], escape=True)
    assert lines == ["| a|b |", "|---|", "| x\\|y |"]
    assert table_lines(["a"], [["x|y"]])[-1] == "| x|y |"  # cells are text as given


def test_keyed_columns_pick_cells_in_declared_order() -> None:
    columns = (("n", "number"), ("w", "word"))
    assert keyed_table_lines(columns, [{"w": "one", "n": "1", "extra": "?"}]) == [
        "| number | word |", "|---|---|", "| 1 | one |"]
