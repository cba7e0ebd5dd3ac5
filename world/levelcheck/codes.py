"""Level checks on codes: every keypad's code is written in some note, and nowhere else.

A talking character's words (issue 37) count as a note's: a code may be said instead
of written, and only a friendly character talks.

A code is learnt only by reading (issue 37): the agent knows only what the player
perceived, so the digits must not stand in anything shown before a note is read (a
name, the brief, the title, an objective's paraphrase).
"""

from __future__ import annotations

import re

from world.level.model import Character, Level, LevelObject
from world.levelcheck.refs import Problem


def holds_code(text: str, code: str) -> bool:
    """Whether the words hold the code as a whole number (not inside a longer one)."""
    return re.search(rf"(?<![0-9]){re.escape(code)}(?![0-9])", text) is not None


def readables(level: Level) -> tuple[LevelObject | Character, ...]:
    """The notes, then the talking characters: everything whose words the player gets."""
    return tuple(o for o in level.objects if o.kind == "note" and o.text is not None) + \
        tuple(c for c in level.characters if c.words is not None)


def notes_with(level: Level, code: str) -> tuple[LevelObject | Character, ...]:
    """The notes and talking characters whose words hold this code, in level order."""
    return tuple(r for r in readables(level) if holds_code(level.words_of(r.id) or "", code))


def _talker_problems(level: Level) -> list[Problem]:
    # A speaker is there at every difficulty: the reachability check counts its words
    # as found wherever it stands, whatever the difficulty.
    talkers = [(i, c) for i, c in enumerate(level.characters) if c.words is not None]
    return [(f"$.characters[{i}].words", f"character {c.id!r} is {c.side}; only a friendly "
             "character talks (drop words, or make it side friendly)")
            for i, c in talkers if c.side != "friendly"] + [
        (f"$.characters[{i}].min_difficulty", f"character {c.id!r} talks, so it must be "
         "there at every difficulty; drop min_difficulty")
        for i, c in talkers if c.min_difficulty is not None]


def _shown_before_reading(level: Level) -> list[tuple[str, str]]:
    # (JSON path, words) of everything the agent may read before any note.
    shown = [("$.title", level.title), ("$.brief", level.brief)]
    shown += [(f"$.areas[{i}].name", a.name) for i, a in enumerate(level.areas)]
    shown += [(f"$.objects[{i}].name", o.name or "") for i, o in enumerate(level.objects)]
    shown += [(f"$.objectives[{i}].text", o.text) for i, o in enumerate(level.objectives)]
    shown += [(f"$.countdowns[{i}].text", c.text) for i, c in enumerate(level.countdowns)]
    return shown


def code_problems(level: Level) -> list[Problem]:
    """Keypads whose code no note holds or shows before any reading; doors they cannot open.

    Args:
        level: The level.

    Returns:
        One problem per keypad without a note, per place that gives a code away and per
        door naming a keypad as its panel that the keypad does not target.
    """
    problems: list[Problem] = _talker_problems(level)
    shown = _shown_before_reading(level)
    for i, obj in enumerate(level.objects):
        if obj.kind != "keypad" or obj.code is None:
            continue
        path = f"$.objects[{i}]"
        if not notes_with(level, obj.code):
            problems.append((f"{path}.code", f"no note's text (or character's words) holds keypad "
                             f"{obj.id!r}'s code; write it in a note the player can read"))
        for where, words in shown:
            if holds_code(words, obj.code):
                problems.append((where, f"gives away keypad {obj.id!r}'s code before any "
                                 "note is read; codes belong only in notes"))
    for i, exit_ in enumerate(level.exits):
        door = exit_.door
        pad = None if door is None or door.panel is None else level.object(door.panel)
        if pad is not None and pad.kind == "keypad" and exit_.id not in pad.targets:
            problems.append((f"$.exits[{i}].door.panel", f"keypad {pad.id!r} drives no such "
                             f"door: add {exit_.id!r} to its targets, or no code opens it"))
    return problems
