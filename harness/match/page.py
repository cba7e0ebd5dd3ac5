"""The match page: paths, notes, usage, standings and views, from the match record alone.

The standings show each player's team's figure of every team objective the record's
rows carry (hold time, captures, escorted player standing: the judge's, headed by
world.match.goals' labels).

Every player's path, notes and usage side by side, the standings, and each player's
own view of a chosen decision.
`harness page RUN_DIR` on a match folder writes `index.html` beside `match.jsonl.gz`.
The map comes from the record's header (`map`, in map ids: each player's episode ids
differ, so the page names things by the map's); a record written before matches carried
their map gets a page without maps. The chosen turn is one decision of the match (a
turn line, counted from 0 across all players): for each player the page shows the last
observation its agent had been sent by then, exactly as the agent read it.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.core.record import RecordError, record_text
from harness.pages.endstate import EndState
from harness.pages.load import header_map
from harness.pages.map_svg import DOOR_CLASSES, LEGEND, build_maps
from harness.pages.render import render
from harness.pages.trace import turn_legs
from harness.pages.usage import FIELDS as USAGE_FIELDS
from harness.pages.usage import usage_report
from world.face import MATCH_GOAL_LABELS

PAGE_NAME = "index.html"
# Each player's colour on the map of all paths, in player order (p1 first).
PLAYER_COLOURS = ("#1a5fb4", "#c01c28", "#26a269", "#e66100", "#813d9c", "#865e3c",
                  "#1c71d8", "#a51d2d", "#2ec27e")


@dataclass(frozen=True)
class MatchLines:
    """A match record's lines by kind."""

    header: dict[str, Any]
    turns: tuple[dict[str, Any], ...]
    retires: tuple[dict[str, Any], ...]
    end: dict[str, Any] | None


def read_match(record: Path) -> MatchLines:
    """Read a match record's lines.

    Raises:
        RecordError: naming the file, for one that is unreadable or has no match header.
    """
    try:
        lines = [json.loads(t) for t in record_text(record).splitlines() if t.strip()]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"{record}: not a readable match record: {exc}") from None
    header = next((x for x in lines if isinstance(x, dict) and x.get("kind") == "header"), None)
    if header is None or not header.get("match") or not isinstance(header.get("players"), list):
        raise RecordError(f"{record}: no match header line (kind header, match true, players)")
    kinds: dict[str, list[dict[str, Any]]] = {"turn": [], "retire": [], "end": []}
    for line in lines:
        if isinstance(line, dict) and line.get("kind") in kinds:
            kinds[line["kind"]].append(line)
    return MatchLines(header, tuple(kinds["turn"]), tuple(kinds["retire"]),
                      kinds["end"][-1] if kinds["end"] else None)


def _player(pid: str, lines: MatchLines, plan: dict[str, Any] | None,
            chosen: int) -> dict[str, Any]:
    turns = tuple(t for t in lines.turns if t.get("player") == pid)
    legs = turn_legs(turns)
    agent = (lines.header.get("agents") or {}).get(pid) or {}
    usage = usage_report(tuple({"turn": t.get("turn", i), "action": {"usage": t.get("usage")}}
                               for i, t in enumerate(turns)), None)
    seen = [t for t in lines.turns[: chosen + 1] if t.get("player") == pid]
    view = seen[-1] if seen else None
    standing = next((s for s in (lines.end or {}).get("standings") or ()
                     if s.get("player") == pid), None)
    retired = next((r for r in lines.retires if r.get("player") == pid), None)
    return {
        "id": pid,
        "team": dict(zip(lines.header["players"], lines.header.get("teams") or (),
                         strict=False)).get(pid, pid),
        "command": agent.get("command") or "",
        "hello": agent.get("hello") or {},
        "standing": standing,
        "retired": retired,
        "decisions": len(turns),
        "maps": build_maps(plan, EndState(), legs, []) if plan else [],
        "notes": [{"turn": t.get("turn"), "tick": t.get("tick"), "text": t["notes"]}
                  for t in turns if isinstance(t.get("notes"), str) and t["notes"]],
        "usage": usage,
        "view": None if view is None else {
            "turn": view.get("turn"), "tick": view.get("tick"),
            "text": str((view.get("observation") or {}).get("text") or "")},
    }


def _all_paths(players: list[dict[str, Any]]) -> list[Any]:
    # One map per storey with every player's route, each segment tagged with its player
    # (coloured by PLAYER_COLOURS); the turn ends and starts stay on the players' own maps.
    if not players or not players[0]["maps"]:
        return []
    merged = []
    for index, base in enumerate(players[0]["maps"]):
        segments = tuple({**s, "player": p["id"]} for p in players
                         for s in p["maps"][index].segments)
        merged.append(dataclasses.replace(base, segments=segments, ends=(), start=None))
    return merged


def goal_columns(end: dict[str, Any] | None) -> list[tuple[str, str]]:
    """Each team-objective figure the standings carry, with its heading, in their order."""
    seen: dict[str, str] = {}
    for row in (end or {}).get("standings") or ():
        goals = row.get("goals") if isinstance(row, dict) else None
        for measure in goals if isinstance(goals, dict) else ():
            seen.setdefault(str(measure), MATCH_GOAL_LABELS.get(str(measure), str(measure)))
    return list(seen.items())


def match_context(lines: MatchLines, chosen: int | None = None) -> dict[str, Any]:
    """Everything the match page template shows."""
    header = lines.header
    last = max(0, len(lines.turns) - 1)
    chosen = last if chosen is None else max(0, min(int(chosen), last))
    plan, note = header_map(header)
    moment = lines.turns[chosen] if lines.turns else {}
    players = [_player(str(p), lines, plan, chosen) for p in header["players"]]
    return {
        "header": header,
        "title": f"Match on {header.get('level')}",
        "end": lines.end,
        "goal_columns": goal_columns(lines.end),
        "players": players,
        "all_paths": _all_paths(players),
        "colours": dict(zip(header["players"], PLAYER_COLOURS, strict=False)),
        "chosen": chosen, "turn_count": len(lines.turns),
        "moment": {"player": moment.get("player"), "tick": moment.get("tick")},
        "level_note": note,
        "legend": LEGEND, "door_legend": list(DOOR_CLASSES.values()),
        "usage_fields": USAGE_FIELDS,
    }


def write_match_page(record: Path, chosen: int | None = None) -> Path:
    """Write the match page beside its record; returns the page's path.

    Raises:
        RecordError: the record is not a readable match record.
    """
    page = record.parent / PAGE_NAME
    page.write_text(render("match.html.j2", **match_context(read_match(record), chosen)),
                    encoding="utf-8")
    return page
