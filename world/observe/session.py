"""One episode's world behind the harness's `Game` boundary: episode ids in, episode ids out.

The session builds the world (characters and objectives wired in), translates the
ids in an action's arguments back to level ids before executing it, and writes every
id in results, errors and views in the episode's numbering.
"""

from __future__ import annotations

import re
from typing import Any

from world.actions.registry import execute
from world.errors import InvalidRequestError, UnknownIdError
from world.level.model import Level
from world.objectives.score import MissionReport
from world.objectives.system import ObjectivesSystem, installed
from world.observe.ids import IdMap
from world.observe.view import Memory, build_view
from world.setup import create_world
from world.sim.world import World

# Argument name -> id groups it may name. Declared once; every action argument that
# carries an id is listed here.
ARG_GROUPS: dict[str, tuple[str, ...]] = {
    "exit_id": ("way", "door"),
    "object_id": ("object", "door"),
    "character_id": ("character",),
    "item_id": ("object",),
}


def build_world(level: Level, difficulty: str, seed: int) -> tuple[World, ObjectivesSystem]:
    """An episode's world (see `world.setup.create_world`) and its objectives system."""
    world = create_world(level, difficulty, seed)
    return world, installed(world)


class WorldSession:
    """The real `harness.game.Game`."""

    def __init__(self, level: Level, difficulty: str, seed: int) -> None:
        self.level = level
        self.world, self._objectives = build_world(level, difficulty, seed)
        self.ids = IdMap(level, seed)
        self.memory = Memory()
        self._scrub_re = re.compile(
            r"(?<![\w])(" + "|".join(sorted(
                (re.escape(i) for i in self._level_ids()), key=len, reverse=True)) + r")(?![\w])"
        )

    def _level_ids(self) -> set[str]:
        lv = self.level
        return ({a.id for a in lv.areas} | {e.id for e in lv.exits} | {s.id for s in lv.stairs}
                | {o.id for o in lv.objects} | {c.id for c in lv.characters})

    @property
    def tick(self) -> int:
        """Game ticks since the start."""
        return self.world.tick

    def report(self) -> MissionReport:
        """The objectives system's report on the mission now."""
        return self._objectives.report(self.world)

    def view(self) -> dict[str, Any]:
        """The structured view now."""
        return build_view(self.world, self.ids, self.memory, self.report())

    def scrub(self, text: str) -> str:
        """Text with every level id replaced by its episode id."""
        return self._scrub_re.sub(lambda m: self.ids.any_ep(m.group(1)), text)

    def act(self, action: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Execute one action given in episode ids; the result uses episode ids too."""
        args = dict(arguments)
        for name, groups in ARG_GROUPS.items():
            if name in args:
                args[name] = self.ids.level_id(args[name], groups, name.removesuffix("_id"))
        try:
            result = execute(self.world, action, args)
        except UnknownIdError as exc:
            raise UnknownIdError(exc.kind, self.scrub(str(exc.given)),
                                 [self.ids.any_ep(a) for a in exc.allowed]) from None
        except InvalidRequestError as exc:
            raise InvalidRequestError(self.scrub(str(exc))) from None
        data = result.to_dict(self.ids.any_ep)
        data["args"] = dict(arguments)
        data["detail"] = self.scrub(data["detail"])
        data["changes"] = [_change(e) for e in data["events"] if e["kind"] in _CHANGE_KINDS]
        return data

    def status(self):
        """The mission status now, as a `harness.game.GameStatus`."""
        from harness.game import GameStatus

        report = self.report()
        objectives = tuple(
            {"index": i, "status": o.status, "counts": o.counts, "text": o.text, "tick": o.tick}
            for i, o in enumerate(report.objectives, 1)
        )
        ended = report.outcome is not None
        failure = None
        if report.outcome == "failed":
            extra = f" ({report.detail})" if report.detail else ""
            failure = self.scrub(f"{report.reason}{extra}")
        return GameStatus(ended, bool(report.success), failure, float(report.score),
                          float(report.progress), objectives)

    def state_hash(self) -> str:
        """The world's state hash."""
        return self.world.state_hash()


# Event kinds worth a line in "what changed", with the sentence for each.
_CHANGE_KINDS: dict[str, str] = {
    "area_entered": "{subject} entered {other}",
    "door_opened": "door {subject} opened",
    "door_closed": "door {subject} closed",
    "door_unlocked": "door {subject} was unlocked",
    "door_refused": "door {subject} did not open ({detail})",
    "item_picked_up": "{subject} took {other}",
    "item_equipped": "{subject} now holds {other}",
    "damage_taken": "{subject} lost {amount} health/armour",
    "actor_down": "{subject} went down",
    "object_broken": "{subject} was destroyed",
    "alarm_raised": "alarm {subject} started sounding",
    "countdown_started": "countdown started: {amount} s",
    "secret_found": "found a secret area {other}",
    "exit_revealed": "a hidden way {subject} was revealed",
}


def _change(event: dict[str, Any]) -> str:
    amount = event["amount"]
    return _CHANGE_KINDS[event["kind"]].format(
        subject="you" if event["subject"] == "player" else event["subject"],
        other=event["other"], detail=event["detail"],
        amount="?" if amount is None else f"{amount:.2f}",
    )
