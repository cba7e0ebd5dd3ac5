"""Objectives judged from the engine's own state, and the mission's end by the shared rules.

Each verifier kind is declared once in `VERIFIERS`: it reads the engine's snapshot
(counters such as KILLCOUNT or SECRETCOUNT, the tic, whether the map ended) and says
whether the objective is done, failed or open, with its partial credit. The mission's
end follows the shipped world's end rules (`world.objectives.outcome.decide`) and its
score the shipped formula: 1 for success, else PARTIAL_SHARE times the weighted
progress.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from world.doom.engine import TICS_PER_SECOND, Snapshot
from world.doom.mission import DoomLevel, DoomObjective
from world.objectives.outcome import END_RULES, Situation, decide
from world.objectives.score import PARTIAL_SHARE

TODO, DONE, FAILED = "todo", "done", "failed"
PICKUP_REACH = 64.0  # a pickup that vanishes this close to the player was taken by it


@dataclass
class Facts:
    """What verifiers read besides the snapshot: counts gathered over the episode."""

    start_tic: int  # the engine's clock when the player gets control
    timeout_tic: int
    monsters_at_start: int
    pickups: dict[str, int]  # kind (in the benchmark's words) -> pickups taken


@dataclass(frozen=True)
class Verifier:
    """One verifier kind: whether it is a standing condition, and its test.

    The test returns (status, progress 0..1).
    """

    name: str
    standing: bool
    test: Callable[[dict[str, Any], Snapshot, Facts], tuple[str, float]]


def _exit(args: dict[str, Any], snap: Snapshot, facts: Facts) -> tuple[str, float]:
    left = snap.finished and not snap.dead and snap.tic < facts.timeout_tic
    return (DONE, 1.0) if left else (TODO, 0.0)


def _survive(args: dict[str, Any], snap: Snapshot, facts: Facts) -> tuple[str, float]:
    need = float(args["seconds"]) * TICS_PER_SECOND
    lived = snap.tic - facts.start_tic
    if snap.dead:
        return FAILED, min(1.0, lived / need)
    return (DONE, 1.0) if lived >= need else (TODO, lived / need)


def _count(have: float, need: float) -> tuple[str, float]:
    return (DONE, 1.0) if have >= need else (TODO, max(0.0, have / need) if need else 1.0)


def _kills(args: dict[str, Any], snap: Snapshot, facts: Facts) -> tuple[str, float]:
    need = facts.monsters_at_start if args.get("all") else float(args["at_least"])
    return _count(snap.counters["KILLCOUNT"], max(need, 1))


def _secrets(args: dict[str, Any], snap: Snapshot, facts: Facts) -> tuple[str, float]:
    return _count(snap.counters["SECRETCOUNT"], float(args["at_least"]))


def _pickups(args: dict[str, Any], snap: Snapshot, facts: Facts) -> tuple[str, float]:
    return _count(facts.pickups.get(str(args["kind"]), 0), float(args["at_least"]))


def _health_floor(args: dict[str, Any], snap: Snapshot, facts: Facts) -> tuple[str, float]:
    held = snap.counters["HEALTH"] >= float(args["min"]) and not snap.dead
    return (TODO, 1.0) if held else (FAILED, 0.0)


VERIFIERS: MappingProxyType[str, Verifier] = MappingProxyType({v.name: v for v in (
    Verifier("level_exit", False, _exit),
    Verifier("survive", False, _survive),
    Verifier("kills", False, _kills),
    Verifier("secrets", False, _secrets),
    Verifier("pickups", False, _pickups),
    Verifier("health_floor", True, _health_floor),
)})


@dataclass
class Judged:
    """One objective's state in this episode."""

    objective: DoomObjective
    counts: bool
    status: str = TODO
    progress: float = 0.0
    tick: int | None = None


class Judge:
    """Judges a mission's objectives after every tic; a failure or success stays."""

    def __init__(self, level: DoomLevel, difficulty: str, facts: Facts) -> None:
        order = [d.id for d in level.difficulties]
        rank = order.index(difficulty)
        self.facts = facts
        self.items = [Judged(o, order.index(o.min_difficulty) <= rank) for o in level.objectives]
        for item in self.items:
            if item.objective.verifier.get("type") not in VERIFIERS:
                raise ValueError(f"objective {item.objective.id}: unknown verifier "
                                 f"{item.objective.verifier.get('type')!r}; "
                                 f"known: {', '.join(VERIFIERS)}")
        self.ending: str | None = None

    def update(self, snap: Snapshot, tick: int) -> None:
        """Judge every open objective on this snapshot; decide the end once."""
        if self.ending is not None:
            return
        for item in self.items:
            if item.status != TODO:
                continue
            status, progress = VERIFIERS[item.objective.verifier["type"]].test(
                item.objective.verifier, snap, self.facts)
            item.progress = progress
            if status != TODO:
                item.status, item.tick = status, tick
        counted = [i for i in self.items if i.counts]
        standing = {i.objective.id for i in counted
                    if VERIFIERS[i.objective.verifier["type"]].standing}
        satisfied = all(i.status == DONE or (i.objective.id in standing and i.status == TODO)
                        for i in counted)
        # The map ending by itself (its exit, its own timer) is a failure only with work open.
        rule = decide(Situation(
            player_down=snap.dead, countdown_expired=False,
            failed=tuple(i.objective.id for i in counted if i.status == FAILED),
            world_ended="the map ended" if snap.finished and not satisfied else None,
            entered_exit=False, in_exit=False, has_exit=False, all_satisfied=satisfied,
            achievable=any(i.objective.id not in standing for i in counted)))
        if rule is not None:
            self.ending = rule.reason
            if rule.outcome == "completed":
                for item in counted:
                    if item.objective.id in standing and item.status == TODO:
                        item.status, item.tick, item.progress = DONE, tick, 1.0

    @property
    def success(self) -> bool:
        """Whether the mission succeeded."""
        return self.ending == "completed"

    def score(self) -> float:
        """1 on success, else PARTIAL_SHARE times the weighted progress.

        As in the shipped world, a failed mission keeps the credit of what it achieved.
        """
        if self.success:
            return 1.0
        counted = [i for i in self.items if i.counts]
        total = sum(i.objective.weight for i in counted)
        if not total:
            return 0.0
        # A failed objective keeps what its verifier credits (a survive its time lived).
        got = sum(i.objective.weight * i.progress for i in counted)
        return round(PARTIAL_SHARE * got / total, 6)

    def progress(self) -> float:
        """The share of counted objectives done."""
        counted = [i for i in self.items if i.counts]
        return sum(i.status == DONE for i in counted) / len(counted) if counted else 0.0

    def stages(self) -> float:
        """The stages figure: the weighted share of counted work objectives done.

        Standing conditions are no stage (time alone holds them); 1 on success.
        """
        if self.success:
            return 1.0
        work = [i for i in self.items if i.counts
                and not VERIFIERS[i.objective.verifier["type"]].standing]
        total = sum(i.objective.weight for i in work)
        done = sum(i.objective.weight for i in work if i.status == DONE)
        return round(done / total, 6) if total else 0.0

    def failure(self) -> str | None:
        """In plain words, why the mission failed; None otherwise."""
        if self.ending is None or self.success:
            return None
        rule = next(r for r in END_RULES if r.reason == self.ending)
        failed = [n for n, i in enumerate(self.items, 1) if i.counts and i.status == FAILED]
        if failed and self.ending == "objective_failed":
            return f"objective {failed[0]} failed: {self.items[failed[0] - 1].objective.text}"
        return rule.plain

