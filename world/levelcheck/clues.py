"""Level checks on decoys and on objectives revealed by a note (issue 37).

A decoy (`decoy_of`) is a key alike in kind and name to the real one, so only words read
can tell them apart: a note must name the area the real one lies in, and the two must lie
in different areas. An objective revealed by a note (`revealed_by`) names a note, comes
after every objective shown from the start (so the view's numbers never shift), and no
objective shown from the start waits on it.
"""

from __future__ import annotations

from world.level.model import Level
from world.levelcheck.codes import readables
from world.levelcheck.refs import Problem

# The only kind a decoy may copy: a thing picked up into the inventory and nothing else.
DECOY_KINDS = frozenset({"key"})


def _decoy_problems(level: Level) -> list[Problem]:
    problems: list[Problem] = []
    objects = {o.id: o for o in level.objects}
    door_keys = {e.door.key for e in level.exits if e.door is not None and e.door.key}
    named = {o.object for o in level.objectives if o.object}
    notes = [(level.words_of(r.id) or "").lower() for r in readables(level)]
    for i, obj in enumerate(level.objects):
        if obj.decoy_of is None:
            continue
        path = f"$.objects[{i}].decoy_of"
        real = objects.get(obj.decoy_of)
        if real is None:
            problems.append((path, f"names no object: {obj.decoy_of!r}"))
            continue
        if obj.kind not in DECOY_KINDS or real.kind not in DECOY_KINDS:
            problems.append((path, f"a decoy and the thing it copies must both be of kind "
                             f"{sorted(DECOY_KINDS)}; got {obj.kind!r} and {real.kind!r}"))
        if real.decoy_of is not None:
            problems.append((path, f"{real.id!r} is itself a decoy; name the real thing"))
        if (obj.name or "") != (real.name or ""):
            problems.append((f"$.objects[{i}].name", f"a decoy has the name of the thing it "
                             f"copies ({real.name!r}), or it is no decoy"))
        if obj.area is None or real.area is None or obj.area == real.area:
            problems.append((path, f"decoy {obj.id!r} and {real.id!r} must both lie placed, "
                             "in different areas, so that a note can tell them apart"))
        if obj.id in named or obj.id in door_keys:
            problems.append((path, f"decoy {obj.id!r} is named by an objective or a door; "
                             "only the real thing may be"))
        if real.area is not None:
            where = level.area(real.area).name.lower()
            if not any(where in text for text in notes):
                problems.append((path, f"no note names {where!r}, the area where the real "
                                 f"{real.id!r} lies; write it in a note"))
    return problems


def _reveal_problems(level: Level) -> list[Problem]:
    problems: list[Problem] = []
    notes = {o.id for o in level.objects if o.kind == "note"}
    late = {o.id for o in level.objectives if o.revealed_by is not None}
    seen_late = False
    for i, obj in enumerate(level.objectives):
        path = f"$.objectives[{i}]"
        if obj.revealed_by is None:
            if seen_late:
                problems.append((path, "an objective shown from the start must come before "
                                 "every objective a note reveals (revealed_by)"))
            waits = sorted(set(obj.after) & late)
            if waits:
                problems.append((f"{path}.after", f"waits on {waits}, revealed only by a "
                                 "note: an objective shown from the start may not"))
            continue
        seen_late = True
        if obj.revealed_by not in notes:
            problems.append((f"{path}.revealed_by", f"{obj.revealed_by!r} is not a note; "
                             f"notes: {sorted(notes) or 'none'}"))
    return problems


def clue_problems(level: Level) -> list[Problem]:
    """Decoys that words cannot tell apart, and objectives revealed out of order.

    Args:
        level: The level.

    Returns:
        One problem per field at fault, each naming it.
    """
    return _decoy_problems(level) + _reveal_problems(level)
