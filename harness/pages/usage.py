"""Self-reported usage: per-decision figures, running totals and plausibility warnings.

Usage is the agent's own claim. Pages show it beside the score, never inside it, and
point out figures that cannot be right. Each check is one entry of `_CHECKS`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.core.protocol import USAGE_FIELDS

FIELDS: tuple[str, ...] = tuple(USAGE_FIELDS)
_TOKENS = ("input_tokens", "output_tokens")


@dataclass(frozen=True)
class UsageReport:
    """Usage of one episode as the page shows it.

    Attributes:
        per_turn: Turn number -> the figures that turn reported (None where unknown).
        totals: Field -> the episode total, or None when no decision reported it.
        reported: Field -> how many decisions reported it.
        warnings: Plain-words reasons to doubt the figures.
    """

    per_turn: dict[int, dict[str, float | None]]
    totals: dict[str, float | None]
    reported: dict[str, int]
    warnings: tuple[str, ...]

    @property
    def any(self) -> bool:
        """Whether any decision reported any figure."""
        return any(v is not None for v in self.totals.values())


def _figure(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def turn_usage(turn: dict[str, Any]) -> dict[str, float | None]:
    """The usage figures one turn's action reported (None where absent)."""
    usage = (turn.get("action") or {}).get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return {name: _figure(usage.get(name)) for name in FIELDS}


Series = list[tuple[int, float]]  # (turn, figure) for the turns that reported it


def _negative(name: str, series: Series) -> str | None:
    bad = [t for t, v in series if v < 0]
    if bad:
        return f"{name} goes down: negative figure at turn {bad[0]}."
    return None


def _running_totals(name: str, series: Series) -> str | None:
    # Per-decision figures that always at least match the sum so far were most likely
    # sent as running totals, which the totals here would then count many times over.
    if len(series) < 4:
        return None
    done = 0.0
    for _, value in series:
        if value <= 0 or value < done:
            return None
        done += value
    return (f"{name} grows like a running total ({len(series)} decisions); the protocol asks "
            "for each decision's own figure, so the total here is likely overcounted.")


def _shrinking_totals(name: str, series: Series) -> str | None:
    # The mirror case: figures that look like running totals (each above the last)
    # but then fall back.
    for (_, before), (turn, value) in itertools.pairwise(series):
        if before > 0 and value < before * 0.5 and _ascending_before(series, turn):
            return f"{name} looks like a running total that went down at turn {turn}."
    return None


def _ascending_before(series: Series, turn: int) -> bool:
    values = [v for t, v in series if t < turn]
    return len(values) >= 3 and all(b > a for a, b in itertools.pairwise(values))


# Checks on one field's series; None when the series looks fine.
_CHECKS: tuple[Callable[[str, Series], str | None], ...] = (
    _negative, _running_totals, _shrinking_totals,
)


def _exceeds(part: float | None, whole: float | None) -> bool:
    return part is not None and whole is not None and part > whole


def _cross_checks(per_turn: dict[int, dict[str, float | None]]) -> list[str]:
    out = []
    costly = [t for t, u in per_turn.items()
              if (u["cost_usd"] or 0) > 0 and all(u[k] is None or u[k] == 0 for k in _TOKENS)]
    if costly:
        out.append(f"Cost without tokens: {len(costly)} decision(s) report dollars but no "
                   f"input or output tokens (first at turn {costly[0]}).")
    pairs = (("cached_input_tokens", "input_tokens"), ("reasoning_tokens", "output_tokens"))
    for part, whole in pairs:
        over = [t for t, u in per_turn.items() if _exceeds(u[part], u[whole])]
        if over:
            out.append(f"{part} exceeds {whole} at turn {over[0]}"
                       f"{f' and {len(over) - 1} more' if len(over) > 1 else ''}.")
    return out


def usage_report(turns: tuple[dict[str, Any], ...], end: dict[str, Any] | None) -> UsageReport:
    """Collect the usage of an episode and judge whether it is plausible.

    Args:
        turns: The record's turn lines.
        end: The record's end line, or None for an interrupted run.

    Returns:
        The report. Totals are summed from the turns (the end line's totals, written by
        the harness from the same figures, are used only to cross-check them).
    """
    per_turn = {int(t.get("turn", i)): turn_usage(t) for i, t in enumerate(turns)}
    totals: dict[str, float | None] = {}
    reported: dict[str, int] = {}
    warnings: list[str] = []
    for name in FIELDS:
        series = [(t, v) for t, u in per_turn.items() if (v := u[name]) is not None]
        reported[name] = len(series)
        totals[name] = sum(v for _, v in series) if series else None
        warnings += [w for check in _CHECKS if (w := check(name, series))]
    warnings += _cross_checks(per_turn)
    recorded = (end or {}).get("usage") or {}
    for name in FIELDS:
        said, total = _figure(recorded.get(name)), totals[name]
        if said is not None and total is not None and abs(said - total) > 1e-6 * (
                1 + abs(said)):
            warnings.append(f"The record's total {name} ({said:g}) differs from the sum of "
                            f"its turns ({total:g}).")
    return UsageReport(per_turn, totals, reported, tuple(warnings))
