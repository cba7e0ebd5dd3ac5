"""One match: every agent its own sandboxed process and conversation, one record of it all.

Each player's agent is started like `harness run`'s (harness.agent.process, the same
sandbox plan), gets its own start message and observations built from its own player's
views only, and answers one action line per observation. The match session decides
whose decision it is (world.match.session); while one agent decides, game time stands
still for all. An agent that times out, exits, or breaks the protocol too often is
retired: its player stands still for the rest of the match and the failure is its
player's, in the record and in the results.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.agent.process import AgentLaunchError, AgentProcess, Eof, Line, Timeout
from harness.agent.sandbox import plan
from harness.core.keys import episode_key, key_text, new_secret
from harness.core.messages import (
    ObservationMessage,
    StartMessage,
    StartMessageMatch,
    SummaryMessage,
)
from harness.core.messages import Outcome as OutcomeName
from harness.core.protocol import (
    AGENT_CRASHED,
    AGENT_TIMEOUT,
    COMPLETED,
    FAILED,
    PROTOCOL_ERROR,
    TRUNCATED,
    Fault,
    Parsed,
    encode,
    parse_agent_line,
)
from harness.core.record import RecordWriter
from harness.core.tracks import TrackSpec
from harness.episode.live import EpisodeSpec
from harness.episode.outcome import Ending, line_fault, summary_message
from harness.episode.settings import RunSettings
from harness.episode.subtask import episode_limits
from harness.episode.turns import TurnState, observation_message, start_message
from harness.match.timing import SeatClock, await_line
from world.face import MATCH_ENDINGS, Level, MatchSession

MATCH_RECORD = "match.jsonl.gz"
# A player's result -> the summary outcome its agent is told.
RESULT_OUTCOMES: dict[str | None, OutcomeName] = {
    "won": COMPLETED, "lost": FAILED, "draw": TRUNCATED, None: TRUNCATED}


@dataclass(frozen=True)
class MatchSpec:
    """What to play and with whom.

    Attributes:
        level: A level with a match block.
        level_source: Where it came from (a path), for the record.
        difficulty: One of its difficulty ids.
        seed: The match seed (the agents are told it).
        commands: One agent command line per player, p1 first.
        teams: Each player's team (None: free-for-all).
        run_dir: Directory receiving the record and each agent's stderr log.
        settings: Deadlines and limits, the same for every agent.
        secret: The secret the match key is drawn from (None: a fresh one).
    """

    level: Level
    level_source: str
    difficulty: str
    seed: int
    commands: tuple[str, ...]
    run_dir: Path
    teams: tuple[str, ...] | None = None
    settings: RunSettings = field(default_factory=RunSettings)
    secret: bytes | None = None


@dataclass
class _Seat:
    """One player's agent and its counters."""

    pid: str
    proc: Any
    spec: EpisodeSpec
    state: TurnState = field(default_factory=TurnState)
    hello: dict[str, Any] | None = None
    failure: Ending | None = None
    deadline: float = 0.0  # the wall-clock end of its episode timeout
    start: StartMessage | None = None
    clock: SeatClock = field(default_factory=SeatClock)


def match_block(session: MatchSession, pid: str) -> StartMessageMatch:
    """What a player is told: who it is, its team's size, its own frags, the exit's name.

    Nothing of the other players' frags, places or decisions: only what its player sees.
    With escorts, the exit is told only to an escorted player: no one else's entry counts.
    """
    team = session.teams[list(session.players).index(pid)]
    standing = session.standing(pid)
    rules = session.world.level.match
    exit_area = None if rules is None or rules.exit is None else rules.exit
    if rules is not None and rules.escort is not None and pid not in rules.escort.players:
        exit_area = None
    return {"player": pid, "players": len(session.players),
            "teammates": sum(1 for t in session.teams if t == team) - 1,
            "frags": standing.frags,
            "exit": None if exit_area is None else session.world.level.area(exit_area).name}


def match_text(block: StartMessageMatch) -> str:
    """The text view's line about the match (appended to the observation's text)."""
    mates = block["teammates"]
    side = f"{mates} teammate{'s' if mates != 1 else ''}" if mates else "no teammates"
    race = f" The first player into {block['exit']} wins." if block["exit"] else ""
    return (f"\nMatch: you are {block['player']}, one of {block['players']} players "
            f"({side}); your frags: {block['frags']}.{race}")


def run_match(spec: MatchSpec) -> dict[str, Any]:
    """Play one match to its end and write its record; returns the match summary."""
    spec.run_dir.mkdir(parents=True, exist_ok=True)
    secret = spec.secret if spec.secret is not None else new_secret()
    key = episode_key(secret, spec.level.content_hash, spec.difficulty, spec.seed)
    session = MatchSession(spec.level, spec.difficulty, key, spec.teams)
    pids = list(session.players)
    if len(spec.commands) != len(pids):
        raise ValueError(f"level {spec.level.id!r} is played by {len(pids)} players; "
                         f"{len(spec.commands)} agents were given")
    s = spec.settings
    limits = episode_limits(spec.level, TrackSpec())
    record = RecordWriter(spec.run_dir / MATCH_RECORD)
    seats: dict[str, _Seat] = {}
    try:
        for pid, command in zip(pids, spec.commands, strict=True):
            seats[pid] = start_seat(spec, pid, command)
        for seat in seats.values():
            greet(seat, session, limits)
        open_record(record, spec, key, session, seats)
        start = time.monotonic()  # every hello is in: the schedule's origin
        for seat in seats.values():
            seat.clock.start = start
        while (who := session.deciding) is not None:
            due = [seats[p] for p in session.due if seats[p].failure is None]
            after = None
            for seat in sorted(due, key=lambda x: x.clock.due(session.tick)):
                # All at once: they think at the same time.
                ask(seat, session, limits, [(x.proc, x.clock) for x in due if x is not seat],
                    after)
                after = seat.clock.due(session.tick)
            decide(seats[who], session, record, limits,
                   [(x.proc, x.clock) for x in due if x is not seats[who]])
        return finish(session, seats, record)
    except AgentLaunchError:
        raise  # no match was played: nothing to finish
    except Exception:  # the record is finished even if the harness fails
        failure = traceback.format_exc(limit=6).strip().replace("\n", " | ")
        record.write("end", {"over": None, "harness_error": failure,
                             "game_ticks": session.tick, "standings": []})
        raise
    finally:
        for seat in seats.values():
            seat.proc.close(grace_s=s.grace_s)
        record.close()


def start_seat(spec: MatchSpec, pid: str, command: str) -> _Seat:
    """Start one player's agent process in its sandbox (its stderr log in the run dir)."""
    s = spec.settings
    ep = EpisodeSpec(spec.level, spec.level_source, spec.difficulty, spec.seed, command,
                     spec.run_dir, s)
    sandbox = plan(s.agent_memory_mb, (spec.run_dir, Path(spec.level_source)),
                   s.agent_network, **s.sandbox_limits())
    proc = AgentProcess.start(command, stderr_path=spec.run_dir / f"agent_{pid}_stderr.log",
                              stderr_cap_bytes=s.stderr_cap_bytes,
                              env_passthrough=s.env_passthrough,
                              max_line_bytes=s.max_line_bytes, sandbox=sandbox)
    return _Seat(pid, proc, ep, deadline=time.monotonic() + s.episode_timeout_s,
                 clock=SeatClock(s.pace))


def greet(seat: _Seat, session: MatchSession, limits: Any) -> None:
    """Send a seat its start message and read its hello (a failure is kept on the seat)."""
    start = start_message(seat.spec, session.players[seat.pid], limits)
    start["match"] = match_block(session, seat.pid)
    seat.start = start
    seat.proc.send_line(encode(start))
    _hello(seat, seat.spec.settings)


def open_record(record: RecordWriter, spec: MatchSpec, key: int, session: MatchSession,
                seats: dict[str, _Seat]) -> None:
    """Write the record's header, then retire every seat that gave no usable hello."""
    pids = list(session.players)
    record.write("header", {
        "schema_version": 1, "match": True, "level": spec.level.id,
        "level_source": spec.level_source, "level_hash": spec.level.content_hash,
        "difficulty": spec.difficulty, "seed": spec.seed, "key": key_text(key),
        "players": pids, "teams": list(session.teams),
        # The map a page draws the match from (the same for every player: map ids).
        "map": session.players[pids[0]].plan(),
        "agents": {pid: {"command": seats[pid].spec.command, "hello": seats[pid].hello,
                         "start": seats[pid].start} for pid in pids},
        "settings": spec.settings.to_dict()})
    for pid, seat in seats.items():
        if seat.failure is not None:  # no usable hello: out before the first decision
            retire(record, session, pid, seat.failure)


def _hello(seat: _Seat, s: RunSettings) -> None:
    event = seat.proc.read_line(time.monotonic() + s.hello_timeout_s)
    if isinstance(event, Line):
        parsed = parse_agent_line(event.text, "hello")
        if isinstance(parsed, Parsed):
            seat.hello = parsed.message
            return
        seat.failure = Ending(PROTOCOL_ERROR, f"the hello was refused: {parsed.message}")
    else:
        seat.failure = _silence(event, "hello")


def _silence(event: Any, what: str) -> Ending:
    if isinstance(event, Timeout):
        return Ending(AGENT_TIMEOUT, f"no {what} line before the deadline")
    if isinstance(event, Eof):
        return Ending(AGENT_CRASHED, f"the agent exited before its {what} line")
    return Ending(PROTOCOL_ERROR, f"the {what} line was unusable")


def retire(record: RecordWriter, session: MatchSession, pid: str, why: Ending) -> None:
    """Retire a player and write that it was (replay retires it at the same point).

    A failure of its agent (anything but a spent decision budget) forfeits: its team
    loses unless a teammate plays on.
    """
    forfeit = why.outcome != TRUNCATED
    session.retire(pid, forfeit)
    record.write("retire", {"player": pid, "tick": session.tick, "outcome": why.outcome,
                            "reason": why.reason, "forfeit": forfeit})


def observation_for(seat: _Seat, session: MatchSession, limits: Any) -> ObservationMessage:
    """The observation a seat's agent is sent now: its own player's views and match block."""
    st, game = seat.state, session.players[seat.pid]
    if st.turn > 0 and st.error is None:  # the result of its last action, ended by now
        st.last_result = game.turn.result
    obs = observation_message(seat.spec, game, st, seat.deadline - time.monotonic(), limits)
    obs["match"] = match_block(session, seat.pid)
    obs["text"] += match_text(obs["match"])
    return obs


def ask(seat: _Seat, session: MatchSession, limits: Any,
        others: list[tuple[Any, SeatClock]] | None = None, after: float | None = None) -> None:
    """Send a seat the observation of its decision due now, once, when its pace allows.

    Its line is read by `decide`, which asks first if this was not called; the lines of
    the `others` asked already are kept while this observation is held, and `after` is
    when the message sent just before it was due (`SeatClock.release`).
    """
    st, clock = seat.state, seat.clock
    if clock.asked is not None or seat.failure is not None:
        return
    extra = _drain(seat)
    if extra:
        st.warnings = [{"code": "extra_lines", "message":
                        f"{extra} more line(s) came after the action and were discarded; "
                        "send exactly one line per observation"}]
    obs = observation_for(seat, session, limits)
    st.warnings = []
    clock.release(session.tick, others or (), after)
    seat.proc.send_line(encode(obs))
    clock.asked, clock.extra, clock.t_sent = obs, extra, time.monotonic()


def decide(seat: _Seat, session: MatchSession, record: RecordWriter, limits: Any,
           others: list[tuple[Any, SeatClock]] | None = None) -> None:
    """Ask a seat's agent for its decision (unless asked), play it, write the turn line.

    Args:
        seat: The seat whose decision it is.
        session: The match.
        record: The match record.
        limits: The decision and game-time limits.
        others: The other seats asked at this moment: their lines are kept, with the
            time they came, while this one's is awaited.
    """
    st, s, pid = seat.state, seat.spec.settings, seat.pid
    if seat.failure is not None:  # its budget ran out on its last decision
        retire(record, session, pid, seat.failure)
        return
    ask(seat, session, limits)
    clock = seat.clock
    obs, extra, t_sent = clock.asked, clock.extra, clock.t_sent
    clock.asked = None
    before_hash, tick = session.state_hash(), session.tick
    event, came = await_line(seat.proc, clock, min(t_sent + s.decision_timeout_s, seat.deadline),
                             others or ())
    row: dict[str, Any] = {"player": pid, "turn": st.turn, "tick": tick,
                           "state_hash": before_hash, "played": False, "raw_action": None,
                           "stepped": None,
                           "observation": obs, "error": None, "result": None,
                           "extra_lines": extra,
                           "agent_wall_s": round(came - t_sent, 4)}
    if not isinstance(event, Line) and isinstance(event, Timeout | Eof):
        seat.failure = _silence(event, "action")
        record.write("turn", row)
        retire(record, session, pid, seat.failure)
        return
    parsed = parse_agent_line(event.text, "action", seat.spec.track.actions()) \
        if isinstance(event, Line) else line_fault(event, s.max_line_bytes)
    if isinstance(event, Line):
        row["raw_action"] = event.text[:2000]
    action = parsed.message if isinstance(parsed, Parsed) else None
    row["stepped"] = None if action is None else {"action": action["action"],
                                                  "arguments": action["arguments"]}
    # The agent's own notes and usage, as validated, for the match page (never scored).
    row["notes"] = None if action is None else action.get("notes")
    row["usage"] = None if action is None else action.get("usage")
    turn = session.step(pid, row["stepped"])
    row["played"] = True
    fault = st.count(turn, parsed if isinstance(parsed, Fault) else None)
    row["result"] = None if fault is not None or turn is None else turn.result
    row["error"] = None if fault is None else fault.to_dict()
    record.write("turn", row)
    st.turn += 1
    if fault is not None and st.invalid_in_a_row >= s.max_invalid_in_a_row:
        seat.failure = Ending(PROTOCOL_ERROR, f"{st.invalid_in_a_row} invalid actions in a row")
    elif st.decisions >= limits.max_decisions:
        seat.failure = Ending(TRUNCATED, "the player's decision budget ran out")
    if seat.failure is not None and session.deciding == pid:
        retire(record, session, pid, seat.failure)


def _drain(seat: _Seat) -> int:
    # Lines sent while the player's action ran are extra lines, never its next action.
    count = 0
    while not isinstance(seat.proc.read_line(time.monotonic()), Timeout | Eof):
        count += 1
    return count


def finish(session: MatchSession, seats: dict[str, _Seat],
           record: RecordWriter) -> dict[str, Any]:
    """Send every seat its summary and write the end line; returns the match summary."""
    ranked = session.standings()
    standings = [s.to_dict() for s in ranked]
    summaries: dict[str, SummaryMessage] = {}
    for standing, row in zip(ranked, standings, strict=True):
        seat = seats[str(row["player"])]
        status = session.players[seat.pid].status()
        ending = seat.failure or Ending(RESULT_OUTCOMES[standing.result],
                                        MATCH_ENDINGS.get(session.over or "", "the match ended"))
        counts = {"decisions": seat.state.decisions, "invalid_actions": seat.state.invalid,
                  "game_ticks": session.tick}
        summary = summary_message(ending, status, counts)
        block = match_block(session, seat.pid)
        summary["match"] = {**block, "result": standing.result}
        summaries[seat.pid] = summary
        row["agent_failure"] = None if seat.failure is None else {
            "outcome": seat.failure.outcome, "reason": seat.failure.reason}
    # The players still in play get their summaries paced like observations, soonest due
    # first; a retired or downed player's agent is out of the match and gets its own at once.
    playing = {pid for pid, seat in seats.items()
               if seat.failure is None and session.world.players[pid].alive}
    after = None
    for seat in sorted(seats.values(), key=lambda x: x.clock.due(session.tick)):
        if seat.pid in playing:
            seat.clock.release(session.tick, after=after)
            after = seat.clock.due(session.tick)
        seat.proc.send_line(encode(summaries[seat.pid]))
    paces = {pid: pace for pid, seat in seats.items()
             if (pace := seat.clock.pacer.summary()) is not None}
    end = {"over": session.over, "game_ticks": session.tick,
           "final_state_hash": session.state_hash(), "standings": standings,
           "summaries": summaries, **({"pace": paces} if paces else {})}
    record.write("end", end)
    return {"record": str(record.path), **end}
