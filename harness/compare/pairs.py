"""Is agent A better than agent B, where, and is the difference real: paired differences.

Two suites that played the same settings (level, difficulty, seed) are compared pair by
pair, since the same setting played by both agents cancels out how hard that setting is:

- success: McNemar's exact test on the discordant pairs (one agent succeeded, the other
  did not), with Newcombe's interval for the difference of paired proportions (his
  method 10: Wilson intervals of both rates joined with the pairs' correlation);
- mean score: a bootstrap over the settings (the pairs resampled together, a fixed seed,
  the percentile interval).

A group (overall, a category, a level and difficulty) is compared on the settings both
agents played once, so a suite cut short or run on fewer levels is compared like for
like; the episodes of one agent only are left out and counted. When no setting pairs,
or fewer than MIN_BOOTSTRAP do while others are left out (other seeds, a setting played
twice by one agent), the group falls back to the two-sample intervals over every
episode, and says so: Newcombe's hybrid score interval for success and a two-sample
bootstrap for the score. A difference is significant when its test's
p-value (McNemar's) is under 0.05, or when its 95% interval leaves out zero.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import numpy as np

from harness.compare.results import (
    AgentKey,
    Episode,
    _order,
    compare,
    level_categories,
    wilson_interval,
)

ALPHA = 0.05
BOOTSTRAP_RESAMPLES = 4000
# Fixed, so the same suites give the same intervals on every machine and every run.
BOOTSTRAP_SEED = 20260101
# Below this many settings (or episodes per agent) a bootstrap interval is printed but
# never called significant: a handful of values resamples into a falsely narrow interval.
MIN_BOOTSTRAP = 5
PAIRED = "paired"
UNPAIRED = "unpaired"

Setting = tuple[str, str, int]


def mcnemar_exact(first_only: int, second_only: int) -> float:
    """McNemar's exact two-sided p-value from the two discordant counts.

    Under no difference each discordant pair is a fair coin: the p-value is twice the
    binomial tail of the smaller count (capped at 1), and 1 when no pair is discordant.
    """
    n = first_only + second_only
    if n == 0:
        return 1.0
    k = min(first_only, second_only)
    # Binomial coefficients built one from the last, divided as exact integers: no float
    # overflow however many pairs.
    term, total = 1, 0
    for i in range(k + 1):
        total += term
        term = term * (n - i) // (i + 1)
    tail = total / (1 << n)
    return min(1.0, 2 * tail)


def paired_interval(both: int, first_only: int, second_only: int, neither: int
                    ) -> tuple[float, float]:
    """Newcombe's 95% interval for p1 - p2 of paired proportions (1998, method 10).

    Args:
        both: Pairs where both succeeded.
        first_only: Pairs where only the first succeeded.
        second_only: Pairs where only the second succeeded.
        neither: Pairs where both failed.
    """
    n = both + first_only + second_only + neither
    if n == 0:
        return -1.0, 1.0
    p1, p2 = (both + first_only) / n, (both + second_only) / n
    l1, u1 = wilson_interval(both + first_only, n)
    l2, u2 = wilson_interval(both + second_only, n)
    spread = ((both + first_only) * (second_only + neither) * (both + second_only)
              * (first_only + neither))
    cross = both * neither - first_only * second_only
    # The correlation of the pairs, shrunk towards zero by n/2 when positive (Newcombe).
    corrected = cross - n / 2 if cross > n / 2 else (cross if cross < 0 else 0.0)
    phi = corrected / math.sqrt(spread) if spread > 0 else 0.0
    d = p1 - p2
    low = d - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2)
                            + (u2 - p2) ** 2))
    high = d + math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1)
                             + (u1 - p1) ** 2))
    return max(-1.0, low), min(1.0, high)


def unpaired_interval(wins1: int, n1: int, wins2: int, n2: int) -> tuple[float, float]:
    """Newcombe's 95% hybrid score interval for p1 - p2 of independent proportions."""
    p1, p2 = wins1 / max(n1, 1), wins2 / max(n2, 1)
    l1, u1 = wilson_interval(wins1, n1)
    l2, u2 = wilson_interval(wins2, n2)
    d = p1 - p2
    return (max(-1.0, d - math.hypot(p1 - l1, u2 - p2)),
            min(1.0, d + math.hypot(u1 - p1, p2 - l2)))


def _percentiles(means: np.ndarray) -> tuple[float, float]:
    low, high = np.quantile(means, [ALPHA / 2, 1 - ALPHA / 2])
    return float(low), float(high)


def paired_bootstrap(differences: list[float]) -> tuple[float, float]:
    """The 95% percentile interval of the mean of per-setting differences."""
    d = np.asarray(differences, dtype=float)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    picks = rng.integers(0, len(d), size=(BOOTSTRAP_RESAMPLES, len(d)))
    return _percentiles(d[picks].mean(axis=1))


def two_sample_bootstrap(first: list[float], second: list[float]) -> tuple[float, float]:
    """The 95% percentile interval of mean(first) - mean(second), each resampled alone."""
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    means_a = a[rng.integers(0, len(a), size=(BOOTSTRAP_RESAMPLES, len(a)))].mean(axis=1)
    means_b = b[rng.integers(0, len(b), size=(BOOTSTRAP_RESAMPLES, len(b)))].mean(axis=1)
    return _percentiles(means_a - means_b)


SCORE_BINS = 10


def score_distribution(scores: list[float]) -> dict[str, list[Any]]:
    """How many scores fall in each tenth of 0..1 (a score of exactly 1 in the last).

    Returns:
        edges (SCORE_BINS + 1 of them) and counts (SCORE_BINS).
    """
    counts = [0] * SCORE_BINS
    for score in scores:
        if not math.isfinite(score):
            continue  # no tenth holds it; the tables say what is wrong with such a row
        counts[min(SCORE_BINS - 1, max(0, int(score * SCORE_BINS)))] += 1
    return {"edges": [round(b / SCORE_BINS, 2) for b in range(SCORE_BINS + 1)],
            "counts": counts}


def _excludes_zero(interval: tuple[float, float]) -> bool:
    return interval[0] > 0 or interval[1] < 0


def _by_setting(episodes: list[Episode]) -> dict[Setting, list[Episode]]:
    out: dict[Setting, list[Episode]] = {}
    for e in episodes:
        out.setdefault((e.level, e.difficulty, e.seed), []).append(e)
    return out


def _pairs(first: list[Episode], second: list[Episode]
           ) -> list[tuple[Episode, Episode]] | None:
    """The settings both played once, paired; None when there are too few to pair.

    Too few: none, or fewer than MIN_BOOTSTRAP while other episodes are left out (other
    seeds, a setting played twice by one agent), where a handful of pairs would stand
    for many episodes.
    """
    a, b = _by_setting(first), _by_setting(second)
    shared = sorted(k for k in a.keys() & b.keys() if len(a[k]) == 1 and len(b[k]) == 1)
    whole = len(shared) == len(first) == len(second)
    if not shared or (len(shared) < MIN_BOOTSTRAP and not whole):
        return None
    return [(a[k][0], b[k][0]) for k in shared]


def difference(first: list[Episode], second: list[Episode]) -> dict[str, Any]:
    """The difference first - second in success rate and mean score, with its test.

    Returns:
        method ("paired" or "unpaired"), settings (pairs, or None when unpaired),
        episodes ([first's, second's]), left_out (each one's episodes without a
        partner, paired only), and for success and score: difference, ci95,
        significant, how (the method in words); success also p_value (McNemar's, paired
        only) and discordant ([first only, second only], paired only).
    """
    pairs = _pairs(first, second)
    if pairs is not None:
        both = sum(1 for a, b in pairs if a.success and b.success)
        only1 = sum(1 for a, b in pairs if a.success and not b.success)
        only2 = sum(1 for a, b in pairs if b.success and not a.success)
        p_value = mcnemar_exact(only1, only2)
        scores = [a.score - b.score for a, b in pairs]
        score_ci = paired_bootstrap(scores)
        return {
            "method": PAIRED, "settings": len(pairs), "episodes": [len(first), len(second)],
            # Episodes of one agent only (its extra levels or seeds): not in the pairs.
            "left_out": [len(first) - len(pairs), len(second) - len(pairs)],
            "success": {"difference": (only1 - only2) / len(pairs),
                        "ci95": list(paired_interval(both, only1, only2,
                                                     len(pairs) - both - only1 - only2)),
                        "p_value": p_value, "discordant": [only1, only2],
                        "significant": p_value < ALPHA,
                        "how": "McNemar's exact test, Newcombe's paired interval"},
            "score": {"difference": float(np.mean(scores)), "ci95": list(score_ci),
                      "significant": len(pairs) >= MIN_BOOTSTRAP and _excludes_zero(score_ci),
                      "how": "paired bootstrap over settings"},
        }
    wins1, wins2 = sum(e.success for e in first), sum(e.success for e in second)
    n1, n2 = len(first), len(second)
    success_ci = unpaired_interval(wins1, n1, wins2, n2)
    s1, s2 = [e.score for e in first], [e.score for e in second]
    score_ci = two_sample_bootstrap(s1, s2)
    return {
        "method": UNPAIRED, "settings": None, "episodes": [n1, n2], "left_out": [0, 0],
        "success": {"difference": wins1 / n1 - wins2 / n2, "ci95": list(success_ci),
                    "p_value": None, "discordant": None,
                    "significant": _excludes_zero(success_ci),
                    "how": "settings not paired: Newcombe's two-sample interval"},
        "score": {"difference": float(np.mean(s1) - np.mean(s2)), "ci95": list(score_ci),
                  "significant": min(n1, n2) >= MIN_BOOTSTRAP and _excludes_zero(score_ci),
                  "how": "settings not paired: two-sample bootstrap"},
    }


def _groups(episodes: Iterable[Episode], key: Callable[[Episode], Iterable[Hashable]]
            ) -> dict[Any, list[Episode]]:
    out: dict[Any, list[Episode]] = {}
    for e in episodes:
        for k in key(e):
            out.setdefault(k, []).append(e)
    return out


def _who(agent: AgentKey) -> dict[str, str]:
    return {"label": agent.label, "command": agent.command}


def differences(episodes: list[Episode], agents: list[AgentKey]) -> list[dict[str, Any]]:
    """Every pair of agents (in the given order, first minus second), compared.

    Returns:
        Per pair: first and second (label and command), overall, categories and levels (each a
        `difference`, for the groups both agents played, in the comparison's order).
    """
    mine = _groups(episodes, lambda e: [e.agent])
    # Each level file read once, not once per episode and pair.
    categories = {level: level_categories(level) for level in {e.level for e in episodes}}
    out = []
    for i, first in enumerate(agents):
        for second in agents[i + 1:]:
            a, b = mine.get(first, []), mine.get(second, [])
            if not a or not b:
                continue
            cats_a = _groups(a, lambda e: categories[e.level])
            cats_b = _groups(b, lambda e: categories[e.level])
            levels_a = _groups(a, lambda e: [(e.level, e.difficulty)])
            levels_b = _groups(b, lambda e: [(e.level, e.difficulty)])
            out.append({
                "first": _who(first), "second": _who(second),
                "overall": difference(a, b),
                "categories": [{"category": c, **difference(cats_a[c], cats_b[c])}
                               for c in sorted(cats_a) if c in cats_b],
                "levels": [{"level": lv, "difficulty": d,
                            **difference(levels_a[(lv, d)], levels_b[(lv, d)])}
                           for lv, d in sorted(levels_a, key=_order) if (lv, d) in levels_b],
            })
    return out


def full_comparison(episodes: list[Episode], harness_errors: int = 0) -> dict[str, Any]:
    """`harness.compare.results.compare`, with each agent's score distribution and the differences.

    Returns:
        The comparison's plain JSON data; each agent also has score_distribution, and
        differences holds every pair of agents (`differences`), in the agents' order.
    """
    out = compare(episodes, harness_errors)
    keys = sorted({e.agent for e in episodes})  # the order of out["agents"]
    for entry, key in zip(out["agents"], keys, strict=True):
        entry["score_distribution"] = score_distribution(
            [e.score for e in episodes if e.agent == key])
    out["differences"] = differences(episodes, keys)
    return out
