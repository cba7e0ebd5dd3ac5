"""The episode page: header, per-storey maps, timeline of turns, stderr tail."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from harness.core.claims import start_point, start_words
from harness.core.protocol import INTERRUPTED, OUTCOMES
from harness.pages.endstate import end_state
from harness.pages.load import RunData, load_run
from harness.pages.map_svg import DOOR_CLASSES, LEGEND, build_maps, plan_bounds, storey_of
from harness.pages.render import render
from harness.pages.timeline import turn_rows
from harness.pages.trace import as_point, damage_marks, keep_on_map, turn_legs
from harness.pages.usage import FIELDS, usage_report
from harness.pages.words import names, plain_failure, readable
from world.face import TICKS_PER_SECOND

PAGE_NAME = "index.html"


def _objectives(run: RunData) -> list[dict[str, Any]]:
    end = run.record.end
    if end is not None:
        listed = end["summary"].get("objectives") or []
    else:
        # Interrupted: the last observation is the latest word on the objectives.
        last = run.record.turns[-1]["observation"]["view"] if run.record.turns else {}
        listed = last.get("objectives") or []
    return [{
        "index": o.get("index"), "status": o.get("status"), "counts": o.get("counts", True),
        "text": o.get("text"),
        "time_s": None if o.get("tick") is None else round(o["tick"] / TICKS_PER_SECOND, 1),
    } for o in listed]


def _facts(run: RunData, known: dict[str, str]) -> dict[str, Any]:
    record, end = run.record, run.record.end
    summary = end["summary"] if end else {}
    last_tick = record.turns[-1]["tick"] if record.turns else 0
    invalid = sum(1 for t in record.turns if t.get("error"))
    outcome = summary.get("outcome", INTERRUPTED)
    declared = OUTCOMES.get(outcome)
    return {
        "outcome": outcome,
        "outcome_kind": declared.kind if declared else INTERRUPTED,
        "outcome_words": declared.summary if declared else
        "The run stopped before its end line was written.",
        "reason": _reason(summary, run.plan, known),
        "success": summary.get("success"),
        "score": summary.get("score"),
        "progress": summary.get("progress"),
        "stages": summary.get("stages"),
        "failure": plain_failure(summary.get("failure"), run.plan),
        "decisions": summary.get("decisions", len(record.turns)),
        "invalid": summary.get("invalid_actions", invalid),
        "game_s": round(summary.get("game_ticks", last_tick) / TICKS_PER_SECOND, 1),
        "wall_s": end.get("wall_s") if end else None,
        "agent_error": end.get("agent_error") if end else None,
        "dropped": end.get("stderr_dropped_bytes", 0) if end else 0,
    }


def _reason(summary: dict[str, Any], plan: dict[str, Any] | None,
            known: dict[str, str]) -> str:
    # The reason quotes the failure code ("the mission failed: player_dead"); a person
    # reads the failure in plain words instead.
    reason = str(summary.get("reason", "the record has no end line"))
    failure = summary.get("failure")
    if failure and failure in reason:
        reason = reason.replace(failure, plain_failure(failure, plan) or failure)
    return readable(reason, known)


def episode_context(run: RunData) -> dict[str, Any]:
    """Everything the episode template draws, as plain data.

    Args:
        run: The run as loaded.

    Returns:
        The template context.
    """
    record = run.record
    header = record.header
    final = as_point((record.end or {}).get("final_position"))
    plan = run.plan
    known = names(plan, record.turns)
    legs = turn_legs(record.turns, final)
    off_map = 0
    if plan is not None:
        legs, off_map = keep_on_map(legs, plan_bounds(plan))
    damage = damage_marks(record.turns, legs)
    usage = usage_report(record.turns, record.end)
    maps = []
    storeys_by_turn: dict[int, list[str]] = {}
    if plan is not None:
        maps = build_maps(plan, end_state(plan, record.turns), legs, damage)
        for leg in legs:
            storeys_by_turn[leg.turn] = list(dict.fromkeys(
                storey_of(plan, p[1]) for p in leg.route))
    start = header.get("start") or {}
    return {
        "title": start.get("title") or header.get("level"),
        "header": header,
        "record_name": record.path.name,
        "hello": header.get("hello") or None,
        "facts": _facts(run, known),
        "interrupted": record.interrupted,
        "began": start_words(start_point(header)),
        "objectives": _objectives(run),
        "usage": usage,
        "usage_fields": FIELDS,
        "level_note": run.level_note,
        "maps": maps,
        "door_legend": sorted({v for v in DOOR_CLASSES.values()}),
        "legend": LEGEND,
        "rows": turn_rows(record.turns, legs, usage.per_turn, known),
        "damage_count": len(damage),
        "off_map": off_map,
        "stderr_tail": run.stderr_tail,
        "stderr_bytes": run.stderr_bytes,
        "script_data": {"storeys": {str(k): v for k, v in storeys_by_turn.items()}},
    }


def render_episode(run: RunData) -> str:
    """The episode page's HTML."""
    return render("episode.html.j2", **episode_context(run))


def write_episode_page(path: str | Path) -> Path:
    """Render a run's page into its run directory.

    Args:
        path: A record file or its run directory.

    Returns:
        The page written (index.html beside the record).

    Raises:
        harness.core.record.RecordError: The record cannot be read.
    """
    run = load_run(path)
    out = run.run_dir / PAGE_NAME
    out.write_text(render_episode(run), encoding="utf-8")
    return out


def write_episode_page_safely(path: str | Path) -> Path | None:
    """Like `write_episode_page`, but a failure is reported on stderr, never raised.

    A run's record matters more than its page, so whoever writes pages as runs finish
    uses this: the page can always be made later with `harness page`.
    """
    try:
        return write_episode_page(path)
    except Exception as exc:  # deliberately broad, see above
        print(f"harness: could not write the run page for {path}: "
              f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return None
