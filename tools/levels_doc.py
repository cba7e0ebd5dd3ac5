"""Generate docs/levels.md from the shipped level files.

Everything on the page is read from the levels: title, brief, design note, each
difficulty with its multipliers and what it adds (objectives, characters and waves by
their lowest difficulty), and the size counts. The block between the sweep markers is
written by the sweep script; regenerating the page keeps whatever that block holds (as
it keeps the Doom results block, the hand-written Doom notes after it and the
hand-written real-model rows).

Usage:
    python3 tools/levels_doc.py            # rewrite docs/levels.md
    python3 tools/levels_doc.py --check    # exit 1 when docs/levels.md is stale
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # runs from a checkout without the package installed

from harness.core.markdown_table import table_lines  # noqa: E402
from world.doom.mission import load_mission, mission_files  # noqa: E402
from world.level.load import level_schema, load_level  # noqa: E402
from world.level.model import Difficulty, Level  # noqa: E402

LEVELS = ROOT / "levels"
DOC = ROOT / "docs" / "levels.md"
SWEEP_BEGIN = "<!-- BEGIN SWEEP RESULTS: written by the sweep script; levels_doc.py keeps it -->"
SWEEP_END = "<!-- END SWEEP RESULTS -->"
SWEEP_PLACEHOLDER = "_No sweep results yet._"
GENERATED_BEGIN = ("<!-- BEGIN GENERATED MISSIONS RESULTS: written by the sweep script's "
                   "generated mode; levels_doc.py keeps it -->")
GENERATED_END = "<!-- END GENERATED MISSIONS RESULTS -->"
SECRET_BEGIN = ("<!-- BEGIN SECRET SET RESULTS: written by the sweep script's "
                "secret-set mode; levels_doc.py keeps it -->")
SECRET_END = "<!-- END SECRET SET RESULTS -->"
DOOM_BEGIN = ("<!-- BEGIN DOOM RESULTS: written by benchmarks/doom_tasks.py --doc; "
              "levels_doc.py keeps it -->")
DOOM_END = "<!-- END DOOM RESULTS -->"
# What the figures mean, written by hand after a run; neither the benchmark's --doc nor
# this page's regeneration touches it.
DOOM_NOTES_BEGIN = "<!-- BEGIN DOOM NOTES: written by hand; levels_doc.py keeps it -->"
DOOM_NOTES_END = "<!-- END DOOM NOTES -->"
# Chat models played through agents/llm_agent.py (docs/llm.md), written by hand after a
# run: no script writes it, and this page's regeneration keeps it.
REAL_MODELS_BEGIN = "<!-- BEGIN REAL MODELS: written by hand; levels_doc.py keeps it -->"
REAL_MODELS_END = "<!-- END REAL MODELS -->"
# Season 2's mechanics (notes and keypads, issue 37) and their levels' figures, written
# by hand after a sweep of those levels alone; this page's regeneration keeps it.
SEASON2_BEGIN = "<!-- BEGIN SEASON 2: written by hand; levels_doc.py keeps it -->"
SEASON2_END = "<!-- END SEASON 2 -->"
# Measured figures of the stepwise and offline tracks (docs/tracks.md), written by hand
# after a run: no script writes it, and this page's regeneration keeps it.
TRACKS_BEGIN = "<!-- BEGIN TRACK FIGURES: written by hand; levels_doc.py keeps it -->"
TRACKS_END = "<!-- END TRACK FIGURES -->"
TRACKS_INTRO = (
    "What the stepwise track and the offline question set measured (docs/tracks.md says "
    "what they are), with the date of the run.")
REAL_MODELS_INTRO = (
    "Chat models served locally over the OpenAI-compatible API and played by "
    "`agents/llm_agent.py`; docs/llm.md says how each was served and what it did. A row "
    "is one episode, written by hand from its record (`harness replay` re-derives it).")
# People who played through `harness play` (docs/play.md), written by hand from their
# records; this page's regeneration keeps it.
HUMANS_BEGIN = "<!-- BEGIN HUMAN BASELINES: written by hand; levels_doc.py keeps it -->"
HUMANS_END = "<!-- END HUMAN BASELINES -->"
HUMANS_INTRO = (
    "People play the same episodes through `harness play LEVEL --name NAME` (a terminal, "
    "or a browser with `--web`; docs/play.md). Each run is recorded like an agent's and "
    "added to `OUT/results.json` (default `play/`), so `harness compare play eval_dir` "
    "lists each person as a row of kind human, with Wilson intervals. To contribute a "
    "baseline: play each level and difficulty of the table you compare with on its "
    "seeds (`--seed N`, the suite's secret with `--secret FILE`), check that every run "
    "replays (`harness replay play/episodes/...`), and send the folder (its run "
    "directories and results.json; keep each run's `secret` file private if the seeds "
    "are held out). Rows below are written by hand from such folders. Runs with "
    "`--reveal` are playtests: never counted, and `harness compare` refuses them.")
DOOM_INTRO = (
    "Missions played on the real Doom engine (ViZDoom, the `doom` extra: `pip install "
    "'mission-harness[doom]'`) through the same protocol: areas are the map's rooms, "
    "objectives are judged from the engine's own counters. Each is a file in "
    "world/doom/tasks/; its id is `doom:<file name>`, and an alias may name it too. "
    "Freedoom's maps (freedoom1.wad, freedoom2.wad) are under the BSD-3-Clause licence; "
    "ViZDoom's scenarios are MIT-licensed, part of ViZDoom.")
MAP_SEEDS = (0, 1)  # the seeds tools/template_maps.py draws
SWEEP_DIFFERENCES = (
    "After the agents' tables, written by the same script from the same episodes: the "
    "differences between the agents overall and per category, paired by level, "
    "difficulty and seed (docs/commands.md, \"Comparing agents: differences and charts\"): the "
    "success difference with its McNemar p-value and Newcombe interval, and the mean "
    "score difference with its bootstrap interval. A block written before the sweep "
    "script wrote differences has none: `harness compare` on the sweep's folders "
    "(`sweep/reference sweep/greedy sweep/random sweep/wait`) gives them, per level and "
    "difficulty too, with charts.")
SWEEP_STAGES = (
    "The \"mean stages\" column is the stages figure (PROTOCOL.md, \"The stages figure\"): "
    "1 on success, else the weighted share of the mission's work objectives done, an "
    "open one credited half for the furthest room reached toward its place and half for "
    "its own steps done (targets down, frags, secrets, waypoints), never harm dealt or "
    "time waited. It is shown beside the score, not inside it, to rank the episodes that "
    "did not complete; under \"Ranking failures\" the sweep gives, over the settings the "
    "greedy and random agents both failed, how often greedy is above random by each "
    "figure (a tie counts half). The tables kept in tests/data/stages/ (checked by "
    "tests/test_stages_ranking.py): on generated levels (seeds 0 to 4 of every template "
    "and difficulty, 24 settings both failed) 0.83 by stages against 0.75 by the score; "
    "on the shipped levels (the sweep below, 427 settings) 0.79 by stages and 0.81 by the "
    "score. A table swept before the figure existed has no such column.")
GENERATED_INTRO = (
    "Levels made by the mission templates (docs/templates.md lists them and their "
    "parameters; docs/missions.md, \"Generated missions\", says how to name them and keep a "
    "held-out set). Every template's seeds 0 to 199 pass `harness check` "
    "(tests/test_generate.py); the wins on fresh seeds of each agent swept (the reference "
    "agent and the greedy, random and wait-only baselines) are below.")
SWEEP_INTRO = (
    "`benchmarks/sweep.py` plays four agents: the reference agent and three baselines, "
    "the greedy script (`agents/greedy_agent.py`: goes to located targets, else the "
    "nearest unvisited way out, and fights armed hostiles in sight), the random agent and "
    "the wait-only agent. Random and wait mark the floor of the score; \"beats greedy\" is "
    "the line that means something: on a level where an agent does not beat the greedy "
    "script, it has shown nothing a 300-line script lacks. Each agent's table appears once "
    "it has been swept (an agent swept alone keeps the others' tables).")
INTRO = (
    "The levels shipped with the harness, generated from the level files by "
    "`python3 tools/levels_doc.py`; edit the levels, not this page. Each level offers "
    "three difficulties; a harder one keeps everything of the easier ones and adds "
    "objectives, characters and waves, and scales the opposition by the multipliers "
    "shown (only those that differ from the defaults)."
)
# Size columns: heading -> how to count it on a level.
SIZES = {
    "storeys": lambda lv: len(lv.storeys),
    "areas": lambda lv: len(lv.areas),
    "exits": lambda lv: len(lv.exits),
    "doors": lambda lv: sum(1 for e in lv.exits if e.kind == "door"),
    "characters": lambda lv: len(lv.characters),
    "objects": lambda lv: len(lv.objects),
    "waves": lambda lv: len(lv.waves),
}


def shipped_levels(folder: Path = LEVELS) -> list[Level]:
    """Every level file in a folder, loaded, in file-name order.

    Args:
        folder: The levels folder.

    Returns:
        The levels.
    """
    return [load_level(path) for path in sorted(folder.glob("*.json"))]


def multipliers(difficulty: Difficulty) -> str:
    """The difficulty's settings that differ from the schema defaults.

    Args:
        difficulty: One difficulty.

    Returns:
        Text such as ``enemy_health 1.3, enemy_reaction_s 0.35``, or ``defaults``.
    """
    fields = level_schema()["$defs"]["difficulty"]["properties"]
    changed = [
        f"`{name}` {getattr(difficulty, name):g}"
        for name, spec in fields.items()
        if "default" in spec and getattr(difficulty, name) != spec["default"]
    ]
    return ", ".join(changed) or "defaults"


def _plural(count: int, noun: str) -> str:
    if count == 1:
        return f"{count} {noun}"
    # English: a consonant before a final y makes -ies (ally -> allies, not allys).
    if len(noun) > 1 and noun.endswith("y") and noun[-2] not in "aeiou":
        return f"{count} {noun[:-1]}ies"
    return f"{count} {noun}s"


def cast(characters: Iterable[object]) -> str:
    """Describe characters as counts by side, kind and weapon.

    Args:
        characters: Characters or wave templates (kind, side, weapon).

    Returns:
        Text such as ``2 hostile guards (pistol), 1 friendly scientist``.
    """
    counts = Counter((c.side, c.kind, c.weapon) for c in characters)
    parts = []
    for (side, kind, weapon), n in sorted(counts.items(), key=lambda kv: str(kv[0])):
        armed = f" ({weapon})" if weapon else ""
        parts.append(f"{_plural(n, f'{side} {kind}')}{armed}")
    return ", ".join(parts)


def additions(level: Level, rank: int) -> list[str]:
    """What one difficulty adds over the easier ones, one bullet per kind of thing.

    Args:
        level: The level.
        rank: The difficulty's position, easiest 0.

    Returns:
        Markdown bullet lines (without the leading dash).
    """
    at = level.difficulty_rank
    lines = [
        f"objective ({o.kind}): {o.text}"
        for o in level.objectives
        if at(o.min_difficulty) == rank
    ]
    people = [c for c in level.characters if at(c.min_difficulty) == rank]
    if people:
        lines.append(f"characters: {cast(people)}")
    for wave in level.waves:
        if at(wave.min_difficulty) == rank:
            who = cast([wave.character])
            lines.append(f"wave at {wave.at_s:g} s: {wave.count} x {who.split(' ', 1)[1]}")
    return lines or ["nothing beyond the easier difficulties' content"]


def counted(level: Level, rank: int) -> tuple[int, int]:
    """Objectives counted and characters present at a difficulty.

    Args:
        level: The level.
        rank: The difficulty's position, easiest 0.

    Returns:
        (objectives, characters).
    """
    at = level.difficulty_rank
    return (
        sum(1 for o in level.objectives if at(o.min_difficulty) <= rank),
        sum(1 for c in level.characters if at(c.min_difficulty) <= rank),
    )


def overview(levels: list[Level]) -> list[str]:
    """The summary table: one row per level.

    Args:
        levels: The levels.

    Returns:
        Markdown lines.
    """
    head = ["level", "title", "categories", *SIZES, "objectives by difficulty"]
    rows = []
    for level in levels:
        sizes = [str(count(level)) for count in SIZES.values()]
        per = " / ".join(str(counted(level, r)[0]) for r in range(len(level.difficulties)))
        rows.append([f"[`{level.id}`](#{level.id})", level.title, ", ".join(level.categories),
                     *sizes, per])
    return table_lines(head, rows)


def section(level: Level) -> list[str]:
    """One level's section: brief, design note, difficulties and size.

    Args:
        level: The level.

    Returns:
        Markdown lines.
    """
    lines = [f'<a id="{level.id}"></a>', f"## {level.title} (`{level.id}`)", ""]
    lines += [f"**Brief.** {level.brief}", ""]
    if level.categories:
        lines += [f"**Categories.** {', '.join(level.categories)}.", ""]
    if level.design_note:
        lines += [f"**Design note.** {level.design_note}", ""]
    # The column headings are plural nouns; the singular drops the final s.
    sizes = ", ".join(_plural(count(level), name[:-1]) for name, count in SIZES.items())
    lines += [f"**Size.** {sizes}.", "", "**Difficulties.**", ""]
    for rank, difficulty in enumerate(level.difficulties):
        objectives, characters = counted(level, rank)
        lines.append(
            f"- **{difficulty.id}** ({multipliers(difficulty)}): "
            f"{_plural(objectives, 'objective')}, {_plural(characters, 'character')} at the start."
        )
        lines += [f"  - adds {item}" for item in additions(level, rank)]
    return [*lines, ""]


def sweep_block(existing: str | None, begin: str = SWEEP_BEGIN,
                end: str = SWEEP_END, empty: str = SWEEP_PLACEHOLDER) -> list[str]:
    """A results block written by the sweep script, kept from the existing page.

    Args:
        existing: The current page's text, or None.
        begin: The block's begin marker.
        end: The block's end marker.
        empty: What a page without the block gets between the markers.

    Returns:
        Markdown lines from the begin marker to the end marker.
    """
    if existing and begin in existing and end in existing:
        inner = existing.split(begin, 1)[1].split(end, 1)[0].strip("\n")
    else:
        inner = empty
    return [begin, inner, end]


def template_entries() -> list[str]:
    """One entry per mission template with the maps of two seeds.

    `python3 tools/template_maps.py` draws them.
    """
    from world.generate.registry import TEMPLATES, generate

    lines: list[str] = []
    for t in TEMPLATES.values():
        lines += [f"### Template `{t.name}`", "",
                  f"{t.kind.capitalize()}. {t.description} Parameters: "
                  f"[docs/templates.md](templates.md#{t.name}).", ""]
        for seed in MAP_SEEDS:
            storeys = [s["id"] for s in generate(f"{t.name}@{seed}").data["storeys"]]
            pictures = " ".join(f"![{t.name}@{seed}, storey {s}](maps/{t.name}_{seed}_{s}.svg)"
                                for s in storeys)
            lines += [f"`{t.name}@{seed}`: {pictures}", ""]
    return lines


def doom_entries() -> list[str]:
    """One section per Doom mission, read from its file."""
    lines: list[str] = []
    for path in mission_files():
        m = load_mission(f"doom:{path.stem}")
        engine = (f"ViZDoom scenario `{m.scenario}`" if m.scenario
                  else f"`{m.iwad}.wad`, map {m.map}")
        aliases = ", ".join(f"`{a}`" for a in m.aliases)
        lines += [f"### {m.task}: {m.title} (`{m.id}`{', also ' + aliases if aliases else ''})",
                  "", m.brief, "", f"- engine: {engine}",
                  "- difficulties: " + ", ".join(f"{d.id} (skill {d.skill})"
                                                 for d in m.difficulties),
                  f"- budgets: {m.budgets.max_decisions} decisions, "
                  f"{m.budgets.max_game_seconds:g} game seconds"]
        for n, o in enumerate(m.objectives, 1):
            args = ", ".join(f"{k}={v}" for k, v in o.verifier.items() if k != "type")
            lines.append(f"- objective {n} ({o.kind}, from {o.min_difficulty}): {o.text} "
                         f"[verifier `{o.verifier['type']}`{': ' + args if args else ''}]")
        if m.design_note:
            lines += ["", m.design_note]
        lines.append("")
    return lines


def render(levels: list[Level], existing: str | None = None) -> str:
    """The whole page.

    Args:
        levels: The levels, in the order they appear.
        existing: The current page, whose sweep results block is kept.

    Returns:
        The Markdown text.
    """
    lines = ["# Levels", "", INTRO, "", *overview(levels), ""]
    lines += ["## Sweep results", "", SWEEP_INTRO, "", SWEEP_DIFFERENCES, "", SWEEP_STAGES,
              "", *sweep_block(existing), ""]
    lines += ["### Real models", "", REAL_MODELS_INTRO, "",
              *sweep_block(existing, REAL_MODELS_BEGIN, REAL_MODELS_END, "_No runs yet._"), ""]
    lines += ["### Human baselines", "", HUMANS_INTRO, "",
              *sweep_block(existing, HUMANS_BEGIN, HUMANS_END, "_No human runs yet._"), ""]
    lines += ["## Stepwise track and offline questions", "", TRACKS_INTRO, "",
              *sweep_block(existing, TRACKS_BEGIN, TRACKS_END, "_No figures yet._"), ""]
    lines += ["## Season 2: notes and keypads", "",
              *sweep_block(existing, SEASON2_BEGIN, SEASON2_END, "_No notes yet._"), ""]
    for level in levels:
        lines += section(level)
    lines += ["## Doom missions", "", DOOM_INTRO, "",
              *sweep_block(existing, DOOM_BEGIN, DOOM_END), "",
              *sweep_block(existing, DOOM_NOTES_BEGIN, DOOM_NOTES_END, "_No notes yet._"), "",
              *doom_entries()]
    lines += ["## Generated missions", "", GENERATED_INTRO, "",
              *sweep_block(existing, GENERATED_BEGIN, GENERATED_END), "",
              "### On a secret held-out set", "",
              *sweep_block(existing, SECRET_BEGIN, SECRET_END), "",
              *template_entries()]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write docs/levels.md, or check that it is up to date.

    Args:
        argv: Command-line arguments (default: sys.argv[1:]).

    Returns:
        The exit status.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    existing = DOC.read_text(encoding="utf-8") if DOC.exists() else None
    page = render(shipped_levels(), existing)
    if args.check:
        if page != existing:
            print("docs/levels.md is stale: run python3 tools/levels_doc.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
