"""Record files: gzip-compressed, flushed per line, readable by standard tools and when cut."""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import pytest

from harness.core.record import (
    MAX_RECORD_BYTES,
    RECORD_FILE,
    RecordError,
    RecordWriter,
    find_records,
    read_record,
    record_path,
)
from harness.episode.replay import replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.shared import SHIPPED_AGENTS


def _write(path: Path, turns: int) -> RecordWriter:
    writer = RecordWriter(path)
    writer.write("header", {"schema_version": 1, "level": "x"})
    for n in range(turns):
        writer.write("turn", {"turn": n, "text": "a line of text " * 20})
    return writer


def test_each_line_is_readable_before_the_file_is_closed(tmp_path: Path) -> None:
    path = tmp_path / RECORD_FILE
    writer = _write(path, 3)
    # A run killed now leaves a gzip stream with no trailer: every line still reads.
    record = read_record(path)
    assert [t["turn"] for t in record.turns] == [0, 1, 2] and record.interrupted
    writer.write("end", {"summary": {}})
    writer.close()
    assert not read_record(tmp_path).interrupted
    # A standard tool reads the finished file, and the same lines give the same bytes.
    with gzip.open(path, "rt", encoding="utf-8") as f:
        assert [json.loads(line)["kind"] for line in f] == ["header", "turn", "turn", "turn",
                                                              "end"]
    again = _write(tmp_path / "again.jsonl.gz", 3)
    again.write("end", {"summary": {}})
    again.close()
    assert (tmp_path / "again.jsonl.gz").read_bytes() == path.read_bytes()


def test_plain_records_of_earlier_versions_still_read(tmp_path: Path) -> None:
    (tmp_path / "record.jsonl").write_text(
        '{"kind":"header","schema_version":1}\n{"kind":"turn","turn":0}\n', encoding="utf-8")
    assert record_path(tmp_path).name == "record.jsonl"
    assert len(read_record(tmp_path).turns) == 1
    assert find_records(tmp_path) == [tmp_path / "record.jsonl"]


# mtime=0: the gzip header holds no clock, so every pytest-xdist worker collects the same
# parameters.
@pytest.mark.parametrize(("data", "message"), [
    (b"\x1f\x8b\x08\x00garbage-after-the-magic", "damaged gzip data"),
    (gzip.compress(b"\xff\xfe not utf-8", mtime=0), "cannot read record"),
], ids=["damaged-gzip", "not-utf-8"])
def test_damaged_files_are_record_errors(tmp_path: Path, data: bytes, message: str) -> None:
    (tmp_path / RECORD_FILE).write_bytes(data)
    with pytest.raises(RecordError, match=message):
        read_record(tmp_path)


def test_a_compression_bomb_is_refused(tmp_path: Path, monkeypatch) -> None:
    # Inflates past the limit: refused without inflating it all into memory. The limit
    # is lowered so the test need not build a gigabyte.
    assert MAX_RECORD_BYTES >= 256 << 20  # forty times a 400-turn facility run
    monkeypatch.setattr("harness.core.record.MAX_RECORD_BYTES", 1 << 20)
    bomb = gzip.compress(b"\n" * (3 << 20), compresslevel=9)
    assert len(bomb) < 10_000
    (tmp_path / RECORD_FILE).write_bytes(bomb)
    with pytest.raises(RecordError, match="not a record"):
        read_record(tmp_path)


@pytest.mark.slow  # a whole 250-turn episode, played and replayed
@pytest.mark.timeout(120)
def test_a_long_record_is_small_and_replays_and_zcat_reads_it(tmp_path: Path) -> None:
    # 250 waits on cipher_archive (its decision budget comes before its game time): about
    # 1 MB of JSON lines before compression.
    summary = run("cipher_archive", str(SHIPPED_AGENTS / "wait_agent.sh"), out_dir=tmp_path,
                  settings=RunSettings())
    path = Path(summary["record"])
    assert path.name == RECORD_FILE and summary["decisions"] == 250
    assert path.stat().st_size < 100_000
    assert replay(path).verified
    text = subprocess.run(["gzip", "-dc", str(path)], capture_output=True, check=True).stdout
    assert len(text.splitlines()) == 252 and len(text) > 10 * path.stat().st_size
