"""`MissionHarness/Macro-v0`: one step is one macro action, as one turn of `harness run`.

The action is an index into `harness.rl.macro_actions.choices()`; `info["action_mask"]`
(and `action_masks()`) says which are allowed now. A choice the mask rules out still
plays as the JSON-lines track would: the world refuses it, no time passes, the step
counts as a decision and `info["error"]` says why ({} when none); too many in a row end
the episode.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import SupportsInt

import gymnasium as gym
import numpy as np

from harness.core.protocol import Fault
from harness.episode.turns import TurnState
from harness.rl import macro_actions, macro_obs
from harness.rl.env_base import Info, MissionEnv, Observation, StepResult
from harness.rl.reward import RewardChoice
from harness.rl.views import observation
from world.face import TICKS_PER_SECOND


class Frozen(Mapping[str, object]):
    """A read-only mapping over message data (`dict(...)` copies it).

    Vector copies merge info dicts key by key, and nested dicts whose keys differ
    between copies (a view with an exit and one without) break that merge; a mapping
    that is not a dict is kept whole, one per copy, and pickles across processes.
    """

    def __init__(self, data: Mapping[str, object]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> object:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Frozen({self._data!r})"


_frozen = Frozen


class MacroEnv(MissionEnv[SupportsInt]):
    """Macro actions over the structured view; see docs/rl.md."""

    def __init__(self, level: str = "exit_switch", difficulty: str | None = None,
                 reward: RewardChoice = "score", render_mode: str | None = None,
                 secret: bytes | None = None) -> None:
        super().__init__(level, difficulty, reward, render_mode, secret)
        self.choices = macro_actions.choices()
        self.action_space = gym.spaces.Discrete(len(self.choices))
        self.observation_space = macro_obs.observation_space()
        self.turn_state = TurnState()

    def _first_observation(self) -> tuple[Observation, Info]:
        self.turn_state = TurnState()
        return self._observe({})

    def step(self, action: SupportsInt) -> StepResult:
        """Play one macro action; returns (observation, reward, terminated, truncated, info)."""
        self._check_running()
        index = int(action)
        if not 0 <= index < len(self.choices):
            raise ValueError(f"action: {index} is not in 0..{len(self.choices) - 1}")
        choice = self.choices[index]
        arguments = macro_actions.decode(choice, self._rows, self._view)
        message = {"action": choice.action, "arguments": arguments or {}}
        st = self.turn_state
        # As `harness.episode.live`: one world step a decision (none runs for an empty slot,
        # an invalid action like a refusal: no tick passes).
        empty = None if arguments is not None else Fault(
            "unknown_id", f"{choice.label()}: that slot is empty")
        turn = self.live.step(None if empty is not None else message)
        fault = st.count(turn, empty)
        st.turn += 1
        self.decisions, self.invalid_in_a_row = st.decisions, st.invalid_in_a_row
        reward, terminated, truncated, info = self._judge(turn)
        error = None if fault is None else fault.to_dict()
        info.update(action=_frozen(message), error=_frozen(error or {}),
                    result=_frozen(st.last_result or {}))
        obs, more = self._observe(info)
        return obs, reward, terminated, truncated, more

    def _observe(self, info: Info) -> tuple[Observation, Info]:
        message = observation(self, self.turn_state)
        self._view = message["view"]
        self._rows = macro_actions.slot_rows(self._view)
        budgets = self.level.budgets
        obs = macro_obs.observe(
            self._view, self._rows,
            min(1.0, self.live.turn.tick / TICKS_PER_SECOND / budgets.max_game_seconds),
            min(1.0, self.decisions / budgets.max_decisions))
        self._mask = np.array(macro_actions.mask(self._rows, self._view), dtype=np.int8)
        info = dict(info, action_mask=self._mask, view=_frozen(self._view),
                    text=message["text"],
                    seed=self.seed_used)
        info.setdefault("tick", self.live.tick)
        return obs, info

    def action_masks(self) -> np.ndarray:
        """The current action mask (the name sb3-contrib's MaskablePPO asks for)."""
        return self._mask
