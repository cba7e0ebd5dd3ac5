"""The objectives system: judges the objectives each tick and ends the mission.

Install it with `install(world)`. It runs after the other systems (characters,
perception); the world runs systems before movement, doors, pickups and hazards, so a
change those cause on tick N is judged on tick N+1 and stamped with that tick. When the
world has ended itself (the player down, a countdown out), `report` judges the final
state once more, so nothing is lost when stepping stops. It reads only
the events recorded since its previous run, and skips a tick on which nothing its open
objectives watch has changed (no events of a kind they read, and per `triggers` no
movement or timer that matters), since the judgement would repeat the last one.

Ordering (`after`) is a causal chain: an objective is *ready* when every objective it
follows is done (those that do not count at the episode's difficulty, or do not exist,
do not hold it back), and it can become done only while ready. Things done out of
order are treated by their nature: a state (an item held, an object destroyed, a
character down, an area stood in, secrets found, frags) is re-checked every tick, so
the later objective completes on the first tick its condition holds and its
predecessors are done; a one-off act (a press of use, a gadget use, a waypoint
passed) counts only when done while ready, so it has to be repeated. Failures apply
whatever the order. Objectives are judged in chain order, so a chain can complete in
a single tick.
"""

from __future__ import annotations

from dataclasses import dataclass

from world.errors import InvalidRequestError
from world.level.model import Level, Objective
from world.objectives.base import DONE, FAILED, TODO, WorldView
from world.objectives.goal import GoalTracker, choose_goal
from world.objectives.outcome import (
    COMPLETED,
    EndRule,
    ObjectiveState,
    Situation,
    decide,
)
from world.objectives.registry import make_verifier
from world.objectives.route import Sight, seen_by
from world.objectives.score import (
    EXIT_GOAL,
    MissionReport,
    objective_progress,
    objective_reports,
    score,
    work_items,
)
from world.objectives.stages import StageMeter
from world.objectives.triggers import CLOCK, EVENTS, reads, wakes
from world.sim.world import JUDGE_ORDER

SYSTEM_NAME = "objectives"
# Late in the tick: after movement, characters, perception and hazards.
SYSTEM_ORDER = JUDGE_ORDER  # judged after the tick's movement, doors, pickups and hazards


def chain_order(objectives: tuple[Objective, ...]) -> list[Objective]:
    """Objectives with every one after those it follows, otherwise in level order.

    Args:
        objectives: The level's objectives.

    Returns:
        A stable topological order; members of a cycle (which the level checker
        reports) come last in level order and never become ready.
    """
    placed: list[Objective] = []
    done: set[str] = set()
    known = {o.id for o in objectives}
    waiting = list(objectives)
    while True:
        ready = [o for o in waiting if all(a in done or a not in known for a in o.after)]
        if not ready:
            break
        first = ready[0]
        placed.append(first)
        done.add(first.id)
        waiting.remove(first)
    return placed + waiting


@dataclass
class _End:
    rule: EndRule | None
    tick: int
    detail: str | None


def revealed(world: WorldView, objective: Objective) -> bool:
    """Whether the player has read the note that reveals this objective (if any).

    An objective revealed by a note is neither shown nor ready before (issue 37): what was
    done before it was known counts only if it still holds once it is read.
    """
    note = objective.revealed_by
    return note is None or world.objects[note].read_tick is not None


class ObjectivesSystem:
    """Judges objectives, ends the mission and builds the mission report."""

    def __init__(self, world: WorldView) -> None:
        """Build a verifier per objective from the world at its start.

        Args:
            world: The world, before its first tick or at it.
        """
        level: Level = world.level
        rank = level.difficulty_rank(world.difficulty.id)
        self.level_order = [o.id for o in level.objectives]
        self.states: dict[str, ObjectiveState] = {}
        for o in chain_order(level.objectives):
            counts = level.difficulty_rank(o.min_difficulty) <= rank
            self.states[o.id] = ObjectiveState(o, make_verifier(o, world), counts)
        # A predecessor that does not count here holds nothing back.
        self._blockers = {
            o.id: tuple(a for a in o.after if a in self.states and self.states[a].counts)
            for o in level.objectives
        }
        self._starters: dict[str, list[str]] = {}
        for c in level.countdowns:
            if c.starts_after is not None:
                self._starters.setdefault(c.starts_after, []).append(c.id)
        self._seen = 0
        # Objectives a note reveals, not yet revealed (each says so once, when read).
        self._unrevealed = {o.id for o in level.objectives if o.revealed_by is not None}
        self._area = world.player.area
        self._countdown_expired = False
        self._goal = GoalTracker()
        # Kept out of the state hash: it follows from the ticks judged, and changes nothing.
        self._stages = StageMeter()
        # (`work_items` of the states in level order, without and with the exit: `_report`.)
        self._work: tuple[list[ObjectiveState], list[ObjectiveState]] | None = None
        self.end: _End | None = None
        # What can change a verdict on a tick with no events (see `triggers`), and
        # where the player was when last judged; None until the first judgement.
        self._wakes = CLOCK
        self._reads: frozenset[str] | None = None
        self._judged_at: tuple | None = None

    # ---- per tick -----------------------------------------------------------------
    def update(self, world: WorldView) -> None:
        """Judge one tick: objectives in chain order, then the end rules."""
        if self.end is not None:
            return
        events = world.events.since(self._seen)
        self._seen = len(world.events)
        player = world.player
        # Instant moves (set-ups, tests) change areas without an event.
        moves = world.teleports
        here = (player.area, moves, player.x, player.z, player.storey)
        last = self._judged_at
        kinds = self._reads
        quiet = not events or (kinds is not None and all(e.kind not in kinds for e in events))
        if quiet and self._wakes != CLOCK and last is not None and (
            here == last or (self._wakes == EVENTS and here[:2] == last[:2])
        ):
            return  # nothing any open objective watches has changed since the last judgement
        self._judged_at = here
        self._countdown_expired |= any(e.kind == "countdown_expired" for e in events)
        ready: dict[str, bool] = {}
        for oid, state in self.states.items():
            known = revealed(world, state.objective)
            if known and oid in self._unrevealed:
                self._unrevealed.discard(oid)
                world.emit("objective_revealed", oid, state.objective.revealed_by)
            ready[oid] = self._ready(oid) and known
            if state.status != TODO:
                continue
            verdict = state.verifier.observe(world, events, ready[oid])
            if verdict == DONE and not ready[oid]:
                verdict = None
            if verdict is not None:
                self._change(world, state, verdict)
        self._goal.update(choose_goal(list(self.states.values()), ready, world), world)
        self._stages.update(world, list(self.states.values()), ready)
        self._judge_end(world)
        self._wakes = wakes(self.states.values())
        self._reads = reads(self.states.values())

    def state_items(self) -> tuple:
        """Statuses and the end, for the world's state hash."""
        # The end's third place held a truncation reason, None in every episode: kept so
        # the hashes of records made before still replay.
        end = None if self.end is None else (
            self.end.rule.reason if self.end.rule else None, self.end.tick, None)
        return (tuple((oid, s.status, s.tick) for oid, s in self.states.items()), end)

    def _ready(self, oid: str) -> bool:
        # Readiness by the chain; an objective a note reveals waits on the note too.
        return all(self.states[a].status == DONE for a in self._blockers[oid])

    def _change(self, world: WorldView, state: ObjectiveState, status: str) -> None:
        state.status, state.tick = status, world.tick
        world.emit("objective_changed", state.objective.id, detail=status)
        if status == DONE:
            for countdown in self._starters.get(state.objective.id, ()):
                world.start_countdown(countdown)

    def _judge_end(self, world: WorldView) -> None:
        level = world.level
        area = world.player.area
        exit_area = level.exit_area.area if level.exit_area else None
        entered = exit_area is not None and area == exit_area and self._area != exit_area
        self._area = area
        counted = [s for s in self.states.values() if s.counts]
        failed = tuple(s.objective.id for s in counted if s.status == FAILED)
        situation = Situation(
            player_down=not world.player.alive,
            countdown_expired=self._countdown_expired,
            failed=failed,
            world_ended=world.ended,
            entered_exit=entered,
            in_exit=exit_area is not None and area == exit_area,
            has_exit=exit_area is not None,
            all_satisfied=all(s.satisfied for s in counted),
            achievable=exit_area is not None or any(not s.standing for s in counted),
        )
        rule = decide(situation)
        if rule is None:
            return
        detail = {"objective_failed": ",".join(failed), "world_ended": world.ended}
        if rule.reason == COMPLETED:
            for s in counted:
                if s.status == TODO:
                    self._change(world, s, DONE)
        self.end = _End(rule, world.tick, detail.get(rule.reason))
        world.emit("mission_ended", SYSTEM_NAME, detail=rule.reason)
        world.end(rule.reason)

    def _catch_up(self, world: WorldView) -> None:
        if self.end is None and (world.ended is not None or not world.player.alive):
            self.update(world)

    def report(self, world: WorldView, sight: Sight | None = None) -> MissionReport:
        """The mission report now (cheap except for route lengths, measured on demand).

        Args:
            world: The world.
            sight: For a report the player may see during the episode: route progress
                then counts only toward places it has located (`world.objectives.route`).
                None: the judge's figures (the summary, the record).

        Returns:
            The frozen report.
        """
        self._catch_up(world)
        with seen_by(sight):
            return self._report(world)

    def _report(self, world: WorldView) -> MissionReport:
        states = [self.states[oid] for oid in self.level_order]
        has_exit = world.level.exit_area is not None
        # Which objectives are work follows from the objectives alone (which count,
        # which are passive), so the lists are made once.
        if self._work is None:
            self._work = (work_items(states), work_items(states, has_exit))
        plain_work, work = self._work
        progress = objective_progress(states, world, plain_work)
        end = self.end
        rule = end.rule if end else None
        success = rule is not None and rule.reason == COMPLETED
        exit_progress = None
        if has_exit:
            exit_progress = self._goal.progress(world) if self._goal.name == EXIT_GOAL else 0.0
        return MissionReport(
            success=success,
            outcome=rule.outcome if rule else None,
            reason=rule.reason if rule else None,
            detail=end.detail if end else None,
            ended_tick=end.tick if end else None,
            score=score(states, progress, success, exit_progress, work),
            progress=1.0 if success else self._goal.progress(world),
            goal=self._goal.name,
            objectives=objective_reports(states, progress),
            stages=self._stages.figure(world, states, success, work),
        )


def install(world: WorldView) -> ObjectivesSystem:
    """Create the objectives system for a world and register it to run every tick.

    Args:
        world: A freshly built world.

    Returns:
        The system; keep it to call `report`.
    """
    system = ObjectivesSystem(world)
    world.add_system(SYSTEM_NAME, system, SYSTEM_ORDER, system.state_items)
    world.judge = system
    return system


def installed(world: WorldView) -> ObjectivesSystem:
    """The objectives system registered on a world.

    Args:
        world: A world `install` was called on.

    Returns:
        Its objectives system.

    Raises:
        InvalidRequestError: if none is registered.
    """
    if isinstance(world.judge, ObjectivesSystem):
        return world.judge
    raise InvalidRequestError("no objectives system on this world; call install(world) first")


def report(world: WorldView) -> MissionReport:
    """The mission report of a world whose objectives system was installed.

    Args:
        world: The world.

    Returns:
        The frozen report (see `ObjectivesSystem.report`).

    Raises:
        InvalidRequestError: if no objectives system is registered.
    """
    return installed(world).report(world)
