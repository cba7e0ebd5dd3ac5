"""Everything that happens in the world, as one append-only stream of typed events.

Each event kind is declared once in `EVENT_KINDS`; systems that judge objectives or
build observations read the stream with `EventLog.since` instead of poking at state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

# kind -> what it means and what subject / other / amount / detail hold.
EVENT_KINDS: dict[str, str] = {
    "area_entered": "subject actor entered area other",
    "storey_changed": "subject actor took stairs other onto storey detail",
    "move_refused": "subject (the player) may not walk on this level (start.fixed)",
    "door_opening": "door subject starts opening; other is the actor or object that opened it",
    "door_opened": "door subject is fully open",
    "door_closing": "door subject starts closing",
    "door_closed": "door subject is fully closed",
    "door_unlocked": "door subject was unlocked by other (actor with key, panel, or broken lock)",
    "door_refused": "door subject did not open for actor other; detail says why",
    "door_blocked": "door subject cannot close because actor other stands in the doorway",
    "exit_revealed": "hidden exit subject was revealed by other",
    "item_picked_up": "actor subject took object other into its inventory (amount: ammo or boost)",
    "item_respawned": "pickup subject is back in the world",
    "item_equipped": "actor subject now holds object other",
    "item_used": "actor subject used held object other on detail",
    "healed": "actor subject gained amount health from other",
    "armour_gained": "actor subject gained amount armour from other",
    "object_used": "actor subject pressed use on object other",
    "note_read": "actor subject read note other (its words are the note's text)",
    "words_heard": "actor subject heard character other speak (its words are the "
                   "character's `words`)",
    "code_entered": "actor subject entered a code on keypad other; detail: accepted, "
                    "refused or locked_out (never the digits); amount: wrong codes so far",
    "keypad_locked": "keypad subject locked out for good after too many wrong codes",
    "decoy_taken": "actor subject took object other, a decoy (`decoy_of`) of a real thing",
    "objective_revealed": "objective subject became known: the player read note other",
    "alarm_raised": "alarm subject started sounding because of other",
    "alarm_off": "alarm subject was switched off by other",
    "gadget_used": "actor subject used gadget other on object detail; amount unused",
    "secret_found": "actor subject found secret area other",
    "fired_back": "automatic return fire aimed the player subject's weapon at other; a "
                  "shot_fired follows when the weapon was ready",
    "shot_fired": "actor subject fired weapon detail at other; amount is 1 if silenced else 0",
    "shot_hit": "shot by subject hit other",
    "shot_missed": "shot by subject missed other; detail says why (roll, range, blocked)",
    "reload_started": "actor subject started reloading weapon detail",
    "damage_taken": "actor or object subject lost amount (armour and health) from other",
    "actor_down": "actor subject went down; other is who caused it",
    "object_broken": "breakable object subject was destroyed by other",
    "hazard_entered": "actor subject entered hazard other",
    "countdown_started": "countdown subject started; amount is its length in seconds",
    "countdown_expired": "countdown subject ran out",
    "episode_ended": "the world ended; detail is the reason",
    "alertness_changed": "character subject is now at alertness level detail (amount: its rank)",
    "reinforcement_spawned": "character subject arrived at spawn point detail, sent by alarm other",
    "character_spawned": "character subject of wave other arrived at spawn point detail",
    "character_respawned": "arena character subject came back on storey detail",
    "character_followed": "character subject now follows other (the player)",
    "destination_reached": "route character subject reached area other",
    "friendly_killed": "friendly character subject was put down by other",
    "frag": "arena: subject put down opponent other; amount is subject's frag count",
    "player_spotted": "character or camera subject saw the player (other); detail says which",
    "objective_changed": "objective subject changed status; detail is the new status",
    "mission_ended": "the objectives system (subject) ended the mission; detail is the reason",
}


class Event(NamedTuple):
    """One thing that happened at one tick (immutable).

    A named tuple rather than a frozen dataclass: a fight records three events a shot,
    and a tuple is built in about a third of the time.

    Attributes:
        tick: The tick at which it happened.
        kind: A key of `EVENT_KINDS`.
        subject: The id of whatever the event is about.
        other: A second id (the cause or the target), if any.
        amount: A number (damage, health gained, seconds), if any.
        detail: A short extra string (a reason, a weapon id), if any.
    """

    tick: int
    kind: str
    subject: str
    other: str | None = None
    amount: float | None = None
    detail: str | None = None

    def as_tuple(self) -> tuple:
        """The event as a plain tuple, for hashing and records."""
        return tuple(self)


_new_tuple = tuple.__new__


class EventLog:
    """An append-only list of events with cheap reading from a remembered index."""

    __slots__ = ("_events",)

    def __init__(self) -> None:
        self._events: list[Event] = []

    def add(self, event: Event) -> None:
        """Append one event.

        Raises:
            ValueError: if the kind is not declared in `EVENT_KINDS` (a programming error).
        """
        if event.kind not in EVENT_KINDS:
            raise ValueError(f"undeclared event kind {event.kind!r}")
        self._events.append(event)

    def record(self, tick: int, kind: str, subject: str, other: str | None = None,
               amount: float | None = None, detail: str | None = None) -> None:
        """Append one event given by its fields (the same checks as `add`).

        Raises:
            ValueError: if the kind is not declared in `EVENT_KINDS` (a programming error).
        """
        if kind not in EVENT_KINDS:
            raise ValueError(f"undeclared event kind {kind!r}")
        # Building the tuple directly skips the named tuple's Python-level constructor,
        # which costs twice as much in a fight that records three events a shot.
        self._events.append(_new_tuple(Event, (tick, kind, subject, other, amount, detail)))

    def appender(self, *kinds: str) -> Callable[[Event], None]:
        """The log's own append, for a loop that records many events of a few kinds.

        The kinds are checked once here rather than at every event; the caller builds
        each event (`tuple.__new__(Event, fields)`, as `record` does) of those kinds only.

        Args:
            *kinds: The kinds the caller will append.

        Raises:
            ValueError: if a kind is not declared in `EVENT_KINDS` (a programming error).
        """
        for kind in kinds:
            if kind not in EVENT_KINDS:
                raise ValueError(f"undeclared event kind {kind!r}")
        return self._events.append

    def since(self, index: int) -> list[Event]:
        """Events recorded at or after position `index` (use `len(log)` as the next index)."""
        return self._events[index:]

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self):
        return iter(self._events)

    def __getitem__(self, index: int) -> Event:
        return self._events[index]
