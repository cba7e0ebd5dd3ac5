"""The stepwise track: a mission played as its chain of subtasks, each from a success state.

The chain is the level's work objectives (not standing conditions, not survive) that a
reference run (agents/reference_agent.py, same level, difficulty and seed) did, in the
order it did them; the level's `after` lists make it causal, else thematic. The
reference run is made on demand and cached, content-addressed by the level's hash, the
difficulty, the seed and the harness version; the snapshots its record keeps after each
objective are the success states. The agent plays the chain as one episode
(`harness.episode.chain`): each subtask has its own budget (`subtask.budget_rule` of what the
reference spent on it); a failed one resets the world to the reference's success state
of it, so the failure is localised and later subtasks are still played and counted.
A level and difficulty with no work objective, or whose reference run did none, has no
chain (`subtask.NO_CHAIN`): reported as such, outside every pass rate.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.core.keys import episode_key, key_text
from harness.core.level_refs import resolve
from harness.core.protocol import OUTCOMES
from harness.core.record import RecordError, read_record
from harness.core.seal import seal_problem
from harness.episode import runner
from harness.episode.live import _harness_version
from harness.episode.replay import replay
from harness.episode.runner import UsageError
from harness.episode.settings import RunSettings
from harness.episode.snapshot import read_snapshot
from harness.episode.subtask import NO_CHAIN, ChainPlan, Leg, budget_rule, chain_order
from world.face import VERIFIERS, Level, ticks_to_seconds

REFERENCE_AGENT = Path(__file__).resolve().parents[2] / "agents" / "reference_agent.py"
REFERENCE_COMMAND = f"{sys.executable} {REFERENCE_AGENT}"


def default_cache() -> Path:
    """Where reference runs are cached: $XDG_CACHE_HOME (or ~/.cache)/mission-harness/reference."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mission-harness" / "reference"


def reference_key(level: Level, difficulty: str, seed: int, key: int) -> str:
    """The cache key of a reference run: sha256 of level, difficulty, seed, key, version."""
    text = json.dumps([level.content_hash, difficulty, seed, key_text(key), _harness_version()])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def reference_run(level_ref: str, difficulty: str, seed: int, cache: Path,
                  settings: RunSettings, secret: bytes) -> Path:
    """The run directory of the reference run, made now unless a verified one is cached.

    It is played with the episode's secret, so its success states hold the episode's key.

    Raises:
        UsageError: The reference agent is not there (an installed wheel without the
            repository's agents/), or it cannot be started.
    """
    level = resolve(level_ref, secret).level
    home = cache / reference_key(level, difficulty, seed,
                                 episode_key(secret, level.content_hash, difficulty, seed))
    if home.is_dir():
        if _trusted(home):
            return home
        shutil.rmtree(home, ignore_errors=True)  # stale, broken or planted: made again
    if not REFERENCE_AGENT.is_file():
        raise UsageError(f"the stepwise track needs the reference agent at {REFERENCE_AGENT}, "
                         "which only a clone has: install it editable from the clone "
                         "(pip install -e '.[rl]'), not as a copy (pip install '.[rl]')")
    scratch = cache / ".making" / f"{home.name}-{os.getpid()}"
    shutil.rmtree(scratch, ignore_errors=True)
    summary = runner.run(level_ref, REFERENCE_COMMAND,
                         difficulty=difficulty, seed=seed, out_dir=scratch, settings=settings,
                         secret=secret)
    home.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(summary["run_dir"], home)  # whole or not at all
    except OSError:
        if not home.is_dir():  # another suite made it meanwhile: theirs is as good
            raise
    shutil.rmtree(scratch, ignore_errors=True)
    return home


def _trusted(home: Path) -> bool:
    # A cached reference is this harness's own run of the reference agent: sealed under
    # the harness key, the reference agent's command in its (sealed) header, and it
    # replays. A record that merely replays proves the world, not who played it.
    if seal_problem(home) is not None:
        return False
    try:
        return read_record(home).header.get("agent_command") == REFERENCE_COMMAND \
            and replay(home).verified
    except (RecordError, UsageError):
        return False


@dataclass(frozen=True)
class Step:
    """One subtask of a chain, with what the reference spent on it and its success state."""

    objective: int
    text: str
    reference_decisions: int
    reference_seconds: float
    success_state: Path

    def budget(self) -> tuple[int, float]:
        """Decisions and game seconds the agent gets for it."""
        return budget_rule(self.reference_decisions, self.reference_seconds)


@dataclass(frozen=True)
class Chain:
    """A level's subtasks in order, from its reference run."""

    steps: tuple[Step, ...]
    order: str
    reference_dir: Path
    reference_completed: bool


def chain_of(level: Level, reference_dir: Path) -> Chain:
    """The chain a reference run gives (see the module's docstring)."""
    record = read_record(reference_dir)
    end = record.end or {}
    summary = end.get("summary") or {}
    done = {o["index"] for o in summary.get("objectives", []) if o["status"] == "done"}
    work = done & set(work_objectives(level, record.header["difficulty"]))
    found: dict[int, tuple[int, int, Path]] = {}
    for kept in end.get("snapshots") or []:
        path = reference_dir / kept["file"]
        for index in read_snapshot(path).objectives_done:
            if index in work and index not in found:
                found[index] = (kept["turn"], kept["tick"], path)
    steps, turn, tick = [], 0, 0
    for index in sorted(found, key=lambda i: (found[i][0], i)):
        at_turn, at_tick, path = found[index]
        steps.append(Step(index, level.objectives[index - 1].text, at_turn - turn,
                          ticks_to_seconds(at_tick - tick), path))
        turn, tick = at_turn, at_tick
    ids = tuple(level.objectives[s.objective - 1].id for s in steps)
    return Chain(tuple(steps), chain_order(level, ids), reference_dir,
                 bool(summary.get("success")))


def work_objectives(level: Level, difficulty: str) -> tuple[int, ...]:
    """The objectives (numbers) a chain is made of: work ones that count at the difficulty.

    Work is what the player does; a standing condition or survive is a condition to keep.
    """
    rank = level.difficulty_rank(difficulty)
    return tuple(i for i, o in enumerate(level.objectives, 1)
                 if level.difficulty_rank(o.min_difficulty) <= rank and not _passive(o.kind))


def _passive(kind: str) -> bool:
    verifier = VERIFIERS[kind]
    return bool(verifier.standing or verifier.passive)


def chain_plan(chain: Chain) -> ChainPlan:
    """The plan a stepwise episode plays: the subtasks' budgets and success states."""
    legs = []
    for step in chain.steps:
        decisions, seconds = step.budget()
        legs.append(Leg(step.objective, decisions, seconds))
    return ChainPlan(chain.order, tuple(legs),
                     tuple(read_snapshot(s.success_state) for s in chain.steps))


def play_chain(level_ref: str, agent: str, difficulty: str, seed: int, out: Path,
               settings: RunSettings, cache: Path, secret: bytes,
               hidden: tuple[Path, ...] = ()) -> dict[str, Any]:
    """Play a level's chain with an agent (one stepwise episode); return its results.

    Returns:
        chain (objective numbers), order, reference (its run directory and whether it
        completed the mission), missing (the work objectives the reference did not do,
        so the chain lacks them: a partial chain), run_dir, outcome, subtasks (the
        summary's: each one's result, with its text, budget and the reference's cost
        beside it), first_failed (an objective number or None), passed (every subtask
        played and succeeded), harness_error (None, or what went wrong) and no_chain
        (None, or a `NO_CHAIN` key: then nothing was played and passed is None).
        The agent is never shown `cache` nor the `hidden` paths (the suite's secret).
    """
    level = resolve(level_ref, secret).level
    work = work_objectives(level, difficulty)
    if not work:  # no reference run needed to know that
        return no_chain("no_work_objective", None, [])
    chain = chain_of(level, reference_run(level_ref, difficulty, seed, cache, settings, secret))
    objectives = [s.objective for s in chain.steps]
    # A reference run that failed may leave work objectives out of the chain: a chain
    # without them is partial, and says which.
    reference = {"run_dir": str(chain.reference_dir), "completed": chain.reference_completed}
    missing = [i for i in work if i not in objectives]
    base = {"chain": objectives, "order": chain.order, "reference": reference,
            "missing": missing, "no_chain": None}
    if not chain.steps:
        return no_chain("reference_did_none", reference, missing)
    plan = chain_plan(chain)
    summary = runner.run(level_ref, agent, difficulty=difficulty, seed=seed, out_dir=out,
                         settings=settings, chain=plan, secret=secret, hidden=(cache, *hidden))
    block = summary.get("stepwise") or {"subtasks": [], "first_failed": None, "passed": False}
    subtasks = []
    for result, step, leg in zip(block["subtasks"], chain.steps, plan.legs, strict=False):
        subtasks.append({**result, "text": step.text,
                         "budget": {"decisions": leg.max_decisions,
                                    "game_seconds": leg.max_game_seconds},
                         "reference": {"decisions": step.reference_decisions,
                                       "game_seconds": round(step.reference_seconds, 2)}})
    by_harness = OUTCOMES[summary["outcome"]].by_harness
    return {**base, "run_dir": summary["run_dir"], "outcome": summary["outcome"],
            "subtasks": subtasks, "first_failed": block["first_failed"],
            "passed": bool(block["passed"]) and not by_harness,
            "harness_error": summary["reason"] if by_harness else None}


def no_chain(why: str, reference: dict[str, Any] | None, missing: list[int]
             ) -> dict[str, Any]:
    """The results of a level and difficulty with no chain to play (`why`: a NO_CHAIN key)."""
    return {"chain": [], "order": None, "reference": reference, "missing": missing,
            "no_chain": why,
            "reason": NO_CHAIN[why][1], "run_dir": None, "outcome": None, "subtasks": [],
            "first_failed": None, "passed": None, "harness_error": None}
