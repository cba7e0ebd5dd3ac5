"""Level checks on meaning: objectives fit what they name, objects are somewhere, doors agree.

These run after the reference checks and skip references that do not resolve, which
are already reported there.
"""

from __future__ import annotations

from collections.abc import Callable

from world.level.model import Level, Objective
from world.levelcheck.match import match_carried
from world.levelcheck.refs import OPENERS, Problem
from world.objectives.registry import VERIFIERS  # each kind's facts, on its class


def _destroy(level: Level, objective: Objective, path: str) -> list[Problem]:
    obj = {o.id: o for o in level.objects}.get(objective.object or "")
    if obj is None or obj.kind == "breakable" or obj.health is not None:
        return []
    message = f"object {obj.id!r} ({obj.kind}) cannot be destroyed: it has no health"
    return [(f"{path}.object", message)]


def _gadget(level: Level, objective: Objective, path: str) -> list[Problem]:
    provided = {o.gadget for o in level.objects if o.kind == "gadget"}
    if objective.gadget in provided:
        return []
    message = f"no gadget object in the level provides a {objective.gadget}"
    return [(f"{path}.gadget", message)]


def _secrets(level: Level, objective: Objective, path: str) -> list[Problem]:
    secret = sum(1 for a in level.areas if a.secret)
    if (objective.count or 0) <= secret:
        return []
    return [(f"{path}.count", f"asks for {objective.count} secrets; the level has {secret}")]


# Extra checks per objective kind, beyond the object kinds checked with the references.
OBJECTIVE_RULES: dict[str, Callable[[Level, Objective, str], list[Problem]]] = {
    "destroy_object": _destroy,
    "gadget_on_object": _gadget,
    "find_secrets": _secrets,
}


def objective_problems(level: Level) -> list[Problem]:
    """Objectives whose targets are of the wrong kind or that the level cannot satisfy.

    Args:
        level: The level.

    Returns:
        One problem per mismatch.
    """
    characters = {c.id: c for c in level.characters}
    problems: list[Problem] = []
    for i, objective in enumerate(level.objectives):
        path = f"$.objectives[{i}]"
        rule = OBJECTIVE_RULES.get(objective.kind)
        if rule is not None:
            problems.extend(rule(level, objective, path))
        verifier = VERIFIERS.get(objective.kind)
        side = verifier.character_side if verifier is not None else None
        for k, cid in enumerate(objective.characters):
            character = characters.get(cid)
            if side is not None and character is not None and character.side != side:
                message = f"{objective.kind} needs {side} characters; {cid!r} is {character.side}"
                problems.append((f"{path}.characters[{k}]", message))
    return problems


def order_problems(level: Level) -> list[Problem]:
    """Objectives that wait on themselves, or on each other in a cycle, through ``after``.

    Such an objective can never be done. Each cycle is reported once, at the ``after`` of
    its first objective in file order, naming every objective in it.

    Args:
        level: The level.

    Returns:
        One problem per cycle.
    """
    index = {o.id: i for i, o in enumerate(level.objectives)}
    waits = {o.id: [b for b in o.after if b in index] for o in level.objectives}
    problems: list[Problem] = []
    seen: set[frozenset[str]] = set()
    done: set[str] = set()
    for start in (o.id for o in level.objectives if o.id not in done):
        # Iterative depth-first search; `trail` is the current path of objectives.
        trail: list[str] = [start]
        on_trail = {start: 0}
        pending = [iter(waits[start])]
        while pending:
            nxt = next(pending[-1], None)
            if nxt is None:
                pending.pop()
                finished = trail.pop()
                del on_trail[finished]
                done.add(finished)
                continue
            if nxt in on_trail:
                cycle = trail[on_trail[nxt]:]
                key = frozenset(cycle)
                if key not in seen:
                    seen.add(key)
                    first = min(cycle, key=index.__getitem__)
                    where = f"$.objectives[{index[first]}].after"
                    if len(cycle) == 1:
                        problems.append((where, f"objective {first!r} waits on itself"))
                    else:
                        turn = cycle.index(first)
                        ring = cycle[turn:] + cycle[:turn] + [first]
                        names = " -> ".join(repr(c) for c in ring)
                        problems.append((where, f"objectives wait on each other in a cycle: "
                                                f"{names}; none can be done"))
            elif nxt not in done and nxt not in on_trail:
                on_trail[nxt] = len(trail)
                trail.append(nxt)
                pending.append(iter(waits[nxt]))
    return problems


def placement_problems(level: Level) -> list[Problem]:
    """Objects that are both carried and placed, neither, or half placed.

    Args:
        level: The level.

    Returns:
        One problem per object in the wrong state.
    """
    carried = set(level.start.inventory) | match_carried(level)
    index = {o.id: i for i, o in enumerate(level.objects)}
    problems: list[Problem] = []
    for k, item in enumerate(level.start.inventory):
        i = index.get(item)
        if i is not None and level.objects[i].area is not None:
            message = f"object {item!r} is carried at the start but also placed ($.objects[{i}])"
            problems.append((f"$.start.inventory[{k}]", message))
    for i, obj in enumerate(level.objects):
        path = f"$.objects[{i}]"
        if (obj.area is None) != (obj.at is None):
            problems.append((path, "a placed object needs both area and at"))
        elif obj.area is None and obj.id not in carried:
            problems.append((path, f"object {obj.id!r} is neither placed nor carried at the start"))
    hand = level.start.in_hand
    if hand is not None and hand not in carried:
        problems.append(("$.start.in_hand", f"object {hand!r} in hand is not in the inventory"))
    return problems


def door_problems(level: Level) -> list[Problem]:
    """Door settings that contradict their exit: sides it does not have, hidden with no reveal.

    Args:
        level: The level.

    Returns:
        One problem per contradiction.
    """
    revealers = {t for o in level.objects if o.kind in OPENERS for t in o.targets}
    problems: list[Problem] = []
    for i, exit_ in enumerate(level.exits):
        path = f"$.exits[{i}]"
        if exit_.areas[0] == exit_.areas[1]:
            problems.append((f"{path}.areas", "an exit joins two different areas"))
        if exit_.hidden and exit_.id not in revealers:
            problems.append((f"{path}.hidden", "no secret trigger or switch reveals this exit"))
        door = exit_.door
        if door is None:
            continue
        for name in ("locked_from", "one_way_from"):
            side = getattr(door, name)
            if side is not None and side not in exit_.areas:
                message = f"{side!r} is not one of the areas this door joins"
                problems.append((f"{path}.door.{name}", message))
    return problems
