"""The timeline of turns: one plain row per decision, ready for the template.

A row puts the agent's story first (its notes and how the action ended, in plain
words with areas, objects and characters named) and keeps the world's lines (what
changed, every event) for a fold the reader opens when needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.pages.trace import TurnLeg
from harness.pages.words import readable
from world.face import TICKS_PER_SECOND, catalog

# End reason -> how the page colours it: each end reason declares its tone, beside its
# words, in the catalogue (schemas/actions.json).
END_STYLES: dict[str, str] = {r.name: r.tone for r in catalog().end_reasons}
EVENTS_SHOWN = 80  # per turn; a firefight can log hundreds, the rest are counted
CHANGES_SHOWN = 2  # changes shown open; more are folded with the events


@dataclass(frozen=True)
class TurnRow:
    """One turn as the timeline shows it.

    Attributes:
        turn: The turn number.
        time_s: Game time when the observation was made.
        action: The action's name, or None when none was accepted.
        arguments: The arguments as "name=value" strings.
        end_reason: How the action ended, or None.
        end_words: The catalogue's plain words for that end reason (the badge).
        end_meaning: The catalogue's sentence for it (shown on hover).
        style: CSS class: ok, good, warn, bad, or invalid.
        seconds: Game seconds the action ran.
        distance: Distance moved, world units.
        detail: The result's sentence.
        read: The words of each note read during the action, "o5: words" (shown open).
        changes: What changed, one sentence each (shown open).
        changes_folded: What changed beyond CHANGES_SHOWN (folded away).
        events: Events as short lines (at most EVENTS_SHOWN).
        events_more: How many events were left out.
        notes: The agent's own notes (untrusted text).
        text_view: The text view the agent was shown.
        error: "code: message" when the action was rejected, else None.
        raw: The agent's raw line when it was rejected or unparsed.
        extra_lines: Extra lines the agent sent that turn.
        agent_wall_s: Wall seconds the agent took.
        usage: Figures it reported, "name value" strings.
        moved: Whether the turn has a route drawn on the map.
    """

    turn: int
    time_s: float
    action: str | None
    arguments: tuple[str, ...]
    end_reason: str | None
    end_words: str
    end_meaning: str
    style: str
    seconds: float
    distance: float
    detail: str
    read: tuple[str, ...]
    changes: tuple[str, ...]
    changes_folded: tuple[str, ...]
    events: tuple[str, ...]
    events_more: int
    notes: str | None
    text_view: str
    error: str | None
    raw: str | None
    extra_lines: int
    agent_wall_s: float
    usage: tuple[str, ...]
    moved: bool


def _event_line(event: dict[str, Any], known: dict[str, str]) -> str:
    parts = [f"{int(event.get('tick', 0)) / TICKS_PER_SECOND:.1f}s", str(event.get("kind")),
             str(event.get("subject"))]
    if event.get("other") is not None:
        parts.append(f"-> {event['other']}")
    if event.get("amount") not in (None, 0, 0.0):
        parts.append(f"{event['amount']:g}" if isinstance(event["amount"], int | float)
                     else str(event["amount"]))
    if event.get("detail"):
        parts.append(f"({event['detail']})")
    return readable(" ".join(parts), known)


def _argument(name: str, value: Any) -> str:
    return f"{name}={value:g}" if isinstance(value, float) else f"{name}={value}"


def turn_rows(turns: tuple[dict[str, Any], ...], legs: list[TurnLeg],
              usage: dict[int, dict[str, float | None]],
              known: dict[str, str] | None = None) -> list[TurnRow]:
    """The timeline rows.

    Args:
        turns: The record's turn lines.
        legs: The player's route per turn (same order).
        usage: Turn -> reported usage figures.
        known: Episode id -> name (`harness.pages.words.names`), for the harness's
            sentences; the agent's own text is shown as written.

    Returns:
        One row per turn.
    """
    declared = {r.name: r for r in catalog().end_reasons}
    known = known or {}
    rows = []
    for turn, leg in zip(turns, legs, strict=True):
        number = int(turn.get("turn", leg.turn))
        action = turn.get("action") or {}
        result = turn.get("result") or {}
        error = turn.get("error")
        reason = result.get("end_reason")
        events = list(result.get("events") or ())
        if error:
            style = "invalid"
        elif turn.get("action") is None:
            style = "bad"
        else:
            style = END_STYLES.get(str(reason), "warn")
        notes = action.get("notes")
        changes = tuple(readable(str(c), known) for c in result.get("changes") or ())
        shown: tuple[str, ...]
        folded: tuple[str, ...]
        if len(changes) > CHANGES_SHOWN:
            shown, folded = (), changes
        else:
            shown, folded = changes, ()
        rows.append(TurnRow(
            turn=number,
            time_s=round(int(turn.get("tick", 0)) / TICKS_PER_SECOND, 1),
            action=action.get("action"),
            arguments=tuple(_argument(k, v) for k, v in (action.get("arguments") or {}).items()),
            end_reason=reason,
            end_words=declared[reason].plain if reason in declared else str(reason),
            end_meaning=declared[reason].summary if reason in declared else "",
            style=style,
            seconds=round(int(result.get("ticks") or 0) / TICKS_PER_SECOND, 1),
            distance=round(float(result.get("distance_moved") or 0.0)),
            detail=readable(str(result.get("detail") or ""), known),
            read=tuple(f"{readable(str(n.get('object')), known)}: {n.get('text')}"
                       for n in result.get("read") or ()),
            changes=shown,
            changes_folded=folded,
            events=tuple(_event_line(e, known) for e in events[:EVENTS_SHOWN]),
            events_more=max(0, len(events) - EVENTS_SHOWN),
            notes=notes if isinstance(notes, str) and notes else None,
            text_view=str((turn.get("observation") or {}).get("text") or ""),
            error=readable(f"{error.get('code')}: {error.get('message')}", known)
            if error else None,
            raw=turn.get("raw_action") if (error or not action) else None,
            extra_lines=int(turn.get("extra_lines") or 0),
            agent_wall_s=float(turn.get("agent_wall_s") or 0.0),
            usage=tuple(f"{k} {v:g}" for k, v in usage.get(number, {}).items() if v is not None),
            moved=len(leg.route) > 1,
        ))
    return rows
