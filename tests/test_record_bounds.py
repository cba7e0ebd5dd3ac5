"""Bad record files are bad input: one line naming the file, exit status 2 (never 1, which
`harness replay` uses for "diverged"), in bounded memory and time (35)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.bounds import BAD_INPUT_EXIT
from harness.core.record import MAX_RECORD_LINES, RecordError, read_record

HEADER = {"kind": "header", "schema_version": 1}


def _write(path: Path, text: str) -> Path:
    path.write_bytes(gzip.compress(text.encode(), mtime=0))
    return path


def _hostile(tmp_path: Path) -> dict[str, Path]:
    head = json.dumps(HEADER) + "\n"
    return {
        "non-object": _write(tmp_path / "list.jsonl.gz", head + "[1, 2]\n" + head),
        "deep": _write(tmp_path / "deep.jsonl.gz",
                       head + "[" * 100_000 + "]" * 100_000 + "\n" + head),
        "blank": _write(tmp_path / "blank.jsonl.gz", head + "\n" * 50_000 + head),
        "lines": _write(tmp_path / "lines.jsonl.gz", head * (MAX_RECORD_LINES + 2)),
    }


@pytest.mark.parametrize("kind", ["non-object", "deep", "blank", "lines"])
def test_a_hostile_record_is_a_record_error_naming_the_file(tmp_path, kind) -> None:
    path = _hostile(tmp_path)[kind]
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("command", [["replay"], ["page"], ["annotate"], ["export"],
                                     ["quiz", "build", "--out", "QUIZ"]])
def test_every_command_reading_records_answers_bad_input_with_its_own_status(
        tmp_path, capsys, command) -> None:
    for kind, path in _hostile(tmp_path).items():
        words = [w if w != "QUIZ" else str(tmp_path / "q.json.gz") for w in command]
        status = main([*words, str(path)] if command[0] != "quiz"
                      else [*words[:2], str(path), *words[2:]])
        err = capsys.readouterr().err.strip()
        assert status == BAD_INPUT_EXIT, (kind, err)
        assert str(path.name) in err and len(err.splitlines()) == 1, (kind, err)


@pytest.mark.parametrize("kind", ["bomb", "deep"])
def test_a_hostile_question_file_is_bad_input(tmp_path, capsys, monkeypatch, kind) -> None:
    monkeypatch.setattr("harness.offline.quiz_file.MAX_QUIZ_BYTES", 1 << 20)  # a cheap bomb
    path = tmp_path / "quiz.json.gz"
    if kind == "bomb":  # inflates past the cap: refused without inflating it all
        _write(path, " " * (3 << 20))
    else:
        _write(path, "[" * 100_000 + "]" * 100_000)
    record = _hostile(tmp_path)["non-object"]
    assert main(["quiz", "check", str(path), str(record)]) == BAD_INPUT_EXIT
    err = capsys.readouterr().err.strip()
    assert str(path) in err and len(err.splitlines()) == 1
