"""`harness check doom:NAME`: a Doom mission's file and what it says about its map.

The mission file is read as every command reads it (schema, then meaning:
world/doom/mission.py); then the map it names is looked up in the WAD ViZDoom ships
and its rooms built, and the objectives are held against the map: an exit to reach, as
many secrets and monsters as asked for at the mission's skills, targets the map has.
A scenario's script spawns its things and ends its map, so only its targets' names are
checked there. Problems are reported, never raised.
"""

from __future__ import annotations

from dataclasses import dataclass

from world.doom.mission import DoomLevel, DoomObjective, load_mission
from world.doom.rooms import DoomRooms, build_rooms
from world.doom.specials import CHARACTER_KINDS, MARKER_KINDS, actor_names
from world.doom.wad import load_map, map_names
from world.errors import LevelError, LevelProblem, WorldError
from world.levelcheck.checker import CheckReport


@dataclass(frozen=True)
class DoomCounts:
    """A Doom mission's map: where it is read from, its rooms, doors, secrets and things."""

    map: str
    areas: int
    doors: int
    exits: int
    secrets: int
    monsters: int  # at the hardest difficulty's skill
    objects: int

    def summary(self) -> str:
        """One line such as ``E1M1 of freedoom1.wad: 66 areas, 15 doors, ...``."""
        return (f"{self.map}: {_n(self.areas, 'area')}, {_n(self.doors, 'door')}, "
                f"{_n(self.exits, 'exit')}, {_n(self.secrets, 'secret')}, "
                f"{_n(self.monsters, 'monster')} and {_n(self.objects, 'object')} at the "
                "hardest skill")


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def check_mission(ref: str) -> CheckReport:
    """Every problem of the mission a `doom:` reference names, with its map's counts."""
    try:
        level = load_mission(ref)
    except LevelError as exc:
        return CheckReport(exc.problems[0].file, exc.problems)
    except WorldError as exc:
        return CheckReport(ref, (LevelProblem(ref, "$", str(exc)),))
    file = level.source
    try:
        wad = level.files()[0]
    except WorldError as exc:  # no ViZDoom, or no such scenario
        return CheckReport(level.id, (LevelProblem(file, "$.engine", str(exc)),))
    names = map_names(wad)
    name = level.map or names[0]
    if name not in names:
        return CheckReport(level.id, (LevelProblem(
            file, "$.engine.map", f"no map {name!r} in {wad.name} (maps: {', '.join(names)})"),))
    rooms = build_rooms(load_map(wad, name))  # rooms only: no route grid to build
    problems = [LevelProblem(file, f"$.objectives[{i}]{where}", message)
                for i, objective in enumerate(level.objectives)
                for where, message in _objective_problems(level, objective, rooms)]
    hardest = level.difficulties[-1].skill
    present = [p for p in rooms.things if hardest in p.skills and p.kind not in MARKER_KINDS]
    monsters = sum(p.kind in CHARACTER_KINDS for p in present)
    counts = DoomCounts(f"{name} of {wad.name}", len(rooms.areas), len(rooms.doors),
                        sum(not e.secret for e in rooms.exits), len(rooms.secrets), monsters,
                        len(present) - monsters)
    return CheckReport(level.id, tuple(problems), None if problems else counts)


def _objective_problems(level: DoomLevel, objective: DoomObjective,
                        rooms: DoomRooms) -> list[tuple[str, str]]:
    out = []
    verifier, scripted = objective.verifier, level.scenario is not None
    # The easiest skill the objective counts at: what it asks must be there.
    order = [d.id for d in level.difficulties]
    skill = level.difficulties[order.index(objective.min_difficulty)].skill
    kind = verifier["type"]
    if kind == "level_exit" and not scripted and not any(not e.secret for e in rooms.exits):
        out.append((".verifier", f"{rooms.map.name} has no exit line to end it"))
    if kind == "secrets" and verifier["at_least"] > len(rooms.secrets):
        out.append((".verifier.at_least", f"{verifier['at_least']} secrets asked for, "
                    f"{rooms.map.name} has {len(rooms.secrets)}"))
    monsters = sum(p.kind in CHARACTER_KINDS and skill in p.skills for p in rooms.things)
    if kind == "kills" and not scripted and verifier.get("at_least", 0) > monsters:
        out.append((".verifier.at_least", f"{verifier['at_least']} kills asked for, "
                    f"{rooms.map.name} has {monsters} monsters at skill {skill}"))
    have = actor_names() if scripted else \
        {p.name for p in rooms.things if skill in p.skills} | {s.name for s in rooms.switches}
    for t, target in enumerate(objective.targets):
        if target not in have:
            out.append((f".targets[{t}]", f"{target!r} is nothing the map has at skill "
                        f"{skill} (it has: {', '.join(sorted(have))})"))
    return out
