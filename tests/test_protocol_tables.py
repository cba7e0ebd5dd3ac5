"""PROTOCOL.md's tables and the generated schemas agree with the declarations in code."""

from __future__ import annotations

import re

from harness.core.protocol import ERROR_CODES, OUTCOMES, USAGE_FIELDS
from harness.docgen.protocol import PROTOCOL_MD, generated_files
from world.actions.catalog import catalog


def table_names(heading: str) -> list[str]:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    block = section.split("<!-- end table -->", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", block, flags=re.M)


def test_generated_files_are_up_to_date() -> None:
    stale = [p.name for p, text in generated_files().items()
             if p.read_text(encoding="utf-8") != text]
    assert stale == [], "run python3 -m harness.docgen.protocol"


def test_protocol_md_tables_list_exactly_the_declared_names() -> None:
    assert table_names("<!-- table:actions -->") == list(catalog().action_names)
    assert table_names("<!-- table:end_reasons -->") == list(catalog().end_reason_names)
    assert table_names("<!-- table:error_codes -->") == list(ERROR_CODES)
    assert table_names("<!-- table:outcomes -->") == list(OUTCOMES)
    assert table_names("<!-- table:usage -->") == list(USAGE_FIELDS)


def test_the_enumeration_tables_list_exactly_the_declared_names() -> None:
    from world.characters.alertness import LEVEL_NAMES
    from world.objectives.registry import VERIFIERS
    from world.observe.vocabulary import OBJECT_KINDS, OBJECT_STATES
    from world.sim.doors import DOOR_STATES
    from world.sim.items import CARRIED_KINDS

    assert table_names("<!-- table:alertness -->") == list(LEVEL_NAMES)
    assert table_names("<!-- table:objective_kinds -->") == list(VERIFIERS)
    assert table_names("<!-- table:object_kinds -->") == list(OBJECT_KINDS)
    assert table_names("<!-- table:object_states -->") == list(OBJECT_STATES)
    assert table_names("<!-- table:door_states -->") == list(DOOR_STATES)
    assert table_names("<!-- table:carried_kinds -->") == list(CARRIED_KINDS)


def test_objective_rows_say_which_kinds_are_standing_conditions() -> None:
    text = PROTOCOL_MD.read_text(encoding="utf-8").split("<!-- table:objective_kinds -->")[1]
    rows = dict(re.findall(r"^\| `(\w+)` \| (\w+): ", text.split("<!-- end table -->")[0],
                           flags=re.M))
    assert {k for k, v in rows.items() if v == "standing"} == {"protect", "stay_unseen",
                                                               "no_alarm"}


def test_object_kinds_are_the_level_schema_enum_and_carried_kinds_among_them() -> None:
    import json

    from harness.core.protocol import SCHEMA_DIR
    from world.observe.vocabulary import OBJECT_KINDS
    from world.sim.items import CARRIED_KINDS

    schema = json.loads((SCHEMA_DIR / "level.schema.json").read_text(encoding="utf-8"))
    enum = schema["$defs"]["object"]["properties"]["kind"]["enum"]
    assert sorted(OBJECT_KINDS) == sorted(enum)
    assert set(CARRIED_KINDS) <= set(OBJECT_KINDS)


def test_every_message_field_has_a_meaning_in_its_schema() -> None:
    # The field tables are read from the schemas: a field added without a description
    # would leave a blank meaning in PROTOCOL.md.
    from harness.docgen.fields import MESSAGES, field_rows

    blank = [f"{m}: {row.path}" for m in MESSAGES for row in field_rows(m) if not row.meaning]
    assert blank == []
    rows = {row.path: row for row in field_rows("observation")}
    assert rows["view.player.health"].unit == "fraction"
    assert rows["tick"].unit == "ticks" and rows["view.objects[].distance"].unit == "world units"
    assert "broken" in rows["view.doors[].state"].range
    assert "view.exit.position" not in rows  # the mission exit has no position
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    for message in MESSAGES:
        assert f"<!-- table:fields_{message} -->" in text


def test_outcome_names_are_constants_declared_once() -> None:
    # Every outcome and outcome kind has one constant in harness/core/protocol.py, and the
    # table is built from them.
    import harness.core.protocol as protocol

    names = {v for k, v in vars(protocol).items()
             if k.isupper() and isinstance(v, str) and v in OUTCOMES}
    kinds = {v for k, v in vars(protocol).items() if k.endswith("_KIND") and isinstance(v, str)}
    assert names == set(OUTCOMES)
    assert kinds == {o.kind for o in OUTCOMES.values()} == {"terminated", "truncated", "aborted"}


def test_the_harness_names_outcomes_through_their_constants() -> None:
    # An outcome written as a literal where an ending is built or an outcome compared
    # would drift from the declaration unseen (field names that look alike are fine).
    import ast

    from tests.shared import ROOT

    words = set(OUTCOMES) | {o.kind for o in OUTCOMES.values()}
    found = []
    for path in sorted((ROOT / "harness").rglob("*.py")):
        if path.relative_to(ROOT / "harness").as_posix() == "core/protocol.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            literals: list[ast.expr] = []
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith(
                    ("Ending", "_agent_fault")):
                literals = node.args[:1]
            elif isinstance(node, ast.Compare) and re.search(
                    r"outcome|kind", ast.unparse(node)):
                literals = [node.left, *node.comparators]
                literals += [e for c in node.comparators if isinstance(c, (ast.Tuple, ast.Set))
                             for e in c.elts]
            elif isinstance(node, ast.Dict):
                literals = [v for k, v in zip(node.keys, node.values, strict=True)
                            if isinstance(k, ast.Constant) and k.value == "outcome"]
            elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith(".get") \
                    and node.args and isinstance(node.args[0], ast.Constant) \
                    and node.args[0].value == "outcome":
                literals = node.args[1:2]
            found += [f"{path.relative_to(ROOT)}:{node.lineno}" for e in literals
                      if isinstance(e, ast.Constant) and e.value in words]
    assert found == []
