"""Run records: versioned JSON lines, one header, one line per turn, one end line.

Each line is flushed as soon as it is written, so a run killed half way leaves a
readable record; a record with no end line is an interrupted run and `read_record`
says so. Line schemas live in schemas/record/.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

RECORD_SCHEMA_VERSION = 1
RAW_LINE_KEEP = 4000  # characters of an agent's raw line kept in the record


class RecordError(Exception):
    """A file that is not a readable run record."""


def clip(text: str, keep: int = RAW_LINE_KEEP) -> str:
    """Shorten text for the record, saying how long it really was.

    Args:
        text: The text.
        keep: Characters to keep.

    Returns:
        The text, or its start followed by a marker with the full length.
    """
    if len(text) <= keep:
        return text
    return text[:keep] + f"...[{len(text)} characters in all]"


class RecordWriter:
    """Appends record lines to a file, flushing each one."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._file: TextIO = open(self.path, "w", encoding="utf-8")  # noqa: SIM115

    def write(self, kind: str, data: dict[str, Any]) -> None:
        """Write one line of the given kind (header, turn or end).

        Args:
            kind: The line kind.
            data: The line's fields (without "kind").
        """
        line = {"kind": kind, **data}
        self._file.write(json.dumps(line, separators=(",", ":"), allow_nan=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file, syncing it to disk."""
        if not self._file.closed:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()


@dataclass(frozen=True)
class Record:
    """A record read back: its header, turns and end line (None when interrupted)."""

    path: Path
    header: dict[str, Any]
    turns: tuple[dict[str, Any], ...]
    end: dict[str, Any] | None

    @property
    def interrupted(self) -> bool:
        """Whether the run was cut short: no end line, or one that says it was interrupted."""
        return self.end is None or (self.end.get("summary") or {}).get("outcome") == "interrupted"


def read_record(path: str | Path) -> Record:
    """Read a record file.

    Args:
        path: The record.jsonl file, or the run directory holding it.

    Returns:
        The record.

    Raises:
        RecordError: The file is missing, not JSON lines, or has no header.
    """
    path = Path(path)
    if path.is_dir():
        path = path / "record.jsonl"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read record {path}: {exc}") from exc
    parsed = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            parsed.append(json.loads(text))
        except json.JSONDecodeError as exc:
            # A run killed mid-write can leave a torn last line; anything else is damage.
            if number == len(lines):
                break
            raise RecordError(f"{path}:{number}: not JSON ({exc.msg})") from exc
    if not parsed or parsed[0].get("kind") != "header":
        raise RecordError(f"{path}: the first line is not a record header")
    header = parsed[0]
    if header.get("schema_version") != RECORD_SCHEMA_VERSION:
        raise RecordError(
            f"{path}: record schema version {header.get('schema_version')!r} is not "
            f"{RECORD_SCHEMA_VERSION}, the version this harness reads"
        )
    turns = tuple(p for p in parsed if p.get("kind") == "turn")
    ends = [p for p in parsed if p.get("kind") == "end"]
    return Record(path, header, turns, ends[0] if ends else None)
