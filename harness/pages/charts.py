"""Charts of a comparison as plain inline SVG: no script, no network, the page stays one file.

Every chart is drawn from the comparison's own figures (what compare.json holds), and
every mark carries its numbers in a `<title>` (the tooltip) and `data-` attributes:

- success with its Wilson interval per agent, overall and per category;
- a heat map of success per level and difficulty (rows) and agent (columns);
- each agent's score distribution (a histogram over 0..1 with the mean marked);
- where agents reported usage, success against tokens or dollars per episode.

Text from agents (names, models) is escaped here, once, with control characters shown
as escapes, so the SVG is well-formed XML whatever an agent called itself.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from markupsafe import Markup

from harness.core.bounds import visible

WIDTH = 1100
LABEL_W = 230
ROW = 16
# Colour-blind-safe (Okabe and Ito); agents past the eighth reuse them in order.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442",
           "#000000")
FONT = 'font-family="system-ui,sans-serif" font-size="11"'


def _t(text: Any) -> str:
    return html.escape(visible(str(text)), quote=True)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _svg(title: str, height: float, body: Iterable[str], width: int = WIDTH) -> Markup:
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="chart" '
             f'viewBox="0 0 {width} {height:.0f}" width="{width}" height="{height:.0f}" '
             f'{FONT}><title>{_t(title)}</title>', *body, "</svg>"]
    return Markup("".join(parts))  # every text inside went through _t


def _colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _legend(agents: list[dict[str, Any]], y: float) -> list[str]:
    out, x = [], LABEL_W
    for i, a in enumerate(agents):
        label = _cut(a["agent"]["label"], 28)
        out.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{_colour(i)}"/>'
                   f'<text x="{x + 14}" y="{y}"><title>{_t(a["agent"]["label"])}</title>'
                   f'{_t(label)}</text>')
        x += 14 + 7 * len(label) + 18
    return out


def _axis(x0: float, width: float, top: float, bottom: float, ticks: list[tuple[float, str]]
          ) -> list[str]:
    out = []
    for frac, text in ticks:
        x = x0 + frac * width
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" '
                   f'stroke="#d8dbe0"/><text x="{x:.1f}" y="{bottom + 12}" '
                   f'text-anchor="middle">{_t(text)}</text>')
    return out


_PERCENT_TICKS = [(f / 4, f"{f * 25}%") for f in range(5)]


def success_chart(comparison: dict[str, Any]) -> Markup:
    """Success with its 95% interval: one band per group (all, then categories), a row per agent."""
    agents = comparison["agents"]
    groups: list[tuple[str, list[dict[str, Any] | None]]] = [
        ("all levels", [a["overall"] for a in agents])]
    for category in sorted({c["category"] for a in agents for c in a["categories"]}):
        groups.append((category, [next((c for c in a["categories"]
                                        if c["category"] == category), None) for a in agents]))
    plot_w = WIDTH - LABEL_W - 20
    top = 24
    band = ROW * len(agents) + 8
    height = top + band * len(groups) + 20
    body = _legend(agents, 12) + _axis(LABEL_W, plot_w, top, height - 20, _PERCENT_TICKS)
    for g, (name, figures) in enumerate(groups):
        y0 = top + g * band
        body.append(f'<text x="{LABEL_W - 8}" y="{y0 + band / 2 + 3:.1f}" text-anchor="end">'
                    f'{_t(_cut(name, 32))}</text>')
        for i, s in enumerate(figures):
            if s is None:
                continue
            y = y0 + 4 + ROW * i + ROW / 2
            low, high = s["success_ci95"]
            rate = s["success_rate"]
            tip = (f"{agents[i]['agent']['label']}, {name}: {s['successes']}/{s['episodes']} "
                   f"{rate:.0%} [{low:.0%}, {high:.0%}]")
            body.append(
                f'<g data-agent="{i}" data-group="{_t(name)}" data-rate="{rate:.4f}" '
                f'data-low="{low:.4f}" data-high="{high:.4f}"><title>{_t(tip)}</title>'
                f'<line x1="{LABEL_W + low * plot_w:.1f}" y1="{y:.1f}" '
                f'x2="{LABEL_W + high * plot_w:.1f}" y2="{y:.1f}" stroke="{_colour(i)}" '
                f'stroke-width="2"/><circle cx="{LABEL_W + rate * plot_w:.1f}" cy="{y:.1f}" '
                f'r="4" fill="{_colour(i)}"/></g>')
    return _svg("Success rate with its 95% Wilson interval, per agent and category",
                height, body)


def _heat(rate: float) -> tuple[str, str]:
    # White (0%) to a deep blue (100%); the figure's text turns white on dark cells.
    r, g, b = (round(255 + (to - 255) * rate) for to in (8, 69, 148))
    return f"rgb({r},{g},{b})", "#fff" if rate > 0.55 else "#1d2329"


def heat_map(comparison: dict[str, Any]) -> Markup:
    """Success per level and difficulty (rows) and agent (columns), the rate in each cell."""
    agents = comparison["agents"]
    rows = list(dict.fromkeys((lv["level"], lv["difficulty"])
                              for a in agents for lv in a["levels"]))
    cell_w = min(120, (WIDTH - LABEL_W - 10) // max(len(agents), 1))
    top = 34
    height = top + ROW * len(rows) + 6
    body = []
    for i, a in enumerate(agents):
        x = LABEL_W + i * cell_w + cell_w / 2
        body.append(f'<text x="{x:.1f}" y="{top - 8}" text-anchor="middle">'
                    f'<title>{_t(a["agent"]["label"])}</title>'
                    f'{_t(_cut(a["agent"]["label"], cell_w // 7))}</text>')
    for r, (level, difficulty) in enumerate(rows):
        y = top + r * ROW
        body.append(f'<text x="{LABEL_W - 8}" y="{y + 12}" text-anchor="end">'
                    f'{_t(_cut(f"{level} {difficulty}", 34))}</text>')
        for i, a in enumerate(agents):
            s = next((lv for lv in a["levels"]
                      if (lv["level"], lv["difficulty"]) == (level, difficulty)), None)
            x = LABEL_W + i * cell_w
            if s is None:
                body.append(f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{ROW - 2}" '
                            'fill="#f4f5f7"><title>not played</title></rect>')
                continue
            fill, ink = _heat(s["success_rate"])
            tip = (f"{a['agent']['label']}, {level} {difficulty}: "
                   f"{s['successes']}/{s['episodes']} {s['success_rate']:.0%}")
            body.append(f'<g data-agent="{i}" data-level="{_t(level)}" '
                        f'data-difficulty="{_t(difficulty)}" '
                        f'data-rate="{s["success_rate"]:.4f}"><title>{_t(tip)}</title>'
                        f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{ROW - 2}" '
                        f'fill="{fill}"/><text x="{x + cell_w / 2 - 1:.1f}" y="{y + 11}" '
                        f'text-anchor="middle" fill="{ink}">{s["success_rate"]:.0%}</text></g>')
    return _svg("Success per level and difficulty and agent", height, body,
                width=min(WIDTH, LABEL_W + cell_w * len(agents) + 10))


def score_chart(comparison: dict[str, Any]) -> Markup:
    """Each agent's scores as a histogram over 0..1, its mean marked with a line."""
    agents = comparison["agents"]
    plot_w = WIDTH - LABEL_W - 20
    strip = 46
    top = 8
    height = top + strip * len(agents) + 20
    body = _axis(LABEL_W, plot_w, top, height - 20, [(f / 5, f"{f / 5:.1f}") for f in range(6)])
    for i, a in enumerate(agents):
        dist = a.get("score_distribution") or {"counts": [], "edges": []}
        counts = dist["counts"]
        most = max(counts, default=0) or 1
        y0 = top + i * strip
        body.append(f'<text x="{LABEL_W - 8}" y="{y0 + strip / 2 + 3:.1f}" text-anchor="end">'
                    f'<title>{_t(a["agent"]["label"])}</title>'
                    f'{_t(_cut(a["agent"]["label"], 32))}</text>')
        bin_w = plot_w / max(len(counts), 1)
        for b, count in enumerate(counts):
            h = (strip - 8) * count / most
            low, high = dist["edges"][b], dist["edges"][b + 1]
            tip = f"{a['agent']['label']}: {count} episode(s) scored {low:.1f} to {high:.1f}"
            body.append(f'<rect x="{LABEL_W + b * bin_w + 1:.1f}" y="{y0 + strip - 4 - h:.1f}" '
                        f'width="{bin_w - 2:.1f}" height="{h:.1f}" fill="{_colour(i)}" '
                        f'data-agent="{i}" data-count="{count}"><title>{_t(tip)}</title></rect>')
        mean = a["overall"]["score_mean"]
        x = LABEL_W + min(max(mean, 0.0), 1.0) * plot_w
        body.append(f'<line x1="{x:.1f}" y1="{y0 + 2}" x2="{x:.1f}" y2="{y0 + strip - 4}" '
                    f'stroke="#1d2329" stroke-dasharray="3 2" data-agent="{i}" '
                    f'data-mean="{mean:.4f}"><title>mean score {mean:.2f}</title></line>')
    return _svg("Score distribution per agent (mean dashed)", height, body)


def cost_chart(comparison: dict[str, Any]) -> Markup | None:
    """Success against dollars (else tokens) per episode, for agents that reported usage."""
    agents = comparison["agents"]
    measures = [(key, unit, [(i, a) for i, a in enumerate(agents)
                             if a["overall"][key] is not None])
                for key, unit in (("cost_per_episode", "$ per episode"),
                                  ("tokens_per_episode", "tokens per episode"))]
    reported = [m for m in measures if m[2]]
    if not reported:
        return None
    key, unit, points = reported[0]
    most = max(a["overall"][key] for _, a in points) or 1.0
    plot_w, plot_h, top = WIDTH - LABEL_W - 40, 240, 14
    height = top + plot_h + 40
    body = _axis(LABEL_W, plot_w, top, top + plot_h,
                 [(f / 4, f"{most * f / 4:,.4g}") for f in range(5)])
    for f in range(5):
        y = top + plot_h * (1 - f / 4)
        body.append(f'<text x="{LABEL_W - 8}" y="{y + 3:.1f}" text-anchor="end">'
                    f'{f * 25}%</text>')
    body.append(f'<text x="{LABEL_W + plot_w / 2:.1f}" y="{height - 4}" '
                f'text-anchor="middle">{_t(unit)} (self-reported)</text>')
    for i, a in points:
        s = a["overall"]
        x = LABEL_W + plot_w * s[key] / most
        low, high = s["success_ci95"]
        y, y_low, y_high = (top + plot_h * (1 - v) for v in (s["success_rate"], low, high))
        tip = (f"{a['agent']['label']}: {s['success_rate']:.0%} [{low:.0%}, {high:.0%}] at "
               f"{s[key]:,.4g} {unit}")
        body.append(f'<g data-agent="{i}" data-rate="{s["success_rate"]:.4f}" '
                    f'data-usage="{s[key]:.6g}"><title>{_t(tip)}</title>'
                    f'<line x1="{x:.1f}" y1="{y_low:.1f}" x2="{x:.1f}" y2="{y_high:.1f}" '
                    f'stroke="{_colour(i)}" stroke-width="2"/><circle cx="{x:.1f}" '
                    f'cy="{y:.1f}" r="5" fill="{_colour(i)}"/><text x="{x + 8:.1f}" '
                    f'y="{y - 6:.1f}">{_t(_cut(a["agent"]["label"], 24))}</text></g>')
    return _svg(f"Success against {unit}", height, body)


def charts(comparison: dict[str, Any]) -> list[dict[str, Any]]:
    """Every chart that has figures to draw: each a title and its SVG markup."""
    out = [{"title": "Success per agent and category", "svg": success_chart(comparison)},
           {"title": "Success per level and difficulty", "svg": heat_map(comparison)},
           {"title": "Score distributions", "svg": score_chart(comparison)}]
    cost = cost_chart(comparison)
    if cost is not None:
        out.append({"title": "Success against usage per episode", "svg": cost})
    return out
