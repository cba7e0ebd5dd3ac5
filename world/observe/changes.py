""""What changed" during an action: only what the player perceived, in episode ids.

Each line is rendered from an event's structured fields (never by rewriting a sentence),
and only when the player could perceive it: its own doings, things it knows (objects and
characters seen, doors in sight about then), and what is heard everywhere (alarms,
countdowns). Repeats of one change are merged into one line with a count or a total;
changes of no size are dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from world.actions.driver import PERCEIVE_TICKS
from world.observe.ids import IdMap
from world.observe.knowledge import Knowledge
from world.sim.events import Event

PLAYER = "player"
SMALLEST = 0.005  # amounts below this (health and armour are 0..1) are no change at all


@dataclass(frozen=True)
class Change:
    """How one event kind reads, and who must have perceived it.

    Attributes:
        text: The line; {subject} and {other} are filled in, {total} with the sum.
        subject: The id group the subject must be known in, or "player" for the
            player's own doings, or None when anyone hears it.
        other: The id group of `other`, if it is an id to render.
        summed: Whether repeats add up their amounts (else they are counted).
        to_player: Whether only events whose `other` is the player count.
    """

    text: str
    subject: str | None
    other: str | None = None
    summed: bool = False
    to_player: bool = False


# Event kinds worth a line in "what changed", declared once.
CHANGES: dict[str, Change] = {
    "area_entered": Change("you entered {other}", PLAYER, "area"),
    "door_opening": Change("door {subject} started opening", "door"),
    "door_opened": Change("door {subject} opened", "door"),
    "door_closed": Change("door {subject} closed", "door"),
    "door_unlocked": Change("door {subject} was unlocked", "door"),
    "door_refused": Change("door {subject} did not open for you", "door", to_player=True),
    "item_picked_up": Change("you took {other}", PLAYER, "object"),
    "item_equipped": Change("you now hold {other}", PLAYER, "object"),
    "damage_taken": Change("you lost {total:.2f} health/armour", PLAYER, summed=True),
    "actor_down": Change("{subject} went down", "character"),
    "object_broken": Change("{subject} was destroyed", "object"),
    "alarm_raised": Change("an alarm started sounding", None),
    "countdown_started": Change("a countdown started: {total:.0f} s", None, summed=True),
    "secret_found": Change("you found a secret area, {other}", PLAYER, "area"),
    "exit_revealed": Change("a hidden way {subject} was revealed", "way"),
    "note_read": Change("you read {other}", PLAYER, "object"),
    "words_heard": Change("{other} spoke to you", PLAYER, "character"),
    "keypad_locked": Change("keypad {subject} locked out for good", "object"),
    # Said once the thing is taken: the mission's failure tells the player as much.
    "decoy_taken": Change("{other} was a decoy, not the real one", PLAYER, "object"),
    # The objective itself is listed in the view; its level id is never shown.
    "objective_revealed": Change("what you read added an objective", None),
}


def _perceived(change: Change, event: Event, known: Knowledge,
               knows: Callable[[str, str], bool], me: str = PLAYER) -> bool:
    if change.to_player and event.other != me:
        return False
    if change.subject is None:
        return True
    if change.subject == PLAYER:
        return event.subject == me
    if change.subject == "door" and event.other != me:
        # A door moved by someone else counts only when it was in sight about then.
        return knows("door", event.subject) and known.door_seen.get(
            event.subject, -1) >= event.tick - PERCEIVE_TICKS
    if change.subject == "character":
        seen = known.characters.get(event.subject)
        # A character's fall counts only when the player saw it down.
        return seen is not None and (event.kind != "actor_down" or seen.down)
    return knows(change.subject, event.subject)


def change_lines(events: Iterable[Event], ids: IdMap, known: Knowledge,
                 knows: Callable[[str, str], bool], me: str = PLAYER) -> list[str]:
    """The "what changed" lines of an action's events.

    Args:
        events: The action's events, with level ids.
        ids: The episode's numbering.
        known: What the player knows after the action.
        knows: Whether the player knows a thing, by id group and level id.
        me: The player's actor id (a match player's is p1, p2, ...).

    Returns:
        One line per distinct change, in the order each first happened.
    """
    merged: dict[tuple, list] = {}
    for e in events:
        change = CHANGES.get(e.kind)
        if change is None or not _perceived(change, e, known, knows, me):
            continue
        key = (e.kind, e.subject, e.other)
        row = merged.setdefault(key, [change, e, 0, 0.0])
        row[2] += 1
        row[3] += e.amount or 0.0
    out = []
    for change, e, count, total in merged.values():
        if change.summed and abs(total) < SMALLEST:
            continue
        subject = "you" if e.subject == me else ids.ep(change.subject or "object", e.subject) \
            if change.subject not in (None, PLAYER) else e.subject
        other = ids.ep(change.other, e.other) if change.other and e.other else e.other
        line = change.text.format(subject=subject, other=other, total=total)
        if not change.summed and count > 1:
            line += f" ({count} times)"
        elif change.summed and count > 1:
            line += f" in all, over {count} hits" if e.kind == "damage_taken" else ""
        out.append(line)
    return out
