"""A PettingZoo `ParallelEnv` over matches: each policy seat one agent, Macro-v0's spaces.

Each agent is a player (`p1`, `p2`, ...) not given to an agent process. Its observation
is Macro-v0's (harness.rl.macro_obs) built from its own player's latest view, plus an
`action_mask` key (PettingZoo's convention; `infos[agent]["action_mask"]` holds the same
array); its action is an index into Macro-v0's choices (harness.rl.macro_actions).

Turns are event-driven (world.match.session): only the player whose action ended
decides while game time stands still. In the parallel API every live agent is in every
step's dictionaries, but only the deciding agent's action is played: its mask is its
player's real mask and `infos[agent]["deciding"]` is true; every other agent's mask allows
only `NOOP` (the shortest `wait`), its action is ignored (it may be left out) and its
observation stays the view of the moment its own last action ended. An agent stays
live until the match is over, so a downed or retired player's team result still
reaches it as its last reward.

Seats named in `processes` are agent processes started and asked exactly as `harness
match` does (harness.match.runner), so a match may mix both kinds. With `record_dir`,
every match writes `match.jsonl.gz` in a folder of its own there, which `harness
replay` verifies.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from harness.core.keys import episode_key, new_secret
from harness.core.level_refs import resolve
from harness.core.protocol import PROTOCOL_VERSION
from harness.core.record import RecordWriter
from harness.core.tracks import TrackSpec
from harness.episode.live import EpisodeSpec
from harness.episode.settings import RunSettings
from harness.episode.subtask import episode_limits
from harness.episode.turns import start_message
from harness.match.cli import match_level_ref
from harness.match.runner import (
    MATCH_RECORD,
    MatchSpec,
    _Seat,
    decide,
    finish,
    greet,
    match_block,
    observation_for,
    open_record,
    start_seat,
)
from harness.pz.channel import POLICY_HELLO, NullRecord, PolicyChannel
from harness.rl import macro_actions, macro_obs
from harness.rl.macro_env import Frozen
from world.face import TICKS_PER_SECOND, MatchSession, player_ids

# Seeds drawn when reset() is given none stay in the range `harness match --seed` takes.
SEED_RANGE = 2**31
# The command a policy seat stands for in the record's header.
POLICY_COMMAND = "(a policy in the PettingZoo loop)"
CHOICES = macro_actions.choices()
# The action every non-deciding agent's mask allows (it is ignored all the same).
# A step's (observations, rewards, terminations, truncations, infos), per agent.
Outputs = tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
                dict[str, Any]]
NOOP = next(i for i, c in enumerate(CHOICES) if c.action == "wait")


class MatchParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """One match per episode; see the module docstring and docs/rl.md ("PettingZoo")."""

    render_mode = None  # nothing to draw yet; PettingZoo's wrappers ask
    metadata = {"name": "mission_harness_match_v0", "render_modes": [],  # noqa: RUF012
                "is_parallelizable": True}

    def __init__(self, level: str = "duel_yard", difficulty: str | None = None,
                 teams: tuple[str, ...] | list[str] | None = None,
                 processes: Mapping[str, str] | None = None,
                 record_dir: str | Path | None = None, secret: bytes | None = None,
                 settings: RunSettings | None = None) -> None:
        """A match environment.

        Args:
            level: A match level id (e.g. duel_yard) or a level file with a match block.
            difficulty: One of its difficulty ids (default: its first).
            teams: Each player's team in player order (None: free-for-all).
            processes: Player id -> agent command line, for the seats played by agent
                processes (as `harness match --agent`); the others are this env's agents.
            record_dir: Folder receiving one match folder (with its record) per reset;
                None: no record (agent processes then log to a temporary folder).
            secret: The secret match keys are drawn from (None: a fresh one); with one,
                the seeds of resets given none are drawn reproducibly from it too.
            settings: Deadlines and limits for agent processes (default RunSettings()).

        Raises:
            ValueError: naming the argument, for an unknown level, a level without a
                match block, a bad difficulty, team list or process seat.
        """
        try:
            resolved = resolve(match_level_ref(level))
        except Exception as exc:  # UsageError and the loaders' errors, said in one line
            raise ValueError(f"level: {exc}") from None
        self.level, self.level_source = resolved.level, str(resolved.source)
        if self.level.match is None:
            raise ValueError(f"level: {self.level.id!r} has no match block (it is single-player)")
        ids = player_ids(self.level)
        allowed = [d.id for d in self.level.difficulties]
        self.difficulty = difficulty or allowed[0]
        if self.difficulty not in allowed:
            raise ValueError(f"difficulty: {self.difficulty!r} is not one of {', '.join(allowed)}")
        if teams is not None and len(teams) != len(ids):
            raise ValueError(f"teams: level {self.level.id!r} is played by {len(ids)} players; "
                             f"{len(teams)} teams were given")
        self.teams = None if teams is None else tuple(teams)
        self.processes = dict(processes or {})
        unknown = sorted(set(self.processes) - set(ids))
        if unknown:
            raise ValueError(f"processes: {unknown} are not players of {self.level.id!r} "
                             f"({', '.join(ids)})")
        self.possible_agents = [p for p in ids if p not in self.processes]
        if not self.possible_agents:
            raise ValueError("processes: every seat is an agent process; play that with "
                             "`harness match`")
        self.agents: list[str] = []
        self.record_dir = None if record_dir is None else Path(record_dir)
        self.secret = new_secret() if secret is None else bytes(secret)
        self.settings = settings or RunSettings()
        self.limits = episode_limits(self.level, TrackSpec())
        self.session: MatchSession | None = None
        self.seats: dict[str, _Seat] = {}
        self.record: RecordWriter = NullRecord()
        self.summary: dict[str, Any] | None = None
        self.run_dir: Path | None = None
        self._scratch: Path | None = None
        # Seeds of resets given none: drawn from the secret when one was given, so a run
        # with the same secret draws the same matches; else fresh.
        self._rng = np.random.default_rng(
            None if secret is None else int.from_bytes(self.secret[:8], "big"))
        self._matches = 0

    @cached_property
    def _action_space(self) -> spaces.Discrete:
        return spaces.Discrete(len(CHOICES))

    @cached_property
    def _observation_space(self) -> spaces.Dict:
        inner = macro_obs.observation_space().spaces
        return spaces.Dict({**inner, "action_mask": spaces.MultiBinary(len(CHOICES))})

    def observation_space(self, agent: str) -> spaces.Dict:
        """Macro-v0's observation space plus `action_mask` (the same object for every agent)."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        """Macro-v0's action space (the same object for every agent)."""
        return self._action_space

    # ---- a match's life ---------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a match; `seed` is the match seed of `harness match --seed`.

        `options` is accepted for the API's sake and not read (this env has none).
        """
        self._close_match()
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        match_seed = int(seed) if seed is not None else int(self._rng.integers(SEED_RANGE))
        self._matches += 1
        run_dir = self._new_run_dir(match_seed)
        key = episode_key(self.secret, self.level.content_hash, self.difficulty, match_seed)
        session = MatchSession(self.level, self.difficulty, key, self.teams)
        ids = list(session.players)
        commands = tuple(self.processes.get(p, POLICY_COMMAND) for p in ids)
        spec = MatchSpec(self.level, self.level_source, self.difficulty, match_seed, commands,
                         run_dir, self.teams, self.settings, self.secret)
        self.session, self.run_dir, self.summary, self.seats = session, run_dir, None, {}
        self.record = NullRecord() if self.record_dir is None else \
            RecordWriter(run_dir / MATCH_RECORD)
        for pid, command in zip(ids, commands, strict=True):
            self.seats[pid] = start_seat(spec, pid, command) if pid in self.processes \
                else self._policy_seat(spec, pid)
        for pid, seat in self.seats.items():
            if pid in self.processes:
                greet(seat, session, self.limits)
        open_record(self.record, spec, key, session, self.seats)
        self.agents = list(self.possible_agents)
        self._advance()
        obs, _, _, _, infos = self._outputs()
        return obs, infos

    def step(self, actions: Mapping[str, Any]) -> Outputs:
        """Play the deciding agent's action, then run the match to the next policy decision.

        Returns:
            (observations, rewards, terminations, truncations, infos), one entry per
            agent live before the step.

        Raises:
            RuntimeError: before reset() or after the match ended.
            ValueError: the deciding agent gave no action, or one out of range.
        """
        if self.session is None or not self.agents:
            raise RuntimeError("step() with no match running: call reset()")
        pid = self.session.deciding
        if pid is not None and pid in self.possible_agents:
            if actions.get(pid) is None:
                raise ValueError(f"actions: {pid!r} decides now and gave no action")
            index = int(actions[pid])
            if not 0 <= index < len(CHOICES):
                raise ValueError(f"actions[{pid!r}]: {index} is not in 0..{len(CHOICES) - 1}")
            seat = self.seats[pid]
            assert isinstance(seat.proc, PolicyChannel)
            seat.proc.queue(self._line(pid, index))
            seat.deadline = time.monotonic() + self.settings.episode_timeout_s
            decide(seat, self.session, self.record, self.limits)
        self._advance()
        return self._outputs()

    def _line(self, pid: str, index: int) -> str:
        # The choice as the action line an agent would send; an empty slot sends the
        # action without its arguments, which is refused like any incomplete line.
        assert self.session is not None
        choice = CHOICES[index]
        view = self.session.turn(pid).view
        arguments = macro_actions.decode(choice, macro_actions.slot_rows(view), view)
        return json.dumps({"type": "action", "protocol_version": PROTOCOL_VERSION,
                           "action": choice.action, "arguments": arguments or {}})

    def _policy_seat(self, spec: MatchSpec, pid: str) -> _Seat:
        assert self.session is not None
        ep = EpisodeSpec(spec.level, spec.level_source, spec.difficulty, spec.seed,
                         POLICY_COMMAND, spec.run_dir, self.settings)
        seat = _Seat(pid, PolicyChannel(), ep, hello=dict(POLICY_HELLO),
                     deadline=time.monotonic() + self.settings.episode_timeout_s)
        start = start_message(ep, self.session.players[pid], self.limits)
        start["match"] = match_block(self.session, pid)
        seat.start = start
        return seat

    def _advance(self) -> None:
        # Agent processes decide (and spent seats retire) until a policy seat decides
        # or the match is over; then every seat is told how it ended.
        session = self.session
        assert session is not None
        while (who := session.deciding) is not None and (
                who in self.processes or self.seats[who].failure is not None):
            decide(self.seats[who], session, self.record, self.limits)
        if session.over is not None and self.summary is None:
            self.summary = finish(session, self.seats, self.record)
            self._close_match()

    def _outputs(self) -> Outputs:
        session = self.session
        assert session is not None
        over = session.over is not None
        standings = {s.player: s for s in session.standings()}
        obs: dict[str, Any] = {}
        rewards: dict[str, float] = {}
        terms: dict[str, bool] = {}
        truncs: dict[str, bool] = {}
        infos: dict[str, Any] = {}
        budgets = self.level.budgets
        for pid in self.agents:
            turn, seat = session.turn(pid), self.seats[pid]
            deciding = session.deciding == pid
            view = turn.view
            rows = macro_actions.slot_rows(view)
            mask = np.zeros(len(CHOICES), dtype=np.int8)
            if deciding:
                mask[:] = macro_actions.mask(rows, view)
            else:
                mask[NOOP] = 1
            obs[pid] = macro_obs.observe(
                view, rows, min(1.0, turn.tick / TICKS_PER_SECOND / budgets.max_game_seconds),
                min(1.0, seat.state.decisions / budgets.max_decisions))
            obs[pid]["action_mask"] = mask
            info: dict[str, Any] = {"action_mask": mask, "deciding": deciding,
                                    "tick": turn.tick, "view": Frozen(view)}
            if deciding:
                info["text"] = observation_for(seat, session, self.limits)["text"]
            rewards[pid] = standings[pid].score if over else 0.0
            terms[pid] = over and session.over != "time"
            truncs[pid] = over and session.over == "time"
            if over:
                info.update(result=standings[pid].result, over=session.over,
                            standing=Frozen(standings[pid].to_dict()))
            infos[pid] = info
        if over:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def _new_run_dir(self, seed: int) -> Path:
        if self.record_dir is not None:
            parent = self.record_dir
        else:  # agent processes still need a folder for their logs
            self._scratch = self._scratch or Path(tempfile.mkdtemp(prefix="pz_match_"))
            parent = self._scratch
        run_dir = parent / f"match_{self.level.id}_{seed}_{self._matches}"
        run_dir.mkdir(parents=True, exist_ok=True)
        return run_dir

    def _close_match(self) -> None:
        # The seats stay readable (their counters) until the next reset replaces them.
        for seat in self.seats.values():
            seat.proc.close(grace_s=self.settings.grace_s)
        self.record.close()

    def close(self) -> None:
        """Stop the agent processes, finish the record, drop the temporary log folder."""
        self._close_match()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None
