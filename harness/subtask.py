"""An episode's limits, and the subtask a stepwise episode plays.

A plain episode has the level's budgets: the track's decisions, and the level's game
seconds on the world's clock (an episode started from a snapshot keeps that clock, so
its time left is what the moment had left). A stepwise episode plays one subtask of a
chain (one objective) from a moment of its episode, with budgets of its own counted
from that moment, and ends as soon as its objective is done. The start message carries
the subtask (`start.stepwise`), so replay applies the same limits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from harness.game import GameStatus
from harness.outcome import Ending
from harness.tracks import TrackSpec
from world.face import Level, seconds_to_ticks, ticks_to_seconds

# The orders a chain can have: the level's `after` lists order every subtask after the
# one before it (causal), or some may be done in any order (thematic).
CHAIN_ORDERS = {
    "causal": "the level orders each subtask after the one before it",
    "thematic": "some subtasks may be done in any order; the chain follows the reference run",
}


@dataclass(frozen=True)
class Subtask:
    """The subtask of a stepwise episode.

    Attributes:
        objective: Its objective number (1-based, as the observation numbers them).
        chain: Every subtask of the chain, in order (objective numbers).
        done: Subtasks already done at the episode's first moment.
        order: A key of `CHAIN_ORDERS`.
        max_decisions: Decisions this episode may take.
        max_game_seconds: Game seconds this episode may take, from its first moment.
    """

    objective: int
    chain: tuple[int, ...]
    done: tuple[int, ...]
    order: str
    max_decisions: int
    max_game_seconds: float

    def start_block(self) -> dict[str, Any]:
        """The start message's `stepwise` object."""
        return {"subtask": self.objective, "chain": list(self.chain), "done": list(self.done),
                "order": self.order, "max_decisions": self.max_decisions,
                "max_game_seconds": self.max_game_seconds}

    @classmethod
    def from_start(cls, start: dict[str, Any]) -> Subtask | None:
        """The subtask a start message names; None for an episode that is not stepwise."""
        block = start.get("stepwise")
        if not isinstance(block, dict):
            return None
        return cls(int(block["subtask"]), tuple(block["chain"]), tuple(block["done"]),
                   str(block["order"]), int(block["max_decisions"]),
                   float(block["max_game_seconds"]))

    def is_done(self, status: GameStatus) -> bool:
        """Whether its objective is done."""
        return any(o["index"] == self.objective and o["status"] == "done"
                   for o in status.objectives)


@dataclass(frozen=True)
class Limits:
    """An episode's budgets: decisions it may take, and game time on the world's clock.

    Attributes:
        max_decisions: Decisions the episode may take.
        max_game_seconds: The world time (seconds since tick 0) it must stop at.
    """

    max_decisions: int
    max_game_seconds: float

    @property
    def max_ticks(self) -> int:
        """The world tick the episode must stop at."""
        return seconds_to_ticks(self.max_game_seconds)

    def seconds_left(self, tick: int) -> float:
        """Game seconds left at a tick."""
        return max(0.0, self.max_game_seconds - ticks_to_seconds(tick))


def episode_limits(level: Level, track: TrackSpec, first_tick: int,
                   subtask: Subtask | None) -> Limits:
    """The limits of an episode whose first moment is at `first_tick`."""
    if subtask is None:
        return Limits(track.max_decisions(level), level.budgets.max_game_seconds)
    return Limits(subtask.max_decisions,
                  ticks_to_seconds(first_tick + seconds_to_ticks(subtask.max_game_seconds)))


def subtask_ending(subtask: Subtask | None, status: GameStatus) -> Ending | None:
    """The end of a stepwise episode whose objective is done, else None."""
    if subtask is None or not subtask.is_done(status):
        return None
    return Ending("subtask_done", f"subtask {subtask.objective} is done")


def chain_order(level: Level, chain: tuple[str, ...]) -> str:
    """`causal` when the level orders each objective of the chain after the one before."""
    after = {o.id: set(o.after) for o in level.objectives}

    def waits_on(later: str, earlier: str, seen: frozenset[str] = frozenset()) -> bool:
        return earlier in after[later] or any(
            waits_on(mid, earlier, seen | {later}) for mid in after[later] if mid not in seen)

    causal = all(waits_on(b, a) for a, b in pairwise(chain))
    return "causal" if causal else "thematic"


def budget_rule(decisions: int, seconds: float) -> tuple[int, float]:
    """A subtask's budget from the reference run's cost of it: twice that, plus a floor."""
    return 2 * decisions + 5, float(math.ceil(2 * seconds + 20))
