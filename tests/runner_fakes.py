"""A tiny deterministic game standing in for the world, so runner tests stay fast."""

from __future__ import annotations

import hashlib
from typing import Any

from harness.core.game import GameStatus
from world.errors import InvalidRequestError, UnknownIdError
from world.level.model import Level
from world.observe.ids import IdMap
from world.observe.plan import level_plan
from world.turn import Stepping


class FakeGame(Stepping):
    """The player walks along x; reaching x >= 900 completes the mission."""

    def __init__(self, level: Level, difficulty: str, seed: int) -> None:
        self.level, self.seed, self.tick, self.x = level, seed, 0, 100.0
        self.difficulty = difficulty

    def view(self) -> dict[str, Any]:
        return {
            "player": {"position": [self.x, 0.0, 400.0], "facing_deg": 0.0, "health": 1.0,
                       "armour": 0.0, "alive": True, "in_hand": None, "carried": [],
                       "keys": []},
            "area": None,
            "objectives": [{"index": 1, "status": "done" if self.x >= 900 else "todo",
                            "min_difficulty": "easy", "counts": True, "text": "Walk east.",
                            "area": None, "area_name": None, "distance": None,
                            "standing": False}],
            "characters": [],
            "objects": [{"id": "o1", "kind": "key", "name": "key", "position": [500, 0, 400],
                         "area": None, "distance": abs(500 - self.x), "objective": False,
                         "state": None}],
            "doors": [], "hazards": [], "exit": None,
        }

    def plan(self) -> dict[str, Any]:
        return level_plan(self.level, self.difficulty, IdMap(self.level, self.seed))

    def ids_given(self) -> dict[str, str]:
        return {"o1": "o1"}

    def act(self, action: str, arguments: dict[str, Any]) -> dict[str, Any]:
        if action == "go_to_object" and arguments["object_id"] != "o1":
            raise UnknownIdError("object", arguments["object_id"], ["o1"])
        if action == "equip":
            raise InvalidRequestError("nothing to equip")
        start = self.x
        if action == "go_to":
            self.x = min(float(arguments["x"]), 1000.0)
            self.tick += 30
        else:
            self.tick += round(float(arguments.get("seconds", 1)) * 30)
        return {"action": action, "args": arguments, "end_reason": "arrived",
                "ticks": 30, "distance_moved": abs(self.x - start), "detail": "done",
                "changes": [], "events": []}

    def status(self) -> GameStatus:
        done = self.x >= 900
        objectives = ({"index": 1, "status": "done" if done else "todo", "counts": True,
                       "text": "Walk east.", "tick": None},)
        return GameStatus(done, done, None, 1.0 if done else 0.0, 1.0 if done else 0.0,
                          objectives)

    def state_hash(self) -> str:
        return hashlib.sha256(f"{self.tick}:{self.x:.2f}:{self.seed}".encode()).hexdigest()
