"""The procedural environments' declarations: env ids, seed splits and the curriculum.

An env id per template and kind, the seed splits a level is drawn from at each reset,
and the curriculum over difficulty.

No Gymnasium needed: the registry (`harness.rl.ENVS`) and docs/rl.md's tables read these.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.core.level_refs import UsageError, secret_member
from world.face import MISSION_TEMPLATES, TEMPLATES, GenerateError, parse_name

# The environments a template gets one procedural id for: kind -> entry point.
KINDS: dict[str, str] = {
    "Macro": "harness.rl.procedural:ProcMacroEnv",
    "Raw": "harness.rl.procedural:ProcRawEnv",
}


@dataclass(frozen=True)
class Split:
    """A published range of level seeds, or a secret held-out set.

    Attributes:
        name: The `split=` value.
        first: The first level seed of a public range (unused for a secret set).
        size: Levels in it by default (the most a public range holds).
        secret: The seeds are those of `TEMPLATE@secret:N` under the environment's secret.
        summary: What it is for (docs/rl.md's table).
    """

    name: str
    first: int
    size: int
    secret: bool
    summary: str

    def seeds(self) -> str:
        """The seeds it holds, as docs/rl.md shows them."""
        if self.secret:
            return "`TEMPLATE@secret:N` under `secret=` (N = `levels`, default 100)"
        return f"{self.first:,}–{self.first + self.size - 1:,}".replace(",", " ")


SPLITS: dict[str, Split] = {s.name: s for s in (
    Split("train", 0, 100_000, False,
          "Public: train here."),
    Split("test", 1_000_000, 1_000, False,
          "Public and disjoint from `train`: the published baselines' test levels. Being "
          "public it can be trained on, so a figure on it is held out only by the trainer's "
          "word."),
    Split("heldout", 0, 100, True,
          "Secret: the levels `harness eval --levels TEMPLATE@secret:N` plays with the same "
          "secret (a suite's `OUT/secret`), seeds drawn from it over 63 bits and never "
          "shown. Give the secret only to the evaluating process."),
)}


def env_id(kind: str, template: str) -> str:
    """`MissionHarness/<Kind>-<Template>-v0`, e.g. `MissionHarness/Macro-Maze-v0`."""
    camel = "".join(part.capitalize() for part in template.split("_"))
    return f"MissionHarness/{kind}-{camel}-v0"


@dataclass(frozen=True)
class ProcEntry:
    """One procedural env id: a kind of environment over one template."""

    kind: str
    template: str

    @property
    def env_id(self) -> str:
        """Its Gymnasium id."""
        return env_id(self.kind, self.template)

    @property
    def entry_point(self) -> str:
        """The class Gymnasium makes."""
        return KINDS[self.kind]


def procedural_entries() -> tuple[ProcEntry, ...]:
    """Every procedural env id, templates in their declared order, Macro first."""
    return tuple(ProcEntry(kind, t) for t in MISSION_TEMPLATES for kind in KINDS)


def params_text(template: str, params: Mapping[str, Any] | None) -> str:
    """The canonical `name=value&...` of template parameters (checked; "" for defaults).

    Raises:
        ValueError: An unknown template or parameter, or a value out of its range.
    """
    if template not in MISSION_TEMPLATES:
        raise ValueError(f"template: no mission template {template!r} (templates: "
                         f"{', '.join(MISSION_TEMPLATES)})")
    if params is not None and not isinstance(params, Mapping):
        raise ValueError(f"params: expected a mapping of template parameters, got "
                         f"{type(params).__name__}")
    query = "&".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in sorted((params or {}).items()))
    try:
        name = parse_name(f"{template}@0" + (f"?{query}" if query else ""), TEMPLATES)
    except GenerateError as exc:
        raise ValueError(f"params: {exc}") from None
    return name.text().partition("?")[2]


@dataclass(frozen=True)
class LevelDraw:
    """The levels one environment draws from: a template, its parameters and a split."""

    template: str
    params: str  # canonical, as params_text gives it
    split: Split
    size: int

    @classmethod
    def of(cls, template: str, params: Mapping[str, Any] | None, split: str,
           levels: int | None) -> LevelDraw:
        """Check and build; `levels` is how many of the split's levels (its first N).

        Raises:
            ValueError: Unknown split, template or parameter, or `levels` out of range.
        """
        if split not in SPLITS:
            raise ValueError(f"split: {split!r} is not one of {', '.join(SPLITS)}")
        chosen = SPLITS[split]
        size = chosen.size if levels is None else levels
        most = 100_000 if chosen.secret else chosen.size
        if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= most:
            raise ValueError(f"levels: the {split} split takes 1 to {most} levels, got "
                             f"{levels!r}")
        return cls(template, params_text(template, params), chosen, size)

    def ref(self, index: int) -> str:
        """The level reference of the split's index-th level (a generated name)."""
        query = f"?{self.params}" if self.params else ""
        if self.split.secret:
            return f"{self.template}@secret:{self.size}{query}#{index}"
        return f"{self.template}@{self.split.first + index}{query}"

    def check(self) -> None:
        """Refuse a reference that cannot resolve (only a secret set's form can fail)."""
        if self.split.secret:
            try:
                secret_member(self.ref(0))
            except UsageError as exc:
                raise ValueError(f"split: {exc}") from None


@dataclass
class Curriculum:
    """Difficulty that advances on success, never back.

    After `window` finished episodes at one difficulty with a success rate of at least
    `threshold`, the next (harder) one.
    """

    window: int = 20
    threshold: float = 0.8
    stage: int = 0
    results: deque[bool] = field(default_factory=deque)

    @classmethod
    def of(cls, given: Mapping[str, Any] | None) -> Curriculum:
        """From `curriculum={"window": W, "threshold": T}` (both optional).

        Raises:
            ValueError: An unknown key, a window under 1 or a threshold outside 0..1.
        """
        given = dict(given or {})
        unknown = sorted(set(given) - {"window", "threshold"})
        if unknown:
            raise ValueError(f"curriculum: unknown key(s) {unknown}; allowed: window, "
                             "threshold")
        made = cls(**given)
        if not isinstance(made.window, int) or isinstance(made.window, bool) \
                or made.window < 1:
            raise ValueError(f"curriculum: window must be an integer 1 or more, got "
                             f"{made.window!r}")
        if not isinstance(made.threshold, (int, float)) or not 0 <= made.threshold <= 1:
            raise ValueError(f"curriculum: threshold must be a number from 0 to 1, got "
                             f"{made.threshold!r}")
        return made

    def record(self, success: bool, stages: int) -> None:
        """Count one finished episode; advance when the window's rate is reached."""
        self.results.append(bool(success))
        if len(self.results) > self.window:
            self.results.popleft()
        if (len(self.results) == self.window and self.stage < stages - 1
                and sum(self.results) >= self.threshold * self.window):
            self.stage += 1
            self.results.clear()

    def rate(self) -> float:
        """The success rate over the current window (0 before any episode)."""
        return sum(self.results) / len(self.results) if self.results else 0.0
