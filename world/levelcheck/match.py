"""The checks of a level's match block (the multiplayer track): starts, carried items, exit.

Run with the reference checks, before geometry: every id a match block names must exist
and be the right kind, every carried object must be carried by one start only, and the
level places no characters (their minds would take only the first player for "the
player"; characters in matches are a later step of the track).
"""

from __future__ import annotations

import math

from world.level.model import Level
from world.levelcheck.refs import Problem


def match_carried(level: Level) -> set[str]:
    """Every object some player's match start carries."""
    if level.match is None:
        return set()
    return {oid for start in level.match.starts for oid in start.inventory}


def match_problems(level: Level) -> list[Problem]:
    """Problems of the level's match block; none for a level without one."""
    rules = level.match
    if rules is None:
        return []
    areas = {a.id for a in level.areas}
    objects = {o.id: o for o in level.objects}
    problems: list[Problem] = []
    owner: dict[str, str] = {oid: "$.start.inventory" for oid in level.start.inventory}
    for k, start in enumerate(rules.starts):
        path = f"$.match.starts[{k}]"
        if start.area not in areas:
            problems.append((f"{path}.area", f"unknown area id {start.area!r}; areas: "
                             f"{', '.join(sorted(areas))}"))
        for j, oid in enumerate(start.inventory):
            where = f"{path}.inventory[{j}]"
            obj = objects.get(oid)
            if obj is None:
                problems.append((where, f"unknown object id {oid!r}"))
            elif obj.area is not None:
                problems.append((where, f"object {oid!r} is placed in area {obj.area!r}; "
                                 "a start carries only objects with no area"))
            elif oid in owner:
                problems.append((where, f"object {oid!r} is already carried by {owner[oid]}; "
                                 "each player needs its own"))
            else:
                owner[oid] = f"{path}.inventory"
        if start.in_hand is not None and start.in_hand not in start.inventory:
            problems.append((f"{path}.in_hand",
                             f"object {start.in_hand!r} in hand is not in this start's inventory"))
    if rules.exit is not None and rules.exit not in areas:
        problems.append(("$.match.exit", f"unknown area id {rules.exit!r}"))
    elif rules.exit is not None and rules.exit in {s.area for s in rules.starts}:
        problems.append(("$.match.exit", f"area {rules.exit!r} is a start area; a player "
                         "must walk into the exit to win by it"))
    apart = 2 * level.navmesh.agent_radius
    for k, start in enumerate(rules.starts):
        for j, other in enumerate(rules.starts[:k]):
            gap = math.dist(start.at, other.at)
            if gap < apart:
                problems.append((f"$.match.starts[{k}].at", f"{gap:g} units from "
                                 f"$.match.starts[{j}]; players need {apart:g} apart"))
    if level.characters or level.waves:
        problems.append(("$.match", "a match level places no characters or waves yet "
                         "(their minds know one player only)"))
    return problems + goal_problems(level)


def goal_problems(level: Level) -> list[Problem]:
    """Problems of the match's hold zone and captures (world.match.goals)."""
    rules = level.match
    if rules is None:
        return []
    areas = {a.id for a in level.areas}
    starts = {s.area for s in rules.starts}
    problems: list[Problem] = []

    def area_problem(path: str, area: str, what: str) -> None:
        if area not in areas:
            problems.append((path, f"unknown area id {area!r}; areas: {', '.join(sorted(areas))}"))
        elif area in starts:
            problems.append((path, f"area {area!r} is a start area; {what}"))

    if rules.hold is not None:
        area_problem("$.match.hold.area", rules.hold.area,
                     "a zone must be walked into to be held")
    if rules.capture is not None:
        problems += _capture_problems(level)
    if rules.escort is not None:
        seats = [f"p{k}" for k in range(1, len(rules.starts) + 1)]
        for k, pid in enumerate(rules.escort.players):
            if pid not in seats:
                problems.append((f"$.match.escort.players[{k}]", f"no player {pid!r}; "
                                 f"players: {', '.join(seats)}"))
        if rules.exit is None:
            problems.append(("$.match.escort", "escorts need the match's exit: give "
                             "$.match.exit"))
    return problems


def _capture_problems(level: Level) -> list[Problem]:
    rules = level.match
    assert rules is not None and rules.capture is not None
    capture = rules.capture
    problems: list[Problem] = []
    if len(capture.flags) not in (1, len(capture.bases)):
        problems.append(("$.match.capture.flags", f"{len(capture.flags)} flags for "
                         f"{len(capture.bases)} bases; give one flag per base (side) or "
                         "a single shared flag"))
    areas = sorted(a.id for a in level.areas)
    for k, base in enumerate(capture.bases):
        if base not in areas:  # a base may be a start area: a side starts at home
            problems.append((f"$.match.capture.bases[{k}]",
                             f"unknown area id {base!r}; areas: {', '.join(areas)}"))
    carried = match_carried(level) | set(level.start.inventory)
    door_keys = {e.door.key for e in level.exits if e.door is not None}
    objects = {o.id: o for o in level.objects}
    for k, fid in enumerate(capture.flags):
        where, obj = f"$.match.capture.flags[{k}]", objects.get(fid)
        if obj is None:
            problems.append((where, f"unknown object id {fid!r}"))
        elif obj.kind != "key" or obj.area is None or fid in carried:
            problems.append((where, f"object {fid!r} is a {obj.kind}"
                             f"{'' if obj.area else ' with no area'}; a flag is a placed "
                             "object of kind key that no start carries"))
        elif fid in door_keys:
            problems.append((where, f"object {fid!r} is the key of a door; a flag opens "
                             "no door"))
        elif obj.respawn_s is not None:
            problems.append((where, f"object {fid!r} respawns; a flag goes home only "
                             "when captured or touched by its side"))
    return problems
