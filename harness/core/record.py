"""Run records: versioned JSON lines, one header, one line per turn, one end line.

A record is written gzip-compressed (`record.jsonl.gz`): observations repeat from turn
to turn, so compression shrinks a record about thirty-fold, and every standard tool
reads it (`zcat`, `gzip -d`). Each line is flushed through the compressor as soon as it
is written (a sync flush), so a run killed half way leaves a record whose turns can be
read back; a record with no end line is an interrupted run and `read_record` says so.
Plain `record.jsonl` files (from earlier versions) are read as well. Line schemas live
in schemas/record/.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.core.bounds import MAX_DEPTH, TooLargeError, cap_message, read_capped, too_deep
from harness.core.protocol import INTERRUPTED

RECORD_SCHEMA_VERSION = 1
RAW_LINE_KEEP = 4000  # characters of an agent's raw line kept in the record
RECORD_FILE = "record.jsonl.gz"
PLAIN_RECORD_FILE = "record.jsonl"  # written by earlier versions; still read
RECORD_NAMES = (RECORD_FILE, PLAIN_RECORD_FILE)
# A record is read into memory whole; a file inflating beyond this is not a record
# (a 400-turn facility run is about 6 MB uncompressed).
MAX_RECORD_BYTES = 256 << 20
# Lines of a record (header, turns, end); a chain of subtasks stays far below.
MAX_RECORD_LINES = 100_000


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


def record_path(path: str | Path) -> Path:
    """The record file a path means: the file itself, or the one in a run directory."""
    path = Path(path)
    if not path.is_dir():
        return path
    for name in RECORD_NAMES:
        if (path / name).is_file():
            return path / name
    return path / RECORD_FILE


def is_run_dir(path: str | Path) -> bool:
    """Whether a directory holds a record."""
    return any((Path(path) / name).is_file() for name in RECORD_NAMES)


def find_records(root: str | Path) -> list[Path]:
    """Every record file under a folder, at any depth, in a stable order."""
    root = Path(root)
    return sorted(p for name in RECORD_NAMES for p in root.rglob(name))


class RecordWriter:
    """Appends record lines to a gzip file, flushing each one through the compressor."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._raw = open(self.path, "wb")  # noqa: SIM115
        # mtime 0 and no name: the same lines always give the same bytes.
        self._gz = gzip.GzipFile(filename="", mode="wb", fileobj=self._raw, mtime=0)

    def write(self, kind: str, data: Mapping[str, Any]) -> None:
        """Write one line of the given kind (header, turn or end).

        Args:
            kind: The line kind.
            data: The line's fields (without "kind").
        """
        line = {"kind": kind, **data}
        text = json.dumps(line, separators=(",", ":"), allow_nan=False) + "\n"
        self._gz.write(text.encode("utf-8"))
        self._gz.flush(zlib.Z_SYNC_FLUSH)  # readable up to here if the run dies now

    def close(self) -> None:
        """Finish the gzip stream and close the file, syncing it to disk."""
        if not self._raw.closed:
            self._gz.close()
            self._raw.flush()
            os.fsync(self._raw.fileno())
            self._raw.close()


def record_text(path: str | Path) -> str:
    """A record file's text, inflating gzip; a stream cut off by a killed run still reads.

    Raises:
        RecordError: Damaged gzip data, or more than MAX_RECORD_BYTES of text.
        OSError, UnicodeDecodeError: The file cannot be read or is not UTF-8.
    """
    path = record_path(path)
    try:
        data = read_capped(path, MAX_RECORD_BYTES)
    except TooLargeError:
        raise RecordError(f"{path}: larger than {MAX_RECORD_BYTES} bytes; not a record") \
            from None
    except ValueError as exc:
        raise RecordError(f"{path}: {exc}") from None
    return data.decode("utf-8")


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
        return self.end is None or (self.end.get("summary") or {}).get("outcome") == INTERRUPTED


# The fields every reader (page, annotate, quiz, export, dataset) takes apart, by line
# kind: a made record with text there is refused here, once, not as a traceback in each.
_OBJECT_FIELDS = {"header": ("start", "hello", "isolation", "settings", "map", "origin",
                             "generated"),
                  "turn": ("observation", "action", "result", "usage"),
                  "end": ("summary", "usage")}
_WHOLE_FIELDS = ("turn", "tick")


def _shape_problem(line: dict[str, Any]) -> str | None:
    for name in _OBJECT_FIELDS.get(line["kind"], ()):
        if line.get(name) is not None and not isinstance(line[name], dict):
            return f"{line['kind']} field {name!r} is not an object"
    for name in _WHOLE_FIELDS if line["kind"] == "turn" else ():
        value = line.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            return f"turn field {name!r} is not a whole number"
    return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_record(path: str | Path) -> Record:
    """Read a record file.

    Args:
        path: The record file (gzip or plain), or the run directory holding it.

    Returns:
        The record.

    Raises:
        RecordError: The file is missing, not JSON lines, or has no header.
    """
    path = record_path(path)
    try:
        text = record_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read record {path}: {exc}") from exc
    if text.count("\n") > MAX_RECORD_LINES:
        raise RecordError(f"{path}: more than {MAX_RECORD_LINES} lines; not a record")
    lines = text.splitlines()
    parsed: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        last = number == len(lines)
        if not line.strip():
            # The writer never leaves a blank line; a file of them is not a record.
            raise RecordError(f"{path}:{number}: a blank line; every record line is one "
                              "JSON object")
        if too_deep(line):
            raise RecordError(f"{path}:{number}: nested deeper than {MAX_DEPTH} levels")
        try:
            data = json.loads(line, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            # A run killed mid-write can leave a torn last line; anything else is damage.
            if last:
                break
            raise RecordError(f"{path}:{number}: not JSON ({exc.msg})") from exc
        except ValueError as exc:
            # An integer past Python's digit limit, or NaN/Infinity, which the writer
            # never writes (allow_nan=False): not a torn line but a made one.
            said = cap_message(str(exc), 200)
            raise RecordError(f"{path}:{number}: not a record line ({said})") from None
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise RecordError(f"{path}:{number}: not a record line (a JSON object with a "
                              "\"kind\")")
        parsed.append(data)
    if not parsed or parsed[0].get("kind") != "header":
        raise RecordError(f"{path}: the first line is not a record header")
    header = parsed[0]
    if header.get("schema_version") != RECORD_SCHEMA_VERSION:
        raise RecordError(
            f"{path}: record schema version {header.get('schema_version')!r} is not "
            f"{RECORD_SCHEMA_VERSION}, the version this harness reads"
        )
    turns = tuple(p for p in parsed if p.get("kind") == "turn")
    for number, entry in enumerate(parsed, 1):
        if (problem := _shape_problem(entry)) is not None:
            raise RecordError(f"{path}:{number}: {problem}")
    ends = [p for p in parsed if p.get("kind") == "end"]
    return Record(path, header, turns, ends[0] if ends else None)
