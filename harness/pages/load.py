"""Read what a page needs: the record (interrupted or not), its level and the stderr log."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.record import Record, read_record, record_path
from world.level.model import Level

STDERR_TAIL_BYTES = 16_000  # the end of the agent's log is where crashes explain themselves


@dataclass(frozen=True)
class RunData:
    """One run as read from its directory.

    Attributes:
        run_dir: The directory holding the record.
        record: The record; `record.end` is None when the run was interrupted.
        level: The level named by the header, or None when it cannot be loaded.
        level_note: Why the map may not match the run (level missing or changed), or None.
        stderr_tail: The last part of agent_stderr.log ("" when there is none).
        stderr_bytes: The log's full size in bytes.
    """

    run_dir: Path
    record: Record
    level: Level | None
    level_note: str | None
    stderr_tail: str
    stderr_bytes: int


def load_run(path: str | Path) -> RunData:
    """Read a run for its page.

    Args:
        path: A record file or the run directory holding it.

    Returns:
        The run; a missing or changed level is reported in `level_note`, not raised.

    Raises:
        harness.record.RecordError: The file is not a readable record.
    """
    rec_path = record_path(path)
    record = read_record(rec_path)
    level, note = _level_for(record.header)
    tail, size = _stderr_tail(rec_path.parent / "agent_stderr.log")
    return RunData(rec_path.parent, record, level, note, tail, size)


def _level_for(header: dict) -> tuple[Level | None, str | None]:
    # Imported here: the runner module pulls in the whole episode machinery.
    from harness.level_refs import UsageError, from_header

    try:
        level = from_header(header).level
    except UsageError as exc:
        first = str(exc).splitlines()[0]
        return None, f"The level could not be loaded, so there is no map: {first}"
    want = str(header.get("level_hash", ""))
    if level.content_hash != want:
        return level, (
            f"The level file has changed since this run (content hash {level.content_hash[:12]}"
            f", the run used {want[:12]}): the map shows the current file and may not match."
        )
    return level, None


def _stderr_tail(path: Path) -> tuple[str, int]:
    try:
        size = path.stat().st_size
        with open(path, "rb") as handle:
            handle.seek(max(0, size - STDERR_TAIL_BYTES))
            data = handle.read()
    except OSError:
        return "", 0
    text = data.decode("utf-8", errors="replace")
    if size > STDERR_TAIL_BYTES:
        # Drop the partial first line so the tail starts cleanly.
        text = text.split("\n", 1)[-1]
    return text, size
