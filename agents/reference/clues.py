"""Look-alikes: which of several things alike is the real one, by the words of a note.

An objective may list several targets of one name (a thing and its decoys, protocol
version 2): the view never says which is real, and taking a decoy fails the objective.
A note read earlier (kept in `Memory.notes`, since the view never shows its words again)
says where the real one lies: a sentence that names the thing and calls it real,
genuine or original names its area. Until such a sentence and a look-alike in that area
are both known, none is taken; a thing no note speaks of is taken as before.
"""

from __future__ import annotations

import re
from typing import Any

from agents.reference.memory import Decision, Memory
from agents.reference.moves import explore

Objective = dict[str, Any]

REAL_WORDS = frozenset({"real", "genuine", "original", "true"})
SENTENCE = re.compile(r"(?<=[.;!?])\s+")
WORD = re.compile(r"[a-z]+")


def _words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


def area_names(mem: Memory) -> dict[str, str]:
    """Every area the player knows the name of (stood in, or seen through a way out)."""
    names = {aid: note.name for aid, note in mem.areas.items()}
    for note in mem.areas.values():
        for way in note.ways.values():
            names.setdefault(way["to"], way["to_name"])
    return names


def real_areas(mem: Memory, name: str) -> set[str] | None:
    """The area names the notes read give for the real thing of this name, or None.

    None: no note read calls a thing of this name real (nothing to tell apart, as far
    as the agent knows). Otherwise the lower-case names of the known areas that the
    note's sentence names (empty while none of them is known yet).
    """
    wanted = _words(name)
    names = area_names(mem)
    found: set[str] | None = None
    for text in mem.notes.values():
        for sentence in SENTENCE.split(text.lower()):
            words = _words(sentence)
            if not (wanted <= words and words & REAL_WORDS):
                continue
            found = found or set()
            found |= {n.lower() for n in names.values() if n.lower() in sentence}
    return found


def told_apart(mem: Memory, obj: Objective) -> Objective:
    """The objective with only the targets a note says are real (all, if none speaks).

    A collect_item objective whose targets share a name the notes call real keeps only
    those lying in the area the note names; none while that area is not known.
    """
    if obj["kind"] != "collect_item" or not obj["targets"]:
        return obj
    rows = [mem.objects.get(t) for t in obj["targets"]]
    named = {r["name"] for r in rows if r is not None}
    if len(named) != 1:
        return obj
    places = real_areas(mem, next(iter(named)))
    alike = len(obj["targets"]) > 1
    if places is None and not alike:
        return obj
    if places is None:
        # Several alike and no word on which is real: taking one is a guess.
        return {**obj, "targets": []}
    names = area_names(mem)
    keep = [t for t, r in zip(obj["targets"], rows, strict=True)
            if r is not None and names.get(r.get("area") or "", "").lower() in places]
    return {**obj, "targets": keep}


def search_before_exit(mem: Memory) -> Decision | None:
    """Before leaving by the exit, explore what is left where notes lie about.

    Words read may add objectives (the view lists one only once its note is read), so
    in a mission with notes the exit waits until every area the player can reach has
    been seen; the exit area itself stays shut meanwhile. None: no notes seen, or nothing
    left to explore.
    """
    if mem.view["exit"] is None or not (
            any(o["kind"] == "note" for o in mem.objects.values())
            or any(r.get("talks") for r in mem.people.values())):
        return None
    mem.searching = True
    try:
        return explore(mem)
    finally:
        mem.searching = False


__all__ = ["area_names", "real_areas", "search_before_exit", "told_apart"]
