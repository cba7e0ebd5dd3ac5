"""The mission report: outcome, score with partial credit, and the RL progress figure.

Score, in 0..1, from the objectives that count at the episode's difficulty, in the
spirit of the GTAGym reward ``R = S + PARTIAL_SHARE * (1 - S) * P``:

- `S` is success: 1 when the mission completed, else 0. A completed mission scores 1.
- `P` is partial progress, 0..1, so a mission that did not complete (failed, cut
  short by the harness or still running) scores at most `PARTIAL_SHARE` (0.3): failing can never
  score like succeeding, and one success outweighs three failures that came close.
- Work items are the counted objectives that are not passive, each with its level
  weight `w_i` and progress `p_i` (1 when done, 0 when failed, and while open its
  kind's partial credit: route progress, frags over the target, points passed, harm
  dealt, ...), plus the exit where the level has an exit area (weight: the mean counted
  weight; progress 0 until every counted objective is satisfied, then the route
  progress toward the exit from where the player stood at that moment). `A` is their
  weighted mean.
- Passive objectives are those time alone can hold or fulfil: standing conditions
  (protect, stay unseen, no alarm, a follow without destination) and survive. Each
  brings its weight and ``min(own, A)``, where `own` is 1 while a condition is held
  and 0 once broken, or the share of the time survived. Held conditions thus neither
  add nor take away (P = A); a broken one pulls P down; none earns anything alone.
  When a level has no work item at the difficulty (only survive), surviving is the
  whole task and its time counts as work.
- ``P = sum(w_i * q_i) / sum(w_i)`` over work and passive items, `q_i` the progress
  above.

Return fire (the player shoots back at attackers during an action that fights or asks
for it, `wait` with `return_fire` included) earns no frags: the frags kind ignores a
kill whose killing shot was automatic.
Harm it deals still counts toward neutralise progress, which is capped like any partial
credit; no shipped level asks to put down a character that comes to attack a player who
only waits (hold_centre's brute is a threat, not an objective).

A failed mission keeps the credit of what it achieved before failing: the failure is
reported beside the score (`success`, `outcome`, `reason`), and charging it again in
the score would make an agent that dies after doing three of four objectives rank
below one that did nothing and ran out of time.

`progress` is a separate figure for reward shaping, as in the GTAGym reward: the
fraction of the walkable distance to the current goal that the player has closed,
``clip(1 - d_now / d_start, 0, 1)``. The current goal is the first open counted
objective (in chain order, with its predecessors done) that has a fixed place, or the
exit area once every counted objective is satisfied; `d_start` is measured from where
the player stood when that goal became current. A completed mission has progress 1;
with no goal it is 0.

`stages` (`world.objectives.stages`) is a third figure, beside the score and never in
it: how far through the mission's stages the player came, counting only what was reached
and done (objectives done, the furthest room reached toward each open one's place, its
discrete steps such as targets down). It ranks the episodes that did not complete, which
`P` does not: `P` pays route progress from the final position and harm dealt, so an
agent that wanders until the time runs out ties or beats one that went for the targets
and fell on the way. `P` is kept as it is so that published scores keep their meaning.

A report built for the player during the episode (`ObjectivesSystem.report` with a
sight) counts every route, in the score's partial credit and in `progress`, only
toward places the player has located (`world.objectives.route`); the judge's report,
the summary's, counts them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from world.objectives.base import DONE, FAILED, TODO, WorldView, clamp01
from world.objectives.outcome import ObjectiveState

# The most a mission that did not complete can score: GTAGym's share of partial progress.
PARTIAL_SHARE = 0.3
EXIT_GOAL = "exit"


@dataclass(frozen=True)
class ObjectiveReport:
    """One objective as reported to the agent, the record and the run page.

    Attributes:
        id: The objective's id.
        kind: Its kind.
        text: The level's one-line paraphrase.
        status: todo, done or failed.
        tick: The tick its status last changed, or None.
        counts: Whether it counts at the episode's difficulty.
        min_difficulty: The lowest difficulty at which it counts (None: every one).
        weight: Its share of the score.
        progress: 0..1 (1 when done, 0 when failed).
        after: The objectives it follows.
        standing: Whether it is a condition held until broken.
    """

    id: str
    kind: str
    text: str
    status: str
    tick: int | None
    counts: bool
    min_difficulty: str | None
    weight: float
    progress: float
    after: tuple[str, ...]
    standing: bool


@dataclass(frozen=True)
class MissionReport:
    """The whole judgement of an episode at one moment.

    Attributes:
        success: Whether the mission completed.
        outcome: "completed", "failed", or None while running.
        reason: The end rule that ended it (None while running).
        detail: More about the reason: the failed objective ids, or the world's reason.
        ended_tick: The tick at which the episode ended, or None while running.
        score: 0..1, see the module documentation.
        progress: 0..1 toward the current goal, for reward shaping.
        goal: What `progress` measures: an objective id, "exit", or None.
        stages: 0..1, how far through the mission's stages the player came
            (`world.objectives.stages`); ranks episodes that did not complete.
        objectives: Every objective, counted or not, in level order.
    """

    success: bool
    outcome: str | None
    reason: str | None
    detail: str | None
    ended_tick: int | None
    score: float
    progress: float
    goal: str | None
    objectives: tuple[ObjectiveReport, ...]
    stages: float = 0.0

    @property
    def failure_reason(self) -> str | None:
        """The reason when the mission failed, else None."""
        return self.reason if self.outcome == "failed" else None

    def as_dict(self) -> dict:
        """The report as plain data (lists for tuples), for records and summaries."""
        return asdict(self)


def work_items(states: Sequence[ObjectiveState], has_exit: bool = False) -> list[ObjectiveState]:
    """The counted objectives that are work; survive too when nothing else is (and no exit).

    Args:
        states: Every objective's state.
        has_exit: Whether the level has an exit area (then survive is never work).

    Returns:
        The work items, in the order given.
    """
    counted = [s for s in states if s.counts]
    work = [s for s in counted if not s.passive]
    return work if work or has_exit else [s for s in counted if not s.standing]


def mean_counted_weight(counted: Sequence[ObjectiveState]) -> float:
    """The exit's weight: the mean weight of the counted objectives (1 with none)."""
    return sum(s.objective.weight for s in counted) / len(counted) if counted else 1.0


def _mean(items: Sequence[tuple[float, float]]) -> float:
    total = sum(w for w, _ in items)
    return sum(w * p for w, p in items) / total if total > 0 else 0.0


def objective_progress(states: Sequence[ObjectiveState], world: WorldView,
                       work: Sequence[ObjectiveState] | None = None) -> dict[str, float]:
    """Each objective's progress: done 1, failed 0, open from its verifier.

    Args:
        states: Every objective's state.
        world: The world now.
        work: `work_items(states)`, when the caller has it (it changes only with the
            objectives themselves: which count, which are passive).

    Returns:
        Objective id -> progress in 0..1.
    """
    progress: dict[str, float] = {}
    for s in states:
        if s.status == DONE:
            progress[s.objective.id] = 1.0
        elif s.status == FAILED:
            progress[s.objective.id] = 0.0
        elif not s.standing:
            progress[s.objective.id] = clamp01(s.verifier.progress(world))
    if work is None:
        work = work_items(states)
    held = _mean([(s.objective.weight, progress[s.objective.id]) for s in work])
    for s in states:
        progress.setdefault(s.objective.id, held)
    return progress


def score(
    states: Sequence[ObjectiveState],
    progress: dict[str, float],
    success: bool,
    exit_progress: float | None,
    work: Sequence[ObjectiveState] | None = None,
) -> float:
    """The episode's score, as the module documentation defines it.

    Args:
        states: Every objective's state.
        progress: Objective id -> progress (from `objective_progress`).
        success: Whether the mission completed.
        exit_progress: Progress toward the exit area, or None when the level has none.
        work: `work_items(states, exit_progress is not None)`, when the caller has it.

    Returns:
        The score in 0..1.
    """
    if success:
        return 1.0
    if work is None:
        work = work_items(states, exit_progress is not None)
    items = [(s.objective.weight, progress[s.objective.id]) for s in work]
    counted = [s for s in states if s.counts]
    if exit_progress is not None:
        items.append((mean_counted_weight(counted), exit_progress))
    achieved = _mean(items)
    work_ids = {s.objective.id for s in work}
    for s in counted:
        if s.objective.id not in work_ids:
            own = 1.0 if s.standing and s.status == TODO else progress[s.objective.id]
            items.append((s.objective.weight, min(own, achieved)))
    return PARTIAL_SHARE * clamp01(_mean(items))


def objective_reports(
    states: Sequence[ObjectiveState], progress: dict[str, float]
) -> tuple[ObjectiveReport, ...]:
    """Per-objective reports in the given order.

    Args:
        states: Every objective's state, in level order.
        progress: Objective id -> progress.

    Returns:
        One report per objective.
    """
    return tuple(
        ObjectiveReport(
            id=s.objective.id,
            kind=s.objective.kind,
            text=s.objective.text,
            status=s.status,
            tick=s.tick,
            counts=s.counts,
            min_difficulty=s.objective.min_difficulty,
            weight=s.objective.weight,
            progress=progress[s.objective.id],
            after=s.objective.after,
            standing=s.standing,
        )
        for s in states
    )
