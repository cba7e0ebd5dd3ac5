"""PROTOCOL.md's tables and the generated schemas agree with the declarations in code."""

from __future__ import annotations

import re

from harness.protocol import ERROR_CODES, OUTCOMES
from harness.protocol_docs import PROTOCOL_MD, generated_files
from world.actions.catalog import catalog


def table_names(heading: str) -> list[str]:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    block = section.split("<!-- end table -->", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", block, flags=re.M)


def test_generated_files_are_up_to_date() -> None:
    stale = [p.name for p, text in generated_files().items()
             if p.read_text(encoding="utf-8") != text]
    assert stale == [], "run python3 -m harness.protocol_docs"


def test_protocol_md_tables_list_exactly_the_declared_names() -> None:
    assert table_names("<!-- table:actions -->") == list(catalog().action_names)
    assert table_names("<!-- table:end_reasons -->") == list(catalog().end_reason_names)
    assert table_names("<!-- table:error_codes -->") == list(ERROR_CODES)
    assert table_names("<!-- table:outcomes -->") == list(OUTCOMES)
