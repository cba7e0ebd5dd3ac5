"""The messages the harness sends: start, and one observation per turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from harness.core.game import Game, Turn
from harness.core.messages import (
    ObservationMessage,
    ObservationMessageError,
    ObservationMessageStepwise,
    StartMessage,
    StartMessageStepwise,
    StartMessageToolsItem,
)
from harness.core.protocol import PROTOCOL_VERSION, Fault
from harness.episode.text_view import render_text_view
from world.face import TICKS_PER_SECOND, catalog

if TYPE_CHECKING:
    from harness.episode.live import EpisodeSpec
    from harness.episode.subtask import Limits

# The last result as the agent sees it; the record keeps the full result.
_PUBLIC_RESULT_KEYS = ("action", "end_reason", "ticks", "distance_moved", "detail", "changes",
                       "door")


def _public_result(last: dict[str, Any]) -> dict[str, Any]:
    # `read` (protocol version 2) appears only when a note was read, so that results on
    # levels without notes stay as version 1 wrote them.
    public = {k: last.get(k) for k in _PUBLIC_RESULT_KEYS}
    return public | ({"read": last["read"]} if last.get("read") else {})


@dataclass
class TurnState:
    """Counters and carry-over between turns of one episode."""

    turn: int = 0
    decisions: int = 0
    invalid: int = 0
    invalid_in_a_row: int = 0
    last_result: dict[str, Any] | None = None
    error: ObservationMessageError | None = None
    warnings: list[dict[str, str]] = field(default_factory=list)

    def count(self, turn: Turn | None, fault: Fault | None = None) -> Fault | None:
        """Count one decision: the world's step (None: none ran) and the harness's fault.

        Returns:
            The turn's fault (the harness's, else the world's refusal), or None.
        """
        self.decisions += 1
        if fault is None and turn is not None and turn.fault is not None:
            fault = Fault(turn.fault.code, turn.fault.message)
        if fault is not None:
            self.error, self.last_result = fault.to_dict(), None
            self.invalid += 1
            self.invalid_in_a_row += 1
            return fault
        self.error, self.invalid_in_a_row = None, 0
        self.last_result = None if turn is None else turn.result
        return None


def start_message(spec: EpisodeSpec, game: Game, limits: Limits,
                  stepwise: StartMessageStepwise | None = None) -> StartMessage:
    """The start message for an episode.

    Args:
        spec: The episode.
        game: Its game.
        limits: The decision and game-time limits in force at the start.
        stepwise: The chain of a stepwise episode (`ChainPlan.start_block`), or None.

    Returns:
        The message, valid against schemas/messages/start.schema.json.
    """
    level, s = spec.level, spec.settings
    message: StartMessage = {
        "type": "start",
        "protocol_version": PROTOCOL_VERSION,
        "level": level.id,
        "title": level.title,
        "difficulty": spec.difficulty,
        "seed": spec.seed,
        "brief": level.brief,
        "budgets": {
            "max_decisions": limits.max_decisions,
            "max_game_seconds": limits.max_game_seconds,
            "hello_timeout_s": s.hello_timeout_s,
            "decision_timeout_s": s.decision_timeout_s,
            "episode_timeout_s": s.episode_timeout_s,
            "max_invalid_in_a_row": s.max_invalid_in_a_row,
            "max_line_bytes": s.max_line_bytes,
        },
        "units": {
            "distance": "world units, about 100 to a metre",
            "axes": "x and z span the ground, y is up",
            "angles": "degrees, 0 along +x, counter-clockwise towards +z",
            "ticks_per_second": TICKS_PER_SECOND,
            "action_time_cap_s": catalog().time_cap_s,
        },
        # Each action's definition is declared in schemas/actions.json, which the start
        # schema checks.
        "tools": [cast(StartMessageToolsItem, a.tool_definition())
                  for a in spec.track.actions()],
        "track": spec.track.start_block(),
    }
    if spec.origin is not None:
        message["origin"] = {"tick": spec.origin.tick,
                             "objectives_done": list(spec.origin.objectives_done),
                             "reason": spec.origin.reason}
    if stepwise is not None:
        message["stepwise"] = stepwise
    return message


def observation_message(
    spec: EpisodeSpec, game: Game, state: TurnState, wall_left_s: float, limits: Limits,
    stepwise: ObservationMessageStepwise | None = None,
) -> ObservationMessage:
    """The observation for the current turn, both views included.

    Args:
        spec: The episode.
        game: The game at this moment (its latest turn is the observation's moment).
        state: Counters and the previous turn's result, error and warnings.
        wall_left_s: Wall-clock seconds left in the episode.
        limits: The decision and game-time limits in force.
        stepwise: A stepwise episode's state (`ChainRun.observation_block`), or None.

    Returns:
        The message, valid against schemas/messages/observation.schema.json.
    """
    last = state.last_result
    now = game.turn
    # The view and the result are the world's plain data and the track adds its own block,
    # so the message is declared, not inferred: the TypedDict is written from the schema
    # that tests/test_replay.py and tests/test_protocol_example.py hold real messages to.
    message = cast(ObservationMessage, {
        "type": "observation",
        "protocol_version": PROTOCOL_VERSION,
        "turn": state.turn,
        "tick": now.tick,
        "time_s": round(now.tick / TICKS_PER_SECOND, 3),
        "view": now.view,
        "last_result": None if last is None else _public_result(last),
        "budgets": {
            "decisions_left": limits.max_decisions - state.decisions,
            "game_seconds_left": round(limits.seconds_left(now.tick), 3),
            "episode_wall_s_left": round(max(0.0, wall_left_s), 1),
            "decision_timeout_s": spec.settings.decision_timeout_s,
            "invalid_in_a_row": state.invalid_in_a_row,
            "max_invalid_in_a_row": spec.settings.max_invalid_in_a_row,
        },
        "error": state.error,
        "warnings": list(state.warnings),
        **spec.track.observation_extra(game),
        **({"stepwise": stepwise} if stepwise is not None else {}),
    })
    message["text"] = render_text_view(message)
    return message
