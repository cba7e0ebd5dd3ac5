"""Draw two seeds' maps of every mission template into docs/maps/ for docs/levels.md.

The run page's map code draws them (harness/pages/map_svg.py and its `_map.svg.j2`).

    python3 tools/template_maps.py

Writes `docs/maps/<template>_<seed>_<storey>.svg` for seeds MAP_SEEDS, hard difficulty
(every character present), as the level starts.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # runs from a checkout as it is

from harness.pages.endstate import end_state  # noqa: E402
from harness.pages.map_svg import build_maps  # noqa: E402
from harness.pages.render import render  # noqa: E402
from tools.levels_doc import MAP_SEEDS  # noqa: E402
from world.generate.registry import TEMPLATES, generate  # noqa: E402
from world.level.load import parse_level  # noqa: E402
from world.observe.ids import IdMap  # noqa: E402
from world.observe.plan import level_plan  # noqa: E402

MAPS = ROOT / "docs" / "maps"
CSS = ROOT / "harness" / "pages" / "templates" / "_episode.css.j2"
# The page's map rules are the ones that name map classes; a standalone SVG carries them.
_MAP_RULE = re.compile(r"^(svg\.map \*|\.(area|hazard|stairs|exit|gap|window|door-|"
                       r"hidden-exit|labels|obj|char|start))")


def map_files(template: str, seed: int) -> dict[Path, str]:
    """One standalone SVG per storey of a template's seed."""
    made = generate(f"{template}@{seed}")
    level = parse_level(made.data, made.name)
    plan = level_plan(level, "hard", IdMap(level, 0))  # the map a record's header carries
    maps = build_maps(plan, end_state(plan, ()), [], [])
    style = "\n".join(line for line in CSS.read_text(encoding="utf-8").splitlines()
                      if _MAP_RULE.match(line))
    out = {}
    for m in maps:
        figure = render("_map.svg.j2", m=m)
        svg = figure[figure.index("<svg"):figure.rindex("</svg>") + len("</svg>")]
        svg = svg.replace(">", f' width="640"><style>svg{{background:#e9ecef}}\n{style}</style>',
                          1)
        out[MAPS / f"{template}_{seed}_{m.id}.svg"] = svg + "\n"
    return out


def main() -> int:
    """Write every map; print how many."""
    MAPS.mkdir(parents=True, exist_ok=True)
    written = 0
    for template in TEMPLATES:
        for seed in MAP_SEEDS:
            for path, text in map_files(template, seed).items():
                path.write_text(text, encoding="utf-8")
                written += 1
    print(f"{written} maps in {MAPS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
