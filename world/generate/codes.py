"""Season 2 pieces the code templates share: codes, notes, keypad doors and decoy numbers.

A keypad's code is written, as a whole number, in a note that names the keypad by every
word of its name ("the vault keypad code is 4817"), which is what the level checker asks
and what a reader needs. Decoy numbers (a locker's code, an extension, an old code) sit
in clauses of their own that do not name the keypad, so only reading tells them apart.
"""

from __future__ import annotations

import random
from typing import Any

from world.generate.layout import LevelDraft, Room

NOTE_NAMES = ("memo", "sticky note", "clipboard", "notice", "logbook page", "index card",
              "pocket diary", "torn envelope", "duty sheet", "handover note")
PANEL_WORDS = ("vault", "strongroom", "cellar", "archive", "server", "lab", "armoury",
               "depot", "plant", "bunker", "radio", "pump")
# Decoy clauses: a number that opens nothing here. Each has a {n} for the number; none
# names a keypad, so a reader who matches numbers to names never takes one for a code.
DECOYS = ("The locker combination is {n}.", "Ring extension {n} for the night porter.",
          "Delivery reference {n} arrives on Thursday.", "Shift ends at {n} sharp.",
          "Invoice {n} is still unpaid.", "The photocopier fault code was {n}.",
          "Bus {n} leaves from the gate.", "Badge number {n} was reported lost.",
          "Room booking {n} is cancelled.", "The safe upstairs takes {n}.")
FILLER = ("Mind the wet floor by the stairs.", "Someone keeps leaving the lights on.",
          "Coffee fund is empty again.", "Report any stuck door to maintenance.",
          "Keep this area tidy.")


class Codes:
    """Codes and numbers drawn for one level, none repeated and none inside another."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def draw(self, digits: int = 4) -> str:
        """A fresh number of `digits` digits, not starting with 0."""
        while True:
            text = str(self.rng.randrange(10 ** (digits - 1), 10 ** digits))
            if not any(text in u or u in text for u in self.used):
                self.used.add(text)
                return text

    def decoys(self, count: int) -> list[str]:
        """`count` decoy clauses, each with a fresh number."""
        return [self.rng.choice(DECOYS).format(n=self.draw()) for _ in range(count)]


def panel_words(rng: random.Random, count: int) -> list[str]:
    """`count` different words to name keypads by (no name's words then hold another's)."""
    return rng.sample(PANEL_WORDS, count)


def panel_names(rng: random.Random, count: int) -> list[str]:
    """`count` keypad names with no word in common."""
    return [f"{word} keypad" for word in panel_words(rng, count)]


def code_clause(keypad_name: str, code: str, rng: random.Random) -> str:
    """The clause that gives a keypad's code, naming the keypad in full."""
    forms = ("The {k} code is {c}.", "{K} code: {c}.", "Use {c} on the {k}.",
             "For the {k}, key in {c}.")
    form = rng.choice(forms)
    return form.format(k=keypad_name, K=keypad_name.capitalize(), c=code)


def note_text(rng: random.Random, clauses: list[str], filler: int = 1) -> str:
    """Clauses shuffled among `filler` harmless sentences, as one note's words."""
    words = list(clauses) + rng.sample(FILLER, min(filler, len(FILLER)))
    rng.shuffle(words)
    return " ".join(words)


def add_note(draft: LevelDraft, rng: random.Random, room: Room, note_id: str,
             text: str) -> dict[str, Any]:
    """A note at a drawn spot in a room, its name drawn from the stock."""
    return draft.add("objects", id=note_id, kind="note", name=rng.choice(NOTE_NAMES),
                     area=room.id, at=room.spot(rng, 150), text=text)


def keypad_door(draft: LevelDraft, rng: random.Random, outside: Room, inside: Room,
                keypad_id: str, name: str, code: str, attempts: int) -> None:
    """Lock the door between two rooms behind a keypad standing on the outside."""
    door = draft.find_exit(outside.id, inside.id)
    door["door"] = {"initial": "locked", "panel": keypad_id, "characters_may_open": False}
    draft.add("objects", id=keypad_id, kind="keypad", name=name, area=outside.id,
              at=outside.spot(rng, 150), code=code, targets=[door["id"]], attempts=attempts)
