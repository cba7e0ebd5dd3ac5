"""A level too large for the harness is refused early with one clear problem (35): a file
over the byte cap before it is read, a list over its entry cap before the schema walk."""

from __future__ import annotations

import json
import time

import pytest

from tests.shared import TEST_LEVELS
from world.errors import LevelError
from world.level.load import MAX_LEVEL_BYTES, level_schema, load_level, read_level_json
from world.levelcheck.checker import check_level


def test_a_file_over_the_byte_cap_is_refused_before_reading(tmp_path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as handle:  # sparse: costs no disk
        handle.truncate(MAX_LEVEL_BYTES * 25)
    with pytest.raises(LevelError) as caught:
        read_level_json(path)
    assert "not a level" in str(caught.value) and str(path) in str(caught.value)


@pytest.mark.parametrize("kind", ["objects", "characters", "areas"])
def test_a_list_over_its_cap_is_one_problem_found_fast(tmp_path, kind) -> None:
    data = json.loads((TEST_LEVELS / "base.json").read_text(encoding="utf-8"))
    cap = level_schema()["properties"][kind]["maxItems"]
    data[kind] = [{"id": f"x{i}"} for i in range(20_000)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    began = time.monotonic()
    with pytest.raises(LevelError) as caught:
        load_level(path)
    assert time.monotonic() - began < 5
    assert [p.message for p in caught.value.problems] == [
        f"20000 entries; a level may have at most {cap}"]
    report = check_level(path)
    assert not report.ok and f"$.{kind}" in str(report.problems[0])
