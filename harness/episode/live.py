"""One episode: start the agent, talk protocol v1 with it, drive the game, record every turn.

`run_episode` never raises because of the agent: whatever it does, the record is
finished with exactly one outcome, a plain-words reason and the turn it happened at.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, cast

from harness.agent.local import AgentHandle
from harness.agent.pacing import Pacer
from harness.agent.process import (
    AgentLaunchError,
    AgentProcess,
    ChannelEvent,
    Eof,
    Line,
    LineTooLong,
    NotUtf8,
    Timeout,
)
from harness.agent.sandbox import SandboxSpec, plan
from harness.agent.streams import decision_clock_start
from harness.core import stopping
from harness.core.claims import add_usage, start_point, usage_totals
from harness.core.game import Game, GameFactory
from harness.core.keys import key_text
from harness.core.messages import ActionMessage, RecordTurn, RecordTurnResult
from harness.core.protocol import (
    HARNESS_ERROR,
    INTERRUPTED,
    PROTOCOL_VERSION,
    Fault,
    Parsed,
    encode,
    parse_agent_line,
)
from harness.core.record import RECORD_FILE, RecordWriter, clip
from harness.core.tracks import TrackSpec
from harness.episode import outcome as endings
from harness.episode.chain import ChainRun
from harness.episode.outcome import Ending
from harness.episode.settings import RunSettings
from harness.episode.snapshot import (
    SNAPSHOTS_DIR,
    Snapshot,
    Step,
    restoring_factory,
    take,
    write_snapshot,
)
from harness.episode.subtask import ChainPlan, Limits, episode_limits
from harness.episode.turns import TurnState, observation_message, start_message
from world.face import Level


@dataclass(frozen=True)
class EpisodeSpec:
    """What to play and with whom.

    Attributes:
        level: The loaded level.
        level_source: Where the level came from (a path, or a generated name), for the record.
        difficulty: A difficulty id of the level.
        seed: The episode seed (the agent is told it).
        command: The agent command line.
        run_dir: Directory receiving the record and agent_stderr.log.
        settings: Deadlines and limits.
        generated: For a generated level, what produced it and its content (stored in
            the record's header so replay needs no generator); None otherwise.
        track: The track played (macro actions or raw controls).
        origin: The snapshot the episode starts from (None: the level's start).
        chain: The chain a stepwise episode plays (None: the mission as a whole).
        key: The episode key the world is made from (harness/core/keys.py), which the agent
            is never told; None: the seed itself, as before keys.
        hidden: Further paths the agent must not see, beside the run directory and the
            level file: a secret file given by path, the stepwise reference runs.
    """

    level: Level
    level_source: str
    difficulty: str
    seed: int
    command: str
    run_dir: Path
    settings: RunSettings = field(default_factory=RunSettings)
    generated: dict[str, Any] | None = None
    track: TrackSpec = field(default_factory=TrackSpec)
    origin: Snapshot | None = None
    chain: ChainPlan | None = None
    key: int | None = None
    hidden: tuple[Path, ...] = ()

    @property
    def game_key(self) -> int:
        """The key the episode's world is made from."""
        return self.seed if self.key is None else self.key


def run_episode(spec: EpisodeSpec, game_factory: GameFactory | None = None,
                agent: AgentHandle | None = None) -> dict[str, Any]:
    """Play one episode to its end and write its record.

    Args:
        spec: The episode.
        game_factory: Builds the game from (level, difficulty, key); default: the track's.
        agent: An agent side already there (harness.agent.local); None starts
            `spec.command` as a process.

    Returns:
        The run summary (see `harness.episode.runner.run` for its fields).

    Raises:
        harness.agent.process.AgentLaunchError: The agent cannot be started at all.
        harness.episode.snapshot.SnapshotError: The origin snapshot does not restore here.
    """
    return _Episode(spec, game_factory or spec.track.game_factory(), agent).play()


class _Episode:
    def __init__(self, spec: EpisodeSpec, game_factory: GameFactory,
                 agent: AgentHandle | None = None) -> None:
        self.spec, self.s = spec, spec.settings
        self.agent = agent
        if spec.origin is not None:
            game_factory = restoring_factory(spec.origin, game_factory)
        self.game: Game = game_factory(spec.level, spec.difficulty, spec.game_key)
        self.level_limits = episode_limits(spec.level, spec.track)
        self.chain = None if spec.chain is None else ChainRun(
            spec.chain, spec.level, game_factory, self.game)
        # Every turn's executed action from tick 0, so a snapshot can be taken at any turn.
        self.steps: list[Step] = list(spec.origin.steps) if spec.origin is not None else []
        self.done = self._done_now()
        self.snapshot_due: str | None = None  # why a snapshot is to be taken at this moment
        self.snapshots: list[dict[str, Any]] = []
        self.state = TurnState()
        self.hello: dict[str, Any] | None = None
        self.hello_line: str | None = None  # the line itself, so replay can parse it again
        self.usage: dict[str, float] = {}
        # Holds each message that follows an agent's line until a time the agent can
        # compute, so timing tells nothing of the unseen world (34).
        self.pacer = Pacer(spec.settings.pace, stopped=lambda: stopping.requested() is not None)
        self.record = RecordWriter(spec.run_dir / RECORD_FILE)

    def play(self) -> dict[str, Any]:
        # A stop signal is only noted while the episode plays (never mid-tick or mid-line),
        # and taken between turns or while waiting for the agent.
        with stopping.held():
            return self._play()

    def _play(self) -> dict[str, Any]:
        spec = self.spec
        self.t0 = time.monotonic()
        self.ep_deadline = self.t0 + self.s.episode_timeout_s
        proc: AgentHandle = self.agent or AgentProcess.start(
            spec.command,
            stderr_path=spec.run_dir / "agent_stderr.log",
            stderr_cap_bytes=self.s.stderr_cap_bytes,
            env_passthrough=self.s.env_passthrough,
            max_line_bytes=self.s.max_line_bytes,
            sandbox=self._sandbox(),
        )
        self.proc = proc
        ending: Ending | None = None
        try:
            try:
                ending = self._converse()
            except Exception:  # the record must be finished even if the harness fails
                ending = Ending(HARNESS_ERROR, "the harness failed: "
                                + traceback.format_exc(limit=6).strip().replace("\n", " | "))
                if not self.header_written:
                    self._write_header()
            return self._finish(ending)
        finally:
            # Whoever stops the harness wants it gone soon: a short grace, not the full one.
            grace = self.s.grace_s if stopping.requested() is None else min(self.s.grace_s, 0.5)
            proc.close(grace_s=grace)
            self.record.close()

    header_written = False

    def _sandbox(self) -> SandboxSpec:
        # The run directory and the level file stay out of the agent's sight, as do the
        # harness's own files (harness.agent.sandbox_fs); a folder holding them is never bound.
        spec = self.spec
        # A generated level has no file: its source is a name, not a path to hide.
        level_file = () if spec.generated is not None else (Path(spec.level_source),)
        sandbox = plan(self.s.agent_memory_mb, (Path(spec.run_dir), *level_file, *spec.hidden),
                       self.s.agent_network, **self.s.sandbox_limits())
        if self.s.require_sandbox and not sandbox.bubblewrap:
            raise AgentLaunchError(f"--require-sandbox: the agent cannot be sandboxed: "
                                   f"{sandbox.reason}")
        return sandbox

    def _write_header(self) -> None:
        spec = self.spec
        self.record.write("header", {
            "schema_version": 1,
            "harness_version": _harness_version(),
            "protocol_version": PROTOCOL_VERSION,
            "level": spec.level.id,
            "level_source": spec.level_source,
            "level_hash": spec.level.content_hash,
            "difficulty": spec.difficulty,
            "seed": spec.seed,
            "key": key_text(spec.game_key),
            "settings": self.s.to_dict(),
            "agent_command": spec.command,
            "agent_argv": self.proc.argv,
            "isolation": self.proc.isolation,
            "hello": self.hello,
            **({"hello_line": self.hello_line} if self.hello_line is not None else {}),
            "start": self.start,
            "map": self.game.plan(),
            **({"origin": spec.origin.to_dict()} if spec.origin is not None else {}),
            **({"success_states": [s.to_dict() for s in spec.chain.states]}
               if spec.chain is not None else {}),
            **({"generated": spec.generated} if spec.generated is not None else {}),
        })
        self.header_written = True

    def _converse(self) -> Ending:
        stepwise = None if self.spec.chain is None else self.spec.chain.start_block(self.done)
        self.start = start_message(self.spec, self.game, self.limits, stepwise)
        self.proc.send_line(encode(self.start))
        ending = self._await_hello()
        self._write_header()
        if ending is not None:
            return ending
        while True:
            ending = self._pre_turn_ending()
            if ending is not None:
                return ending
            ending = self._turn()
            if ending is not None:
                return ending

    def _deadline(self, limit_s: float) -> tuple[float, str, float]:
        own = time.monotonic() + limit_s
        if own <= self.ep_deadline:
            return own, "", limit_s
        return self.ep_deadline, "episode timeout", self.s.episode_timeout_s

    def _read(self, deadline: float) -> ChannelEvent | stopping.Interrupted:
        # The agent's line, or the stop that came while waiting for it.
        try:
            with stopping.interruptible():
                return self.proc.read_line(deadline)
        except stopping.Interrupted as stop:
            return stop

    def _await_hello(self) -> Ending | None:
        deadline, which, limit = self._deadline(self.s.hello_timeout_s)
        event = self._read(deadline)
        if isinstance(event, stopping.Interrupted):
            return endings.interrupted_ending(event, None)
        if isinstance(event, Timeout):
            return endings.silence_ending(None, "hello", which or "hello timeout", limit)
        if isinstance(event, Eof):
            return endings.exit_ending(None, event, self.proc.stderr_tail(),
                                       self.s.agent_memory_mb, self.proc.limit_hit())
        if not isinstance(event, Line):
            return endings.hello_fault_ending(endings.line_fault(event, self.s.max_line_bytes))
        parsed = parse_agent_line(event.text, "hello")
        if isinstance(parsed, Fault):
            return endings.hello_fault_ending(parsed)
        self.hello, self.hello_line = parsed.message, event.text
        self.pacer.arm(time.monotonic(), 0)
        return None

    def _pre_turn_ending(self) -> Ending | None:
        stop = stopping.requested()
        if stop is not None:
            return endings.interrupted_ending(stop, self.state.turn)
        if self.chain is not None:
            if self.snapshot_due is not None:  # the moment an objective was done, kept
                self._keep_snapshot(self.game.turn.view)  # before a reset can replace it
            self.game, ending = self.chain.advance(self.game, self.state.decisions)
            if self.chain.reset_to is not None:
                self.steps = list(self.chain.reset_to.steps)
                self.done = self._done_now()
            return ending
        now = self.game.turn
        return endings.world_ending(now.status, self.state.decisions, self.limits.max_decisions,
                                    now.tick, self.limits.max_ticks)

    @property
    def limits(self) -> Limits:
        """The budgets in force: the level's, or the chain's subtask on."""
        return self.level_limits if self.chain is None else self.chain.limits

    def _turn(self) -> Ending | None:
        st = self.state
        t_begin = time.monotonic()
        obs = observation_message(self.spec, self.game, st, self.ep_deadline - t_begin,
                                  self.limits, None if self.chain is None
                                  else self.chain.observation_block())
        state_hash, tick = self.game.turn.state_hash, self.game.turn.tick
        self._keep_snapshot(obs["view"])
        paced_s = self.pacer.hold()
        self.proc.send_line(encode(obs))
        t_built = time.monotonic()
        # The agent's clock starts once the observation is in its pipe (the writer is the
        # process's stdin thread; a fake process in tests has none).
        t_sent = decision_clock_start(getattr(self.proc, "_stdin", None), t_built,
                                      self.s.decision_timeout_s)
        deadline, which, limit = self._deadline(self.s.decision_timeout_s)
        event = self._read(deadline)
        t_got = time.monotonic()
        turn: RecordTurn = {
                "kind": "turn", "turn": st.turn, "tick": tick, "state_hash": state_hash,
                "observation": obs, "text_chars": len(obs["text"]), "raw_action": None,
                "action": None, "error": None, "result": None, "extra_lines": 0,
                "agent_wall_s": round(t_got - t_sent, 4), "harness_ms": 0.0}
        ending = None
        if isinstance(event, stopping.Interrupted):
            ending = endings.interrupted_ending(event, st.turn)
        elif isinstance(event, Timeout):
            ending = endings.silence_ending(st.turn, "action", which or "decision timeout", limit)
        elif isinstance(event, Eof):
            ending = endings.exit_ending(st.turn, event, self.proc.stderr_tail(),
                                         self.s.agent_memory_mb, self.proc.limit_hit())
        else:
            ending = self._decide(event, turn)
            self.pacer.arm(t_got, self.game.tick - tick)
        harness_s = (t_built - t_begin) + (time.monotonic() - t_got)
        turn["harness_ms"] = round((harness_s - paced_s) * 1000, 3)
        # The episode timeout is the agent's time: the harness's own time (its pacing
        # too) is given back.
        self.ep_deadline += harness_s
        self.record.write("turn", turn)
        st.turn += 1
        executed = turn["action"] if turn["result"] is not None else None
        self.steps.append(None if executed is None else {
            "action": executed["action"], "arguments": executed["arguments"]})
        self._note_done()
        return ending

    def _done_now(self) -> tuple[int, ...]:
        return tuple(int(o["index"]) for o in self.game.turn.status.objectives
                     if o["status"] == "done")

    def _note_done(self) -> None:
        # An objective done in this turn: keep the moment after it (taken when its view
        # is built, at the next observation or at the end).
        done = self._done_now()
        new = [i for i in done if i not in self.done]
        self.done = done
        if new:
            self.snapshot_due = "objective " + ", ".join(map(str, new)) + " done"

    def _keep_snapshot(self, view: Mapping[str, Any]) -> None:
        if self.snapshot_due is None:
            return
        spec, turn = self.spec, self.state.turn
        snap = take(self.game, spec.level, spec.difficulty, spec.seed,
                    {"name": spec.track.name, "frame_skip": spec.track.frame_skip},
                    self.steps, self.snapshot_due, view, key=spec.game_key)
        name = f"{SNAPSHOTS_DIR}/turn_{turn:04d}.json"
        write_snapshot(spec.run_dir / name, snap)
        self.snapshots.append({"turn": turn, "tick": snap.tick, "state_hash": snap.state_hash,
                               "file": name, "reason": snap.reason})
        self.snapshot_due = None

    def _decide(self, event: Line | LineTooLong | NotUtf8, turn: RecordTurn
                ) -> Ending | None:
        st = self.state
        if isinstance(event, Line):
            turn["raw_action"] = _clip(event.text)
            parsed = parse_agent_line(event.text, "action", self.spec.track.actions())
        else:
            parsed = endings.line_fault(event, self.s.max_line_bytes)
        if isinstance(parsed, Parsed):
            # Parsed: the line passed the action schema, so it is an action message.
            turn["action"] = cast(ActionMessage, parsed.message)
            add_usage(self.usage, parsed.message.get("usage"))
        # One step a decision: the action (none for a faulty line), then the next view.
        stepped = self.game.step(parsed.message if isinstance(parsed, Parsed) else None)
        fault = st.count(stepped, parsed if isinstance(parsed, Fault) else None)
        turn["result"] = (None if fault is not None
                          else cast(RecordTurnResult | None, stepped.result))
        # Drained after the action ran, just before the next observation is sent: a line
        # sent while the world was ticking is an extra line of this turn, never the next
        # turn's action.
        extra = self._drain_extra_lines()
        turn["extra_lines"] = extra
        st.warnings = []
        if extra:
            st.warnings.append({"code": "extra_lines", "message":
                                f"{extra} more line(s) came after the action and were discarded; "
                                "send exactly one line per observation"})
        if fault is not None:
            turn["error"] = fault.to_dict()
            if st.invalid_in_a_row >= self.s.max_invalid_in_a_row:
                return endings.invalid_limit_ending(st.turn, st.invalid_in_a_row, fault)
        return None

    def _drain_extra_lines(self) -> int:
        count = 0
        while True:
            event = self.proc.read_line(time.monotonic())
            if isinstance(event, Timeout | Eof):
                return count
            count += 1

    def _finish(self, ending: Ending) -> dict[str, Any]:
        now = self.game.turn
        status = now.status
        st = self.state
        counts = {"decisions": st.decisions, "invalid_actions": st.invalid,
                  "game_ticks": now.tick}
        summary = endings.summary_message(ending, status, counts)
        if self.chain is not None:
            summary["stepwise"] = self.chain.summary_block(self.game, st.decisions)
        if ending.outcome != INTERRUPTED:  # whoever stops the harness wants it gone now
            self.pacer.hold()
        self.proc.send_line(encode(summary))
        wall_s = round(time.monotonic() - self.t0, 3)
        final_hash, view = now.state_hash, now.view
        if ending.outcome not in (HARNESS_ERROR, INTERRUPTED):
            self._keep_snapshot(view)
        origin = self.spec.origin
        start = None if origin is None else start_point({"origin": origin.to_dict()})
        self.record.write("end", {
            "summary": summary,
            "final_state_hash": final_hash,
            "final_position": _player_position(view),
            "agent_error": ending.agent_error,
            "usage": usage_totals(self.usage, st.decisions),
            "wall_s": wall_s,
            "stderr_dropped_bytes": self.proc.stderr_dropped_bytes,
            "ids": self.game.ids_given(),
            **({"snapshots": self.snapshots} if self.snapshots else {}),
            **({"pace": pace} if (pace := self.pacer.summary()) is not None else {}),
        })
        return {
            "run_dir": str(self.spec.run_dir),
            "record": str(self.record.path),
            "stderr_log": str(self.spec.run_dir / "agent_stderr.log"),
            "level": self.spec.level.id,
            "difficulty": self.spec.difficulty,
            "seed": self.spec.seed,
            **{k: summary[k] for k in ("outcome", "terminated", "truncated", "success", "failure",
                                       "score", "progress", "stages", "objectives",
                                       "decisions",
                                       "invalid_actions", "game_ticks", "reason")},
            "wall_s": wall_s,
            "agent": self.hello,
            "agent_error": ending.agent_error,
            "usage": usage_totals(self.usage, st.decisions),
            "snapshots": [{**s, "file": str(self.spec.run_dir / s["file"])}
                          for s in self.snapshots],
            "stepwise": summary.get("stepwise"),
            **({"from_snapshot": start} if start is not None else {}),
        }


def _player_position(view: dict[str, Any]) -> list[float] | None:
    # Where the last turn ended, so a page can draw it; a view without a player has none.
    position = (view.get("player") or {}).get("position")
    return list(position) if isinstance(position, list | tuple) and len(position) == 3 else None


def _clip(text: str) -> str:
    return clip(text)


def _harness_version() -> str:
    try:
        return version("mission-harness")
    except PackageNotFoundError:
        return "0+unknown"
