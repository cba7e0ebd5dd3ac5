"""A person's side of one episode: the protocol's agent, spoken in-process for a play front.

`harness play` runs an ordinary episode (harness.episode.live) whose agent is an in-process
side (harness.agent.local), as `harness mcp` does: the episode sends start,
observations and the summary to `PlaySession`, and each action the person chooses goes
back as an action line, parsed, bounded and judged exactly as a program's line is. So
the run has a record that replays, a page, and a row in `harness compare`.

A front (the terminal or the browser) reads `PlaySession.view()` and calls `act` or
`quit`; the episode runs in the main thread (`play`), so signals stop it as any run.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from harness.agent.local import LocalAgent
from harness.core.protocol import INTERRUPTED, PROTOCOL_VERSION
from harness.episode.live import EpisodeSpec, run_episode
from harness.play.known import KnownMap

HUMAN_KIND = "human"
# The hello schema's bounds on name and description.
NAME_CHARS, DESCRIPTION_CHARS = 200, 500
REVEAL_WORDS = "playtest with the whole level shown (--reveal): not a scored run"


@dataclass(frozen=True)
class Front:
    """How the person plays: its name in the record's command and the hello's description."""

    name: str
    words: str


FRONTS: dict[str, Front] = {
    "terminal": Front("terminal", "in a terminal"),
    "web": Front("web", "in a browser"),
}


HUMAN_COMMAND = "harness play (human)"
REVEAL_COMMAND = "harness play (human, reveal: not scored)"


def agent_command(reveal: bool) -> str:
    """What the record names as the agent command, a playtest marked in it.

    One for every front, so a player's terminal and browser runs pool into one row.
    """
    return REVEAL_COMMAND if reveal else HUMAN_COMMAND


def isolation(front: Front) -> dict[str, object]:
    """The record's isolation block: a person's choices reach the episode only as actions."""
    return {"sandbox": "external", "pid_namespace": False, "filesystem": "host",
            "network": "shared", "memory_limit_mb": None,
            "reason": f"a person playing {front.words} through harness play: only the "
                      "actions they choose reach the episode"}


def hello(name: str, front: Front, reveal: bool) -> dict[str, Any]:
    """The hello a person's side sends: their chosen name, kind human."""
    words = f"A person ({HUMAN_KIND}) playing {front.words} through harness play."
    if reveal:
        words += f" A {REVEAL_WORDS}."
    return {"type": "hello", "protocol_version": PROTOCOL_VERSION,
            "name": name[:NAME_CHARS], "version": "", "model": None,
            "description": words[:DESCRIPTION_CHARS]}


@dataclass(frozen=True)
class Moment:
    """What a front shows now: the newest message of each kind, and a counter.

    Attributes:
        seq: Grows by one with every message from the episode; a front redraws on change.
        start: The start message (None before it came).
        observation: The turn awaiting an action (None while an action runs or after the end).
        summary: The summary once the episode has ended.
        history: (action words, result sentence) of each turn played, oldest first.
    """

    seq: int
    start: dict[str, Any] | None
    observation: dict[str, Any] | None
    summary: dict[str, Any] | None
    history: tuple[tuple[str, str], ...]


class PlaySession:
    """One episode's agent side for a person.

    Args:
        spec: The episode (its command names the person's front).
        name: The player's chosen name, sent in the hello.
        front: The terminal or the browser.
        reveal: A playtest with the whole level shown (marked in the hello and command).
    """

    def __init__(self, spec: EpisodeSpec, name: str, front: Front, reveal: bool = False) -> None:
        self.spec = spec
        self.agent = LocalAgent(self._on_message, ["harness", "play", front.name],
                                isolation(front), spec.settings.max_line_bytes)
        self._hello = hello(name, front, reveal)
        self._changed = threading.Condition()
        self._seq = 0
        self._start: dict[str, Any] | None = None
        self._observation: dict[str, Any] | None = None
        self._summary: dict[str, Any] | None = None
        self._history: list[tuple[str, str]] = []
        self._pending: str | None = None
        self.known = KnownMap()
        # Why the harness's own front stopped, if it broke: not the person leaving.
        self.front_failed: str | None = None
        self.revealed: dict[str, Any] | None = None

    def reveal_level(self) -> None:
        """For a playtest: keep the whole level's map (the record map's shape, level ids)."""
        game = self.spec.track.game_factory()(self.spec.level, self.spec.difficulty,
                                              self.spec.game_key)
        self.revealed = game.plan()

    @property
    def name(self) -> str:
        """The player's name as the hello gives it."""
        return str(self._hello["name"])

    # The episode's side.

    def play(self) -> dict[str, Any]:
        """Play the episode to its end in this thread; its summary."""
        # The page links the agent's log, as for any run: a person has none.
        (self.spec.run_dir / "agent_stderr.log").touch()
        summary: dict[str, Any] | None = None
        try:
            summary = run_episode(self.spec, agent=self.agent)
            return summary
        finally:
            with self._changed:
                # A side that left gets no summary line: the front shows the run's own.
                if self._summary is None:
                    self._summary = summary or {"outcome": INTERRUPTED,
                                                "reason": "the episode was stopped"}
                self._observation = None
                self._seq += 1
                self._changed.notify_all()

    def _on_message(self, message: dict[str, Any]) -> None:
        with self._changed:
            kind = message.get("type")
            if kind == "start":
                self._start = message
                self.agent.send(self._hello)
            elif kind == "observation":
                self._observation = message
                self.known.add(message)
                if self._pending is not None:
                    self._history.append((self._pending, _result_words(message)))
                    self._pending = None
            elif kind == "summary":
                self._summary = message
            self._seq += 1
            self._changed.notify_all()

    # The person's side (a front's thread).

    def view(self) -> Moment:
        """What there is to show now."""
        with self._changed:
            return Moment(self._seq, self._start, self._observation, self._summary,
                          tuple(self._history))

    def wait(self, seq: int, timeout: float) -> Moment:
        """The moment after `seq`, or the current one once `timeout` seconds have passed."""
        with self._changed:
            self._changed.wait_for(lambda: self._seq != seq, timeout)
        return self.view()

    def act(self, action: str, arguments: dict[str, Any], notes: str = "") -> bool:
        """Send one action for the turn shown; False when no turn awaits one."""
        with self._changed:
            if self._observation is None or self._summary is not None:
                return False
            self._observation = None
            self._pending = action_words(action, arguments)
            self._seq += 1
            message: dict[str, Any] = {"type": "action", "protocol_version": PROTOCOL_VERSION,
                                       "action": action, "arguments": arguments}
            if notes.strip():
                message["notes"] = notes.strip()
            self._changed.notify_all()
        return self.agent.send(message)

    def quit(self) -> None:
        """The person leaves: the episode ends as an agent gone early, and it counts."""
        self.agent.leave()


def action_words(action: str, arguments: dict[str, Any]) -> str:
    """An action as a person typed it: `go_to_object o2`, `wait seconds=0.6`."""
    parts = [action]
    for name, value in arguments.items():
        parts.append(f"{name}={value}" if not isinstance(value, str) else value)
    return " ".join(parts)


def _result_words(observation: dict[str, Any]) -> str:
    error = observation.get("error")
    if error:
        return f"rejected ({error.get('code')}): {error.get('message')}"
    result = observation.get("last_result") or {}
    return f"{result.get('end_reason')}: {result.get('detail') or ''}".strip()
