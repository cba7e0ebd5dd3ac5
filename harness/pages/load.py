"""Read what a page needs: the record (interrupted or not) and the stderr log.

The level is not read: the record's header carries the map (`map`), so a page draws a
run exactly as it was played even when the level file has changed or gone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.core.protocol import schema_errors
from harness.core.record import Record, read_record, record_path
from harness.pages.episode_ids import in_episode_ids

STDERR_TAIL_BYTES = 16_000  # the end of the agent's log is where crashes explain themselves


@dataclass(frozen=True)
class RunData:
    """One run as read from its directory.

    Attributes:
        run_dir: The directory holding the record.
        record: The record; `record.end` is None when the run was interrupted.
        plan: The map the header carries, or None for a record written without one.
        level_note: Why there is no map, or None.
        stderr_tail: The last part of agent_stderr.log ("" when there is none).
        stderr_bytes: The log's full size in bytes.
    """

    run_dir: Path
    record: Record
    plan: dict[str, Any] | None
    level_note: str | None
    stderr_tail: str
    stderr_bytes: int


def load_run(path: str | Path) -> RunData:
    """Read a run for its page.

    Args:
        path: A record file or the run directory holding it.

    Returns:
        The run; a record without a map is reported in `level_note`, not raised.

    Raises:
        harness.core.record.RecordError: The file is not a readable record.
    """
    rec_path = record_path(path)
    record = read_record(rec_path)
    plan, note = _plan(record.header)
    if plan is not None:
        plan = in_episode_ids(plan, (record.end or {}).get("ids"))
    tail, size = _stderr_tail(rec_path.parent / "agent_stderr.log")
    return RunData(rec_path.parent, record, plan, note, tail, size)


def _plan(header: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    plan = header.get("map")
    if plan is None:
        return None, ("This record was written before records carried their map, so "
                      "there is no map.")
    errors = schema_errors("map", plan)
    if errors:
        return None, f"The record's map breaks schemas/record/map.schema.json ({errors[0]}), " \
                     "so there is no map."
    declared = {s["id"] for s in plan["storeys"]}
    named = {t["storey"] for group in ("areas", "exits", "hazards", "objects")
             for t in plan[group]} | {s for t in plan["stairs"] for s in t["storeys"]}
    if not declared or named - declared:
        missing = ", ".join(sorted(named - declared)) or "any storey"
        return None, f"The record's map names storeys it does not list ({missing}), so there " \
                     "is no map."
    return plan, None


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
