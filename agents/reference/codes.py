"""Notes and keypads (protocol version 2): read what is found, keep the words, key codes in.

The view says only that a note was read, never what it said: the words come once, in
the result of the action that read it, and are kept here in the agent's own memory
(`Memory.notes`). A character marked `talks` is asked the same way (press use facing
it) and its words are kept beside the notes', under its id. A keypad takes a few wrong
codes before it locks out for good, so a code is keyed in only when some note read
holds one, the likeliest first.
"""

from __future__ import annotations

import re
from typing import Any

from agents.reference.memory import Decision, Memory
from agents.reference.moves import USE_REACH, use_thing, walk_to

DIGITS = re.compile(r"(?<![0-9])[0-9]{3,8}(?![0-9])")
WORD = re.compile(r"[a-z]+")
SAFE_TRIES = 2  # wrong codes risked on one keypad: the third would lock most out


def learn_reads(mem: Memory) -> None:
    """Keep the words of every note the last action read; note codes a keypad refused."""
    last, done = mem.last, mem.last_decision
    if last is None:
        return
    for note in last.get("read") or ():
        mem.notes[note["object"]] = note["text"]
    if done is not None and done[0] == "enter_code" and "refused" in last["detail"]:
        mem.wrong_codes.add((done[1]["object_id"], done[1]["code"]))


def read_notes(mem: Memory) -> Decision | None:
    """Walk up to the nearest note seen and not read yet, and read it."""
    unread = [o for o in mem.objects.values()
              if o["kind"] == "note" and o["state"] != "read" and o["id"] not in mem.notes]
    for row in sorted(unread, key=lambda r: (mem.distance(r["position"]), r["id"])):
        step = use_thing(mem, row["id"], f"reading note {row['id']}")
        if step is not None:
            return step
    return listen(mem)


def listen(mem: Memory) -> Decision | None:
    """Walk up to the nearest character who talks and is not heard yet, and ask it."""
    unheard = [r for r in mem.people.values() if r.get("talks") and not r["down"]
               and r["id"] not in mem.notes]
    for row in sorted(unheard, key=lambda r: (r["distance"], r["id"])):
        why = f"asking {row['id']}, who has something to say"
        if row["distance"] > USE_REACH:
            step = walk_to(mem, row["position"], why)
            if step is not None:
                return step
        decision: Decision = ("turn_and_use", {"x": row["position"][0],
                                               "z": row["position"][2]}, why)
        if not mem.failed(decision):
            return decision
    return None


def _words(text: str) -> set[str]:
    return {w for w in WORD.findall(text.lower()) if len(w) > 2}


def candidates(mem: Memory, keypad: dict[str, Any]) -> list[str]:
    """Codes from the notes read for this keypad, in the order they were read.

    A code counts only when its own clause (up to a full stop or semicolon) names the
    keypad by every word of its name: "the vault keypad code is 4817" for the vault
    keypad, never a number beside it (a locker's code, a time, an old code). Codes the
    keypad refused are dropped.
    """
    name = _words(keypad["name"])
    tried = {c for k, c in mem.wrong_codes if k == keypad["id"]}
    found: list[str] = []
    for text in mem.notes.values():
        for clause in re.split(r"(?<=[.;!?])\s+", text):
            if name <= _words(clause):
                found += [c for c in DIGITS.findall(clause) if c not in tried and c not in found]
    return found


def key_in(mem: Memory, keypad_id: str, why: str) -> Decision | None:
    """Key the likeliest code into a keypad; None when no note read holds one to try."""
    keypad = mem.objects.get(keypad_id)
    # An accepted keypad is keyed in again: its door, closed since, opens to the same
    # code once more (the way back out of a vault runs through it).
    if keypad is None or keypad["state"] == "locked_out":
        return None
    if sum(1 for k, _ in mem.wrong_codes if k == keypad_id) >= SAFE_TRIES:
        return None
    codes = candidates(mem, keypad)
    if not codes:
        return None
    decision: Decision = ("enter_code", {"object_id": keypad_id, "code": codes[0]},
                          f"keying the code from a note into keypad {keypad_id} ({why})")
    return None if mem.failed(decision) else decision
