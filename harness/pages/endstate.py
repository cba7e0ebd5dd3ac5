"""The state of things at the end of a run, folded from the recorded events.

Every tick of an episode runs inside some macro action and every action's result
carries all the world's events of its window, so folding them in order gives the
doors, characters and objects as they stood when the run ended. What each event kind
does to that state is declared once, in `_EFFECTS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Point3 = tuple[float, float, float]


@dataclass
class CharacterEnd:
    """A character as the run left it (episode id)."""

    ep_id: str
    kind: str
    side: str
    at: Point3 | None
    down: bool = False
    down_tick: int | None = None
    seen: bool = False


@dataclass
class EndState:
    """Doors, characters and objects at the end, keyed by episode id.

    Attributes:
        doors: Door episode id -> "open", "closed", "locked", "opening" or "closing".
        characters: Character episode id -> its end state.
        taken: Object episode ids picked up by anyone.
        broken: Object episode ids destroyed.
        alarms: Object episode ids of alarms sounding at the end.
    """

    doors: dict[str, str] = field(default_factory=dict)
    characters: dict[str, CharacterEnd] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)
    broken: set[str] = field(default_factory=set)
    alarms: set[str] = field(default_factory=set)

    def character(self, ep_id: str) -> CharacterEnd:
        """The character with this id, created unknown on first mention."""
        if ep_id not in self.characters:
            self.characters[ep_id] = CharacterEnd(ep_id, "character", "unknown", None)
        return self.characters[ep_id]


def _door(state: str) -> Callable[[EndState, dict[str, Any]], None]:
    def apply(end: EndState, event: dict[str, Any]) -> None:
        end.doors[str(event["subject"])] = state
    return apply


def _down(end: EndState, event: dict[str, Any]) -> None:
    if event["subject"] != "player":
        who = end.character(str(event["subject"]))
        who.down, who.down_tick = True, int(event.get("tick", 0))


def _back(end: EndState, event: dict[str, Any]) -> None:
    who = end.character(str(event["subject"]))
    who.down = False


# Event kind -> what it does to the end state (kinds not listed change nothing drawn).
_EFFECTS: dict[str, Callable[[EndState, dict[str, Any]], None]] = {
    "door_opening": _door("opening"),
    "door_opened": _door("open"),
    "door_closing": _door("closing"),
    "door_closed": _door("closed"),
    "door_unlocked": _door("closed"),
    "actor_down": _down,
    "character_respawned": _back,
    "item_picked_up": lambda end, e: end.taken.add(str(e.get("other"))),
    "item_respawned": lambda end, e: end.taken.discard(str(e["subject"])),
    "object_broken": lambda end, e: end.broken.add(str(e["subject"])),
    "alarm_raised": lambda end, e: end.alarms.add(str(e["subject"])),
    "alarm_off": lambda end, e: end.alarms.discard(str(e["subject"])),
}


def _initial(plan: dict[str, Any]) -> EndState:
    end = EndState()
    for exit_ in plan.get("exits", ()):
        if exit_.get("door") is not None:
            end.doors[exit_["id"]] = exit_["door"]
    for c in plan.get("characters", ()):
        end.characters[c["id"]] = CharacterEnd(c["id"], c["kind"], c["side"],
                                               tuple(c["at"]))
    return end


def end_state(plan: dict[str, Any] | None, turns: tuple[dict[str, Any], ...]) -> EndState:
    """Fold the run into the state at its end.

    Args:
        plan: The record's map (None: only what the turns say).
        turns: The record's turn lines.

    Returns:
        The end state; characters carry the last position the player saw them at, or
        their starting place when never seen.
    """
    end = _initial(plan) if plan is not None else EndState()
    for turn in turns:
        _observe(end, turn)
        for event in (turn.get("result") or {}).get("events") or ():
            effect = _EFFECTS.get(str(event.get("kind")))
            if effect is not None:
                effect(end, event)
    return end


def _observe(end: EndState, turn: dict[str, Any]) -> None:
    try:
        seen = turn["observation"]["view"]["characters"]
    except (KeyError, TypeError):
        return
    for c in seen or ():
        who = end.character(str(c["id"]))
        who.kind = str(c.get("kind") or who.kind)
        friendly = c.get("friendly")
        if friendly is not None:
            who.side = "friendly" if friendly else "hostile"
        if c.get("position"):
            who.at = tuple(float(v) for v in c["position"])  # type: ignore[assignment]
        who.seen = True
        # Memory of a character may be stale, so a view never revives one; events do.
        if c.get("down"):
            who.down = True
