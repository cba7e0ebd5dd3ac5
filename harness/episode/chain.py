"""A stepwise episode's chain as it is played: which subtask is on, when it ends, resets.

Before every turn (and at the end) the episode asks `ChainRun.advance`. The subtask on
succeeds once its objective is done (and the mission has not failed); it fails when
its budget runs out or the mission fails, and then the world is reset to the reference
run's success state of that subtask, so the next one is played from where it should
have begun. A subtask already done when its turn comes was done on the way by the agent
(it counts), or by the reset that began it (it is not played and counts for nobody).
When every subtask has had its turn the episode ends. Replay runs the same code over
the record's turns, so every reset and every subtask's result is re-derived.
"""

from __future__ import annotations

from harness.core.game import Game, GameFactory, GameStatus
from harness.core.messages import (
    ObservationMessageStepwise,
    SummaryMessageStepwise,
    SummaryMessageStepwiseSubtasksItem,
)
from harness.core.protocol import CHAIN_PLAYED
from harness.episode.outcome import Ending, budget_ending, mission_ending
from harness.episode.snapshot import Snapshot, restore
from harness.episode.subtask import ChainPlan, Limits, leg_limits
from world.face import Level, ticks_to_seconds


def _done(status: GameStatus, objective: int) -> bool:
    return any(o["index"] == objective and o["status"] == "done" for o in status.objectives)


class ChainRun:
    """The state of a chain being played (see the module's docstring)."""

    def __init__(self, plan: ChainPlan, level: Level, factory: GameFactory, game: Game) -> None:
        self.plan, self.level, self.factory = plan, level, factory
        self.position = 0
        self.results: list[SummaryMessageStepwiseSubtasksItem] = []
        self.first_decision, self.first_tick = 0, game.tick
        self.reset_to: Snapshot | None = None  # the state the last advance reset to
        self.by_reset: set[int] = set()  # objectives the last reset's state had done

    @property
    def limits(self) -> Limits:
        """The budgets of the subtask on (of the last one once the chain is over)."""
        leg = self.plan.legs[min(self.position, len(self.plan.legs) - 1)]
        return leg_limits(leg, self.first_decision, self.first_tick)

    def _close(self, success: bool, played: bool, game: Game, decisions: int, end: str) -> None:
        leg = self.plan.legs[self.position]
        self.results.append({
            "subtask": leg.objective, "played": played, "success": success if played else None,
            "end": end, "decisions": decisions - self.first_decision,
            "game_seconds": round(ticks_to_seconds(game.tick - self.first_tick), 3)})
        self.position += 1
        self.first_decision, self.first_tick = decisions, game.tick

    def advance(self, game: Game, decisions: int) -> tuple[Game, Ending | None]:
        """Judge the subtask on before a turn; return the game to play on and the ending.

        The game returned is a restored one when a failed subtask reset the world.
        """
        self.reset_to = None
        while self.position < len(self.plan.legs):
            leg = self.plan.legs[self.position]
            status = game.turn.status
            failed_mission = status.ended and not status.success
            if _done(status, leg.objective) and not failed_mission:
                fresh = decisions == self.first_decision and leg.objective in self.by_reset
                self._close(True, not fresh, game, decisions,
                            "done by the reset" if fresh else "done")
                continue
            limits = self.limits
            over = budget_ending(decisions, limits.max_decisions, game.tick, limits.max_ticks)
            if not (status.ended or over):
                return game, None
            end = "the mission failed" if failed_mission else (
                "the mission ended" if status.ended else "its budget ran out")
            state = self.plan.states[self.position]
            self._close(False, True, game, decisions, end)
            if self.position < len(self.plan.legs):
                game = restore(state, self.level, self.factory)
                self.reset_to, self.by_reset = state, set(state.objectives_done)
                self.first_tick = game.tick
        status = game.turn.status
        played = [r for r in self.results if r["played"]]
        won = sum(r["success"] is True for r in played)
        words = (f"every subtask of the chain had its turn: {won} "
                 f"of {len(played)} played succeeded")
        return game, mission_ending(status) if status.ended else Ending(CHAIN_PLAYED, words)

    def summary_block(self, game: Game, decisions: int) -> SummaryMessageStepwise:
        """The summary's `stepwise` object: each subtask's result, the first failed one.

        When the episode ended before the chain did (the agent's fault, a stop), the
        subtask on counts as failed and the ones after it as not played.
        """
        results = [r.copy() for r in self.results]
        for position in range(self.position, len(self.plan.legs)):
            on = position == self.position
            results.append({"subtask": self.plan.legs[position].objective, "played": on,
                            "success": False if on else None,
                            "end": "the episode ended during it" if on else "not reached",
                            "decisions": decisions - self.first_decision if on else 0,
                            "game_seconds": round(ticks_to_seconds(
                                game.tick - self.first_tick), 3) if on else 0.0})
        failed = [r["subtask"] for r in results if r["played"] and not r["success"]]
        return {"subtasks": results, "first_failed": failed[0] if failed else None,
                "passed": not failed and all(r["played"] for r in results)}

    def observation_block(self) -> ObservationMessageStepwise:
        """The observation's `stepwise` object: the subtask on, results so far, a reset."""
        on = self.plan.legs[self.position].objective if self.position < len(self.plan.legs) \
            else None
        return {"subtask": on,
                "succeeded": [r["subtask"] for r in self.results if r["success"]],
                "failed": [r["subtask"] for r in self.results if r["played"] and not r["success"]],
                "reset": self.reset_to is not None}
