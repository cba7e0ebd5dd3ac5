"""The raw-control track's session: a world session played by held controller input.

`RawGame` is the game of `harness run --track raw` and the world of
`MissionHarness/Raw-v0`: one step of the action `controls` runs `frame_skip` ticks of
the same input, and each turn carries the Raw environment's observation as plain arrays
(`Turn.raw`, from `raw_observation`). The environment's session is lean (`world.turn`):
its turns build a view, status, hash or result only when asked. The frame skip's
bounds are declared here. Nothing here needs Gymnasium.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from world.actions.catalog import ActionSpec
from world.actions.result import ActionResult
from world.errors import InvalidRequestError, WorldError
from world.level.model import Level
from world.objectives.score import MissionReport
from world.observe.reveal import shown_objectives
from world.observe.session import WorldSession
from world.raw.controls import CONTROLS, Input, intent
from world.raw.rayscan import RayScanner, ScanSpec
from world.sim.clock import seconds_to_ticks

RAW_ACTION = "controls"
MAX_OBJECTIVES = 8
OBJECTIVE_FEATURES = ("todo", "done", "failed", "counts")
PLAYER_FEATURES = ("cos_facing", "sin_facing", "health", "armour", "alive", "ammo_in_hand",
                   "ready_to_fire", "progress", "game_time_used")
AMMO_SCALE = 200.0
DEFAULT_FRAME_SKIP = 4
MAX_FRAME_SKIP = 300


def check_frame_skip(frame_skip: Any) -> int:
    """The frame skip, or ValueError naming what is allowed."""
    if isinstance(frame_skip, bool) or not isinstance(frame_skip, int) or not (
            1 <= frame_skip <= MAX_FRAME_SKIP):
        raise ValueError(f"frame_skip: {frame_skip!r} is not a whole number of ticks in "
                         f"1..{MAX_FRAME_SKIP}")
    return frame_skip


def controls_action() -> ActionSpec:
    """The raw track's one action, declared from `CONTROLS` like a catalogue action."""
    return ActionSpec(
        name=RAW_ACTION,
        summary="Hold the controller input for the track's frame_skip ticks.",
        description="Hold these controls for frame_skip ticks (the start message's track "
                    "says how many). Each argument is the index of one control's value.",
        walking=False,
        parameters=MappingProxyType({
            name: {"type": "integer", "minimum": 0, "maximum": len(c.values) - 1,
                   "description": f"{c.summary} Values: "
                   + ", ".join(f"{i} {v}" for i, v in enumerate(c.values)) + "."}
            for name, c in CONTROLS.items()}),
        required=tuple(CONTROLS))


class RawGame(WorldSession):
    """A world session whose one action holds the controls for `frame_skip` ticks."""

    def __init__(self, level: Level, difficulty: str, seed: int,
                 frame_skip: int = DEFAULT_FRAME_SKIP, scan: ScanSpec | None = None,
                 lean: bool = False) -> None:
        super().__init__(level, difficulty, seed)
        self.lean = lean
        # The input the latest hold dropped (the world refused it), or None.
        self.refused: str | None = None
        self.frame_skip = check_frame_skip(frame_skip)
        self.scanner = RayScanner(self.world, scan or ScanSpec())
        self.max_ticks = seconds_to_ticks(level.budgets.max_game_seconds)

    def _hold(self, control: Input) -> tuple[int, float, str | None]:
        """Run up to frame_skip ticks of one input: (ticks run, distance walked, refusal)."""
        world = self.world
        player = world.player
        ticks, walked, refused = 0, 0.0, None
        for _ in range(self.frame_skip):
            if world.ended is not None or world.tick >= self.max_ticks:
                break
            x, z = player.x, player.z
            try:
                world.step(intent(world, control))
            except WorldError as exc:
                # A refused intent changed nothing; the tick runs without it.
                refused = str(exc)
                world.step(None)
            ticks += 1
            walked += math.hypot(player.x - x, player.z - z)
        # What the player perceived by the end of the hold (the progress figure counts
        # distance only toward what it located).
        self.known.update(world)
        return ticks, walked, refused

    def act(self, action: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Hold the controls given as `controls` arguments; the result as a macro action's."""
        return self._held(action, arguments)()

    def _act(self, action: str, arguments: dict[str, Any]
             ) -> dict[str, Any] | Callable[[], dict[str, Any]]:
        # A lean session holds the controls now and writes the result when asked.
        write = self._held(action, arguments)
        return write if self.lean else write()

    def _held(self, action: str, arguments: dict[str, Any]) -> Callable[[], dict[str, Any]]:
        """Hold the controls now; what writes the action's result of this moment."""
        if action != RAW_ACTION:
            raise InvalidRequestError(f"the raw-control track takes only the action "
                                      f"{RAW_ACTION!r}, not {action!r}")
        first = len(self.world.events)
        ticks, walked, refused = self._hold(Input.of([arguments[n] for n in CONTROLS]))
        self.refused = refused
        alive = self.world.player.alive

        def write() -> dict[str, Any]:
            events = tuple(self.world.events.since(first))
            detail = f"Held the controls for {ticks} tick(s)." + (
                f" An input was dropped: {refused}" if refused else "")
            result = ActionResult(
                action=RAW_ACTION, args=dict(arguments),
                end_reason="held" if alive else "dead", ticks=ticks, distance_moved=walked,
                detail_template=detail.replace("{", "{{").replace("}", "}}"),
                events=events, time_limit_ticks=self.frame_skip)
            return self._result_data(result, events, arguments)

        return write

    def raw_arrays(self, report: MissionReport | None) -> Mapping[str, Any]:
        """The turn's ray-scan observation, from its report (`Stepping._look`)."""
        return MappingProxyType(self.raw_observation(report))

    def raw_observation(self, report: MissionReport | None = None) -> dict[str, np.ndarray]:
        """The Raw environment's observation: player, objectives (with mask) and rays.

        Args:
            report: The report the player may see (`perceived_report`) of this moment, if
                the caller has it already.
        """
        world = self.world
        p = world.player
        report = report or self.perceived_report()
        progress = report.progress
        ready = bool(p.in_hand) and world.combat.readiness(p) == ""
        ammo = p.magazine.get(p.weapon, 0) + p.ammo.get(p.weapon, 0) if p.weapon else 0
        # Clipped to -1..1 before the array is made: the values np.clip gives (NaN kept).
        player = np.array([_clip(v) for v in (
            math.cos(p.facing), math.sin(p.facing), max(0.0, p.health), p.armour,
            float(p.alive), min(1.0, ammo / AMMO_SCALE), float(ready), progress,
            min(1.0, world.tick / self.max_ticks))], dtype=np.float32)
        # Only objectives the player knows of, in the view's order (issue 37).
        rows = {o.id: o for o in report.objectives}
        shown = [rows[o.id] for o in shown_objectives(world) if o.id in rows][:MAX_OBJECTIVES]
        objectives = np.zeros((MAX_OBJECTIVES, len(OBJECTIVE_FEATURES)), dtype=np.float32)
        present = np.zeros(MAX_OBJECTIVES, dtype=np.int8)
        if shown:
            objectives[:len(shown)] = [(o.status == "todo", o.status == "done",
                                        o.status == "failed", o.counts) for o in shown]
            present[:len(shown)] = 1
        rays = self.scanner.rays()
        return {"player": player, "objectives": objectives,
                "objectives_mask": present, "rays": rays}


def _clip(v: float) -> float:
    # np.clip(v, -1.0, 1.0) of one value (a NaN passes through, as there).
    return -1.0 if v < -1.0 else 1.0 if v > 1.0 else v


def raw_json(observation: dict[str, np.ndarray]) -> dict[str, Any]:
    """The observation as JSON lists, rounded to 4 places (the JSON-lines track's `raw`)."""
    return {k: np.round(v.astype(float), 4).tolist() for k, v in observation.items()}
