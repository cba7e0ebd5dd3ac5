"""One episode's world behind the harness's `Game` boundary: episode ids in, episode ids out.

The session builds the world (characters and objectives wired in), translates the
ids in an action's arguments back to level ids before executing it, and writes every
id in results, errors and views in the episode's numbering.
"""

from __future__ import annotations

import re
from typing import Any

from world.actions.registry import execute
from world.actions.routes import plan_over
from world.errors import InvalidRequestError, UnknownIdError
from world.level.model import Level
from world.objectives.score import MissionReport
from world.objectives.system import ObjectivesSystem, installed
from world.observe.changes import change_lines
from world.observe.ids import IdMap
from world.observe.knowledge import Knowledge
from world.observe.located import PlayerSight
from world.observe.plan import level_plan
from world.observe.status import GameStatus
from world.observe.view import build_view
from world.setup import create_world
from world.sim.world import World
from world.turn import Stepping

# Argument name -> id groups it may name. Declared once; every action argument that
# carries an id is listed here.
ARG_GROUPS: dict[str, tuple[str, ...]] = {
    "exit_id": ("way", "door"),
    "object_id": ("object", "door"),
    "character_id": ("character",),
    "item_id": ("object",),
}
# A level id quoted in a world error message, as `repr` writes it: 'red_key'.
_QUOTED = re.compile(r"'([a-z][a-z0-9_]*)'")
# Events whose words the result gives once: a note read, a talking character heard.
READ_EVENTS = frozenset({"note_read", "words_heard"})


def id_groups(level: Level) -> dict[str, str]:
    """Level id -> the id group it is named in (a door before its way out)."""
    groups: dict[str, str] = {}
    for group, members in (("way", [*level.ids("exit"), *(s.id for s in level.stairs)]),
                           ("area", level.ids("area")),
                           ("character", [c.id for c in level.characters]),
                           ("object", [o.id for o in level.objects]),
                           ("door", [e.id for e in level.exits if e.kind == "door"])):
        groups.update(dict.fromkeys(members, group))
    return groups


def build_world(level: Level, difficulty: str, seed: int) -> tuple[World, ObjectivesSystem]:
    """An episode's world (see `world.setup.create_world`) and its objectives system."""
    world = create_world(level, difficulty, seed)
    return world, installed(world)


class WorldSession(Stepping):
    """One episode's world as a driver sees it: a `world.turn.Session`."""

    def __init__(self, level: Level, difficulty: str, seed: int) -> None:
        self.level, self.difficulty = level, difficulty
        self.world, self._objectives = build_world(level, difficulty, seed)
        self.ids = IdMap(level, seed)
        self._groups = id_groups(level)
        self.known = Knowledge(level)
        # Every action plans over what the player knows and takes in what it passes.
        plan_over(self.world, self.known)
        self._seen: MissionReport | None = None

    @property
    def tick(self) -> int:
        """Game ticks since the start."""
        return self.world.tick

    def report(self) -> MissionReport:
        """The objectives system's report on the mission now (the summary's figures)."""
        return self._objectives.report(self.world)

    def perceived_report(self) -> MissionReport:
        """The report the player may see during the episode.

        The same statuses; walkable-distance progress counts only toward places the
        player has located (issue 34).
        """
        return self._objectives.report(self.world, PlayerSight(self.world, self.known))

    def view(self) -> dict[str, Any]:
        """The structured view now (what the player learns from it is remembered).

        Drivers have it from `step` (`Turn.view`), built once per moment.
        """
        self._seen = self.perceived_report()
        return build_view(self.world, self.ids, self.known, self._seen)

    def seen_report(self) -> MissionReport | None:
        """The report the last view was built from (a reward's figures)."""
        return self._seen

    def lean_report(self) -> MissionReport | None:
        """A lean turn's report: the one the player may see now, built without a view."""
        return self.perceived_report()

    def plan(self) -> dict[str, Any]:
        """The map a record carries (`world.observe.plan`), in this episode's ids."""
        return level_plan(self.level, self.difficulty, self.ids)

    def ids_given(self) -> dict[str, str]:
        """Every episode id handed out so far and the record map's id for the same thing."""
        return self.ids.given()

    def knows(self, group: str, level_id: str) -> bool:
        """Whether the player knows a thing, by id group and level id."""
        return self.known.knows(self.world, group, level_id)

    def _known_eps(self, groups: tuple[str, ...]) -> list[str]:
        return self.ids.eps_where(groups, self.knows)

    def _level_id(self, name: str, ep_id: str, groups: tuple[str, ...]) -> str:
        # Only things the player knows may be named; the error lists only those.
        kind = name.removesuffix("_id")
        try:
            level_id = self.ids.level_id(ep_id, groups, kind)
        except UnknownIdError:
            level_id = None
        if level_id is None or not any(
                self.knows(g, level_id) for g in groups if self.ids.holds(g, level_id, ep_id)):
            raise UnknownIdError(kind, ep_id, self._known_eps(groups)) from None
        return level_id

    def act(self, action: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Execute one action given in episode ids; the result uses episode ids too."""
        args = dict(arguments)
        for name, groups in ARG_GROUPS.items():
            if name in args:
                args[name] = self._level_id(name, args[name], groups)
        try:
            result = execute(self.world, action, args)
        except UnknownIdError as exc:
            # The world's own lists name level ids: only the known ones are shown, in
            # episode ids, and a kind naming an area ("way out of area X") says "this".
            # In id order: the world lists level ids alphabetically, which would tell
            # something of the level's names.
            allowed = sorted({self.named(a) for a in exc.allowed
                              if any(self.knows(g, a)
                                     for g in ("way", "door", "object", "character"))},
                             key=lambda e: (e[0], int(e[1:])) if e[1:].isdigit() else (e, 0))
            kind = exc.kind.split(" of area ")[0] + (" of this area" if " of area " in exc.kind
                                                     else "")
            raise UnknownIdError(kind, self.ids.any_ep(str(exc.given)), allowed) from None
        except InvalidRequestError as exc:
            raise InvalidRequestError(self._quoted_ids(str(exc))) from None
        self.known.update(self.world)
        return self._result_data(result, result.events, arguments)

    def _result_data(self, result: Any, events: Any, arguments: dict[str, Any]) -> dict[str, Any]:
        # What the agent reads first (the changes, then the sentence and the door block),
        # so its ids are numbered in that order; the events are the record's alone and
        # number nothing (a thing never perceived keeps its level id there).
        changes = change_lines(events, self.ids, self.known, self.knows, self.world.player.id)
        data = result.to_dict(self.ids.any_ep)
        data["detail"] = result.describe(self.named)
        data["door"] = None if result.door is None else self._door_block(result.door)
        data["args"] = dict(arguments)
        data["changes"] = changes
        read = self._read(events)
        if read:  # only when a note was read: results elsewhere stay as version 1 had them
            data["read"] = read
        return data

    def _read(self, events: Any) -> list[dict[str, str]]:
        # The words of each note the player read during the action, shown in this
        # result only: the view keeps that a note was read, never what it said.
        # A talking character's words (issue 37) come the same way, under its id.
        notes = dict.fromkeys(e.other for e in events if e.kind in READ_EVENTS
                              and e.subject == self.world.player.id and e.other is not None)
        return [{"object": self.named(n), "text": self.level.words_of(n) or ""}
                for n in notes]

    def _door_block(self, block: Any) -> dict[str, Any] | None:
        # The door block names the door and its key, key's area and panel by episode id,
        # each only once known; a door the player has no id for (one not revealed) gives
        # no block, as the schema's ids require (the sentence still says it is shut).
        def known(level_id: str | None) -> str | None:
            name = None if level_id is None else self.named(level_id)
            return None if name == "unknown" else name

        return None if known(block.door) is None else block.to_dict(known)

    def named(self, level_id: str) -> str:
        """How a sentence for the agent names a level id: its episode id once perceived.

        A thing the player does not know is "unknown" (it gets no number from being named).
        """
        group = self._group(level_id)
        if group is None:
            return level_id
        if not self.knows(group, level_id):
            return "unknown"
        return self.ids.ep(group, level_id)

    def _group(self, level_id: str) -> str | None:
        # A character a wave brings is not in the level's lists but is named like one.
        group = self._groups.get(level_id)
        if group is None and level_id in self.world.characters:
            return "character"
        return group

    def status(self) -> GameStatus:
        """The mission status now."""
        report = self.report()
        objectives = tuple(
            {"index": i, "status": o.status, "counts": o.counts, "text": o.text, "tick": o.tick}
            for i, o in enumerate(report.objectives, 1)
        )
        ended = report.outcome is not None
        failure = None
        if report.outcome == "failed":
            failure = self._failure(report)
        return GameStatus(ended, bool(report.success), failure, float(report.score),
                          float(report.progress), objectives, float(report.stages))

    def _quoted_ids(self, message: str) -> str:
        # World errors quote the ids they name; only those quoted ids are written in
        # episode ids (an unknown thing's as "unknown"), never a word of the sentence.
        def one(m: re.Match) -> str:
            # A level id is named as the player knows it (numbered on mention, or
            # "unknown"); any other quoted word is left as it is.
            level_id = m.group(1)
            return m.group(0) if self._group(level_id) is None \
                else f"'{self.named(level_id)}'"

        return _QUOTED.sub(one, message)

    def _failure(self, report: MissionReport) -> str:
        # In the benchmark's words: a failed objective by its number and paraphrase,
        # never by the level file's objective id.
        numbers = {o.id: i for i, o in enumerate(self.level.objectives, 1)}
        named = [n for n in (report.detail or "").replace(",", " ").split() if n in numbers]
        if named:
            listed = "; ".join(f"objective {numbers[n]}: {self.level.objective(n).text}"
                               for n in named)
            return f"{report.reason} ({listed})"
        return f"{report.reason} ({report.detail})" if report.detail else str(report.reason)

    def state_hash(self) -> str:
        """The world's state hash."""
        return self.world.state_hash()


