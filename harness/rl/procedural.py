"""Procedural environments: a new level from a template at every reset.

`MissionHarness/<Kind>-<Template>-v0` draws it from a published split of the template's
seeds (harness.rl.proc_spec).

The level is drawn from the environment's generator, so `reset(seed=s)` names both the
level and the episode: with the same secret it plays `harness run LEVEL --seed s
--secret S`, LEVEL being `info["level"]`. A level gets its id from the secret, as
`harness run` gives it, so the id does not name its seed. Levels stay in a bounded cache
(`LEVEL_CACHE_SIZE`, least recently used dropped first), so memory stays flat over any
number of resets.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, SupportsInt

from harness.core.keys import SecretError, new_secret, parse_secret
from harness.episode.runner import UsageError, pick_difficulty, resolve_level
from harness.rl.env_base import (
    LEVEL_CACHE_SIZE,
    ActT,
    Info,
    MissionEnv,
    Observation,
    StepResult,
)
from harness.rl.macro_env import MacroEnv
from harness.rl.proc_spec import Curriculum, LevelDraw
from harness.rl.raw_env import RawEnv
from world.face import Level, seconds_to_ticks

CURRICULUM = "curriculum"


@lru_cache(maxsize=LEVEL_CACHE_SIZE)
def generated_level(ref: str, secret: bytes) -> Level:
    """A generated level (or a secret set's) with its id drawn from the secret.

    Raises:
        ValueError: The reference cannot be resolved (the harness's message).
    """
    try:
        return resolve_level(ref, secret)[0]
    except UsageError as exc:
        raise ValueError(f"level: {exc}") from None


def _secret(given: bytes | str | None, needed: bool) -> bytes | None:
    if given is None:
        if needed:
            raise ValueError("secret: split 'heldout' draws its levels from a secret; give "
                             "secret= (bytes, hex, or a secret file such as a suite's "
                             "OUT/secret), and only to the evaluating process")
        return None
    if isinstance(given, str):
        try:
            return parse_secret(given, "secret")
        except SecretError as exc:
            raise ValueError(str(exc)) from None
    return bytes(given)


class Procedural(MissionEnv[ActT]):
    """What the procedural Macro and Raw environments add: a level drawn at each reset."""

    def __init__(self, template: str = "maze", split: str = "train",
                 levels: int | None = None, params: Mapping[str, Any] | None = None,
                 difficulty: str | None = None, curriculum: Mapping[str, Any] | None = None,
                 secret: bytes | str | None = None, **kwargs: Any) -> None:
        if "level" in kwargs:
            raise ValueError("level: a procedural environment draws its level from its "
                             "split; make MissionHarness/Macro-v0 or Raw-v0 for one level")
        self.draw = LevelDraw.of(template, params, split, levels)
        self.draw.check()
        given = _secret(secret, self.draw.split.secret)
        self.curriculum: Curriculum | None = None
        self._fixed = difficulty
        if difficulty == CURRICULUM:
            self.curriculum, self._fixed = Curriculum.of(curriculum), None
        elif curriculum is not None:
            raise ValueError(f"curriculum: given, but difficulty is {difficulty!r}; set "
                             f"difficulty={CURRICULUM!r} to use it")
        # The first level is loaded before MissionEnv would make a secret: make it here.
        self.secret = new_secret() if given is None else given
        super().__init__(level=self.draw.ref(0), difficulty=self._difficulty_for(None),
                         secret=self.secret, **kwargs)
        self.level_name = self.draw.ref(0)

    def _difficulty_for(self, level: Level | None) -> str | None:
        if self.curriculum is None or level is None:
            return self._fixed
        ids = [d.id for d in level.difficulties]  # declared easiest first
        return ids[min(self.curriculum.stage, len(ids) - 1)]

    def _set_level(self, level: Any, difficulty: str | None) -> None:
        # As MissionEnv's, with the level's id drawn from this environment's secret.
        loaded = generated_level(str(level), self.secret)
        chosen = pick_or_refuse(loaded, difficulty)
        self.level, self.difficulty, self._level_ref = loaded, chosen, str(level)
        self.max_ticks = seconds_to_ticks(loaded.budgets.max_game_seconds)

    def _options(self, seed: int | None, options: dict[str, Any] | None) -> int | None:
        options = dict(options or {})
        if "level" in options:
            raise ValueError("reset options: a procedural environment draws its level; "
                             "'level' is not allowed here (difficulty and seed are)")
        if "difficulty" in options:
            # Kept for later resets; a fixed difficulty ends a curriculum.
            wanted = options.pop("difficulty")
            if wanted == CURRICULUM:
                self.curriculum = self.curriculum or Curriculum()
            else:
                pick_or_refuse(self.level, wanted)
                self.curriculum, self._fixed = None, wanted
        return super()._options(seed, options)

    def _next_level(self) -> None:
        # The generator was just seeded (reset's seed) or drew the episode seed: the
        # level drawn from it is as reproducible as the episode.
        index = int(self.np_random.integers(self.draw.size))
        ref = self.draw.ref(index)
        probe = generated_level(ref, self.secret)
        self._set_level(ref, self._difficulty_for(probe))
        self.level_name = ref

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, Info]:
        """Draw a level and start an episode; `info["level"]` names the level drawn.

        `options` may give `seed` or `difficulty` (an id or "curriculum", kept for later
        resets); `level` is refused.
        """
        obs, info = super().reset(seed=seed, options=options)
        return obs, {**info, **self._about()}

    def step(self, action: ActT) -> StepResult:
        """As the plain environment's step; an episode's end counts for the curriculum."""
        obs, reward, terminated, truncated, info = super().step(action)
        if (terminated or truncated) and self.curriculum is not None:
            self.curriculum.record(bool(info.get("success")), len(self.level.difficulties))
        return obs, reward, terminated, truncated, info

    def _about(self) -> dict[str, Any]:
        about: dict[str, Any] = {"level": self.level_name, "difficulty": self.difficulty}
        if self.curriculum is not None:
            about["curriculum_stage"] = self.curriculum.stage
        return about


def pick_or_refuse(level: Level, difficulty: str | None) -> str:
    """The difficulty to play; refuse one the template's levels do not have."""
    try:
        return pick_difficulty(level, difficulty)
    except UsageError as exc:
        raise ValueError(f"difficulty: {exc} or {CURRICULUM!r}") from None


class ProcMacroEnv(Procedural[SupportsInt], MacroEnv):
    """`MissionHarness/Macro-<Template>-v0`: Macro-v0 over a new level at each reset."""


class ProcRawEnv(Procedural[Iterable[SupportsInt]], RawEnv):
    """`MissionHarness/Raw-<Template>-v0`: Raw-v0 over a new level at each reset."""
