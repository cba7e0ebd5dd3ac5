"""How a mission ends: its outcomes, the end rules and their precedence.

The rule, judged once per tick by the objectives system (and once more when the world
has ended itself):

1. Failure, in this order of precedence (the first that holds names the reason):
   `player_dead` (the player is down), `countdown_expired` (a level countdown ran
   out), `objective_failed` (a counted objective failed this tick or earlier),
   `world_ended` (the world ended itself for any other reason),
   `exit_with_objectives_open` (the player stepped into the exit area from another
   area while a counted objective was still open).
2. Success, `completed`: every counted objective is done (standing conditions such
   as protect, stay unseen and no alarm count when still held) and, where the level
   has an exit area, the player is inside it. A level with no exit area and only
   standing objectives has nothing to achieve, so it never succeeds by itself.
3. Failure before success: when a failure and a success both hold on one tick, the
   mission fails, as the GTAGym evaluator lets task failures take precedence.
4. Budgets (decisions, game time) and agents that stop answering are the harness's
   business: a mission it cuts short has no outcome here.

Objectives that do not count at the episode's difficulty never end the mission.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from world.level.model import Objective
from world.objectives.base import DONE, TODO, Verifier

COMPLETED: Final = "completed"
FAILED_OUTCOME: Final = "failed"

# Outcome -> what it means. The protocol's outcomes of a mission that ended in the world
# are these (harness/core/protocol.py adds the ways an episode ends outside it).
OUTCOMES: dict[str, str] = {
    COMPLETED: "The mission succeeded: every counted objective done and, where the level "
               "has one, the exit reached.",
    FAILED_OUTCOME: "The mission failed (the player down, a countdown out, a counted "
                    "objective failed, the exit entered too early); the summary says which.",
}


@dataclass
class ObjectiveState:
    """The judged state of one objective in one episode (owned by the system).

    Attributes:
        objective: The level's record.
        verifier: Its judge.
        counts: Whether it counts at the episode's difficulty.
        status: TODO, DONE or FAILED.
        tick: The tick of the last status change (None while never changed).
    """

    objective: Objective
    verifier: Verifier
    counts: bool
    status: str = TODO
    tick: int | None = None

    @property
    def standing(self) -> bool:
        """Whether this is a condition held until broken."""
        return self.verifier.standing

    @property
    def passive(self) -> bool:
        """Whether time alone can hold or fulfil it (standing conditions, survive)."""
        return self.verifier.standing or self.verifier.passive

    @property
    def satisfied(self) -> bool:
        """Done, or a standing condition still held."""
        return self.status == DONE or (self.standing and self.status == TODO)


@dataclass(frozen=True)
class Situation:
    """The facts one tick's end judgement needs, gathered by the system.

    Attributes:
        player_down: The player is down.
        countdown_expired: A countdown ran out (this tick or before).
        failed: Ids of counted objectives that have failed.
        world_ended: Why the world ended itself, if it did (None otherwise).
        entered_exit: The player stepped into the exit area this tick.
        in_exit: The player is in the exit area.
        has_exit: The level has an exit area.
        all_satisfied: Every counted objective is satisfied.
        achievable: There is something to achieve (an exit or an objective that is
            not a standing condition).
    """

    player_down: bool
    countdown_expired: bool
    failed: tuple[str, ...]
    world_ended: str | None
    entered_exit: bool
    in_exit: bool
    has_exit: bool
    all_satisfied: bool
    achievable: bool


@dataclass(frozen=True)
class EndRule:
    """One way a mission ends: its reason name, outcome, wording, test and plain words.

    `summary` says what the rule means; `plain` is how a page tells a person the run
    ended this way ("the player died").
    """

    reason: str
    outcome: str
    summary: str
    holds: Callable[[Situation], bool]
    plain: str


# The precedence is the order of this table: failures first, then success.
END_RULES: tuple[EndRule, ...] = (
    EndRule("player_dead", FAILED_OUTCOME, "the player went down",
            lambda s: s.player_down, "the player died"),
    EndRule("countdown_expired", FAILED_OUTCOME, "a level countdown ran out",
            lambda s: s.countdown_expired, "time ran out on the level's countdown"),
    EndRule("objective_failed", FAILED_OUTCOME, "a counted objective failed",
            lambda s: bool(s.failed), "an objective failed"),
    EndRule("world_ended", FAILED_OUTCOME, "the world ended the level for another reason",
            lambda s: s.world_ended is not None, "the level ended the mission"),
    EndRule("exit_with_objectives_open", FAILED_OUTCOME,
            "the player entered the exit area with counted objectives still open",
            lambda s: s.entered_exit and not s.all_satisfied,
            "the player left by the exit with work still undone"),
    EndRule(COMPLETED, COMPLETED, "every counted objective done (and the exit reached)",
            lambda s: s.achievable and s.all_satisfied and (s.in_exit or not s.has_exit),
            "the mission was accomplished"),
)


def decide(situation: Situation) -> EndRule | None:
    """The end rule that applies on this tick, by precedence, or None to play on.

    Args:
        situation: The facts of the tick.

    Returns:
        The first rule of `END_RULES` that holds, or None.
    """
    return next((rule for rule in END_RULES if rule.holds(situation)), None)


__all__ = [
    "COMPLETED",
    "END_RULES",
    "FAILED_OUTCOME",
    "OUTCOMES",
    "EndRule",
    "ObjectiveState",
    "Situation",
    "decide",
]
