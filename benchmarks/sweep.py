"""The full sweep: every level x difficulty x 10 seeds, for each agent of AGENTS below.

Runs `harness eval` once per agent (resumable: run it again after an interruption and
finished episodes are kept), then writes every agent's table into the sweep results block of
docs/levels.md, the block tools/levels_doc.py keeps when it regenerates the page.

    python3 benchmarks/sweep.py [--seeds 10] [--jobs 2] [--out sweep] [--levels all|IDS] [--replay]
    python3 benchmarks/sweep.py --generated 10 [--templates all|NAMES]
    python3 benchmarks/sweep.py --secret-set 100 --out sweep_secret [--templates all|NAMES]

The generated mode plays level seeds 0 to N-1 of every template (`TEMPLATE@0-(N-1)`),
every difficulty, one episode seed each, and writes its table per template and
difficulty into the generated-missions block of docs/levels.md. The secret-set mode plays
a secret held-out set of N levels of every template (`TEMPLATE@secret:N`, its seeds drawn
from the suite's secret, never shown) and writes its own block; give it its own --out,
since its rows and those of the generated mode would otherwise mix. In both modes an agent
swept earlier into the same --out keeps its table or column (so `--agents greedy` adds
one agent, and `--agents random` can play fewer seeds).

Prints one JSON object: per agent, the share of episodes won and of level-difficulty
pairs cleared in at least 9 seeds out of 10 (the reference agent's bar) and in most seeds,
the mean score, and the pairs with the highest and lowest mean score.
With --replay every record is replayed too (as long again as the simulation part of the
sweep) and each agent's figures say how many records verify and which do not.

Where the greedy and random agents were both swept, it also reports, over the settings
both failed, the chance that greedy's score and its stages figure are above random's
(ties half; `harness.compare.failure_ranking`), writes it under their tables, and with
--pairs-table PATH writes those episodes as a CSV table (level, difficulty, seed, agent,
success, score, stages) that tests/test_stages_ranking.py checks.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.cli import main as harness  # noqa: E402
from harness.compare.failure_ranking import (  # noqa: E402
    FIGURES,
    chance_above,
    failed_pairs,
    table_rows,
    write_table,
)
from harness.compare.pairs import differences  # noqa: E402
from harness.compare.results import AgentKey, Episode  # noqa: E402
from harness.compare.separation import separation_lines  # noqa: E402
from harness.compare.tables import difference_tables  # noqa: E402
from harness.core.markdown_table import table_lines  # noqa: E402
from harness.core.record import RecordError  # noqa: E402
from harness.episode.replay import REPLAY_STATUSES, replay  # noqa: E402
from harness.episode.runner import UsageError  # noqa: E402
from harness.suite.report import _by_harness, markdown_table, summarise  # noqa: E402
from tools.levels_doc import (  # noqa: E402
    DOC,
    GENERATED_BEGIN,
    GENERATED_END,
    SECRET_BEGIN,
    SECRET_END,
    SWEEP_BEGIN,
    SWEEP_END,
)
from world.generate.layout import DIFFICULTIES  # noqa: E402
from world.generate.registry import GENERATOR_VERSION  # noqa: E402
from world.generate.registry import MISSION_TEMPLATES as TEMPLATES  # noqa: E402

# Agent name -> (its command, what its table says about it). Declared once: the sweep,
# its tables and its columns take the agents from here, in this order.
AGENTS: dict[str, tuple[str, str]] = {
    "reference": (f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}",
                  "the general reference agent (agents/reference_agent.py)"),
    "greedy": (f"{sys.executable} {ROOT / 'agents' / 'greedy_agent.py'}",
               "the greedy baseline (agents/greedy_agent.py)"),
    "random": (f"{sys.executable} {ROOT / 'agents' / 'random_agent.py'}",
               "the random baseline (agents/random_agent.py)"),
    "wait": (str(ROOT / "agents" / "wait_agent.sh"),
             "the wait-only baseline, which never acts (agents/wait_agent.sh)"),
}


def figures(rows: list[dict]) -> dict:
    """Headline figures of one agent's suite."""
    summaries = summarise(rows)
    pairs = len(summaries) or 1
    return {
        "episodes": len(rows),
        "success_rate": round(sum(r["success"] for r in rows) / max(len(rows), 1), 3),
        "pairs": len(summaries),
        "pairs_cleared_9_of_10": round(
            sum(s["success_rate"] >= 0.9 for s in summaries) / pairs, 3),
        "pairs_cleared_majority": round(
            sum(s["success_rate"] > 0.5 for s in summaries) / pairs, 3),
        "mean_score": round(sum(r["score"] for r in rows) / max(len(rows), 1), 3),
        # The floors are judged per pair: the pair where the agent scores best and worst.
        "best_pair": _pair(max(summaries, key=lambda s: s["score_mean"], default=None)),
        "worst_pair": _pair(min(summaries, key=lambda s: s["score_mean"], default=None)),
    }


def _pair(summary: dict | None) -> dict | None:
    if summary is None:
        return None
    return {"level": summary["level"], "difficulty": summary["difficulty"],
            "score_mean": round(summary["score_mean"], 3),
            "success_rate": round(summary["success_rate"], 3)}


SHOWN_FAILURES = 10  # records that do not verify, named in the output


def replays(rows: list[dict]) -> dict:
    """Replay every row's record: how many end in each replay status, and which fail.

    A row without a record (a harness error before the run began) counts as no_record.
    """
    counts = dict.fromkeys([*REPLAY_STATUSES, "no_record"], 0)
    failures: list[dict] = []
    for done, row in enumerate(rows, 1):
        print(f"replaying {done}/{len(rows)}", file=sys.stderr, end="\r")
        if row.get("run_dir") is None:
            counts["no_record"] += 1
            continue
        try:
            report = replay(row["run_dir"])
            status, why = report.status, report.divergence
        except (RecordError, UsageError) as exc:
            status, why = "unusable", str(exc)
        counts[status] += 1
        if status != "verified" and len(failures) < SHOWN_FAILURES:
            failures.append({"run_dir": row["run_dir"], "status": status, "why": why})
    return {"records": len(rows) - counts["no_record"], **counts, "failures": failures}


def block(tables: dict[str, list[dict]], seeds: int, levels: str = "all") -> str:
    """The Markdown written between the sweep markers."""
    which = "every level" if levels == "all" else "the levels " + ", ".join(
        f"`{name}`" for name in levels.split(","))
    parts = [f"Produced by `python3 benchmarks/sweep.py` with `harness eval`, seeds 0 to "
             f"{seeds - 1} on {which} and every difficulty."]
    for name, rows in tables.items():
        parts += ["", f"### {name.capitalize()} agent: {AGENTS[name][1]}", "",
                  markdown_table(summarise(rows)).rstrip("\n"), "", score_line(rows)]
    return "\n".join(parts + ranking_lines(tables) + separation_lines(tables)
                     + difference_block(tables))


RANKED = ("greedy", "random")  # the pair whose failures the stages figure must rank


def failure_ranking(tables: dict[str, list[dict]]) -> dict | None:
    """Over the settings greedy and random both failed: how often greedy's figures are above.

    None unless both were swept. Rows without the stages figure (swept before it
    existed) count it as 0.
    """
    if not all(name in tables for name in RANKED):
        return None
    rows = [[{"stages": 0.0, **r} for r in tables[name] if not _by_harness(r)]
            for name in RANKED]
    pairs = failed_pairs(rows[0], rows[1])
    return {"pairs": len(pairs), **{f: chance_above(pairs, f) for f in FIGURES},
            "table": table_rows(pairs, RANKED)}


def ranking_lines(tables: dict[str, list[dict]]) -> list[str]:
    """The sentence under the tables on how well the figures rank failed episodes."""
    ranking = failure_ranking(tables)
    if ranking is None or not ranking["pairs"]:
        return []
    return ["", "### Ranking failures", "",
            f"Over the {ranking['pairs']} settings (level, difficulty, seed) that the greedy "
            "and random agents both failed, greedy is above random with probability "
            f"{ranking['stages']:.2f} by the stages figure and {ranking['score']:.2f} by the "
            "score (a tie counts half; PROTOCOL.md, \"The stages figure\")."]


def difference_block(tables: dict[str, list[dict]]) -> list[str]:
    """The agents' differences, paired by setting as `harness compare` pairs them.

    Overall and per category (`harness compare` on the sweep's folders also gives them
    per level and difficulty, with charts).
    """
    if len(tables) < 2:
        return []
    keys = {name: AgentKey(name=name, version="", model="", command=AGENTS[name][0])
            for name in tables}
    episodes = [Episode(agent=keys[name], level=str(r["level"]),
                        difficulty=str(r["difficulty"]), seed=int(r["seed"]),
                        success=r["success"] is True, score=float(r["score"]),
                        decisions=int(r["decisions"]), game_time_s=float(r["game_time_s"]),
                        tokens=None, cost_usd=None)
                for name, rows in tables.items() for r in rows
                if not _by_harness(r)]  # a harness error says nothing about the agent
    shown = difference_tables({"differences": differences(episodes, list(keys.values()))})
    parts = ["", "### Differences between the agents", "",
             "First agent minus second, paired by level, difficulty and seed: success by "
             "McNemar's exact test with Newcombe's paired interval, mean score by a "
             "bootstrap over the settings (docs/commands.md, \"Comparing agents\")."]
    for table in shown[:2]:
        parts += ["", f"#### {table['title']}", "",
                  *table_lines(table["head"], table["rows"], escape=True)]
    return parts


def score_line(rows: list[dict]) -> str:
    """The suite's mean score and the pairs with the highest and lowest mean score."""
    f = figures(rows)
    best, worst = f["best_pair"], f["worst_pair"]
    if best is None or worst is None:
        return "No episodes."
    return (f"Mean score over the suite: {f['mean_score']:.3f}; highest pair mean "
            f"{best['score_mean']:.3f} ({best['level']} {best['difficulty']}), lowest "
            f"{worst['score_mean']:.3f} ({worst['level']} {worst['difficulty']}).")


def write_doc(text: str, doc: Path = DOC, begin: str = SWEEP_BEGIN, end: str = SWEEP_END,
              heading: str = "Sweep results") -> None:
    """Replace a results block of docs/levels.md (or append one) with `text`."""
    page = doc.read_text(encoding="utf-8") if doc.exists() else ""
    if begin in page and end in page:
        head, rest = page.split(begin, 1)
        tail = rest.split(end, 1)[1]
        page = f"{head}{begin}\n{text}\n{end}{tail}"
    else:
        page = f"{page.rstrip()}\n\n## {heading}\n\n{begin}\n{text}\n{end}\n"
    doc.write_text(page, encoding="utf-8")


def template_table(tables: dict[str, list[dict]]) -> list[dict]:
    """Per template and difficulty: level seeds played and each agent's wins."""
    cells: dict[tuple[str, str], dict] = {}
    for name, rows in tables.items():
        for row in rows:
            key = (str(row["level"]).split("@", 1)[0], str(row["difficulty"]))
            cell = cells.setdefault(key, {"template": key[0], "difficulty": key[1]})
            cell[f"{name}_played"] = cell.get(f"{name}_played", 0) + 1
            cell[f"{name}_won"] = cell.get(f"{name}_won", 0) + bool(row["success"])
            cell[f"{name}_score"] = cell.get(f"{name}_score", 0.0) + float(row["score"])
    order = {t: i for i, t in enumerate(TEMPLATES)}
    rank = {d["id"]: i for i, d in enumerate(DIFFICULTIES)}
    return sorted(cells.values(), key=lambda c: (order.get(c["template"], 99),
                                                 rank.get(c["difficulty"], 99)))


def generated_block(tables: dict[str, list[dict]], seeds: int, secret: bool = False) -> str:
    """The Markdown written between the generated-missions (or secret-set) markers."""
    names = list(tables)
    which = ("a secret held-out set of N levels of every template (`TEMPLATE@secret:N`, "
             "seeds drawn from the suite's secret and never shown)" if secret else
             "level seeds 0 to N-1 of every template")
    mode = "--secret-set" if secret else "--generated"
    lines = [f"Produced by `python3 benchmarks/sweep.py {mode} N` "
             f"(generator version {GENERATOR_VERSION}): {which} at every "
             "difficulty, episode seed 0, default parameters; N was "
             f"{seeds} for the last agent swept, and each column says how many it played "
             "(an agent swept earlier into the same folder keeps its column).", "",
             *table_lines(["template", "difficulty",
                           *(f"{n} wins (mean score)" for n in names)],
                          ([f"`{cell['template']}`", cell["difficulty"],
                            *(_wins_cell(cell, n) for n in names)]
                           for cell in template_table(tables)))]
    # The order of the agents' means, per template rather than per generated level.
    by_template = {n: [{**r, "level": f"`{str(r['level']).split('@', 1)[0]}`"} for r in rows]
                   for n, rows in tables.items()}
    return "\n".join(lines + separation_lines(by_template))


def _wins_cell(cell: dict, name: str) -> str:
    played = cell.get(f"{name}_played", 0)
    if not played:
        return "-"
    return f"{cell[f'{name}_won']}/{played} ({cell[f'{name}_score'] / played:.2f})"


def collect(out: Path, generated: bool) -> dict[str, list[dict]]:
    """Each agent's episodes under `out` of one mode (generated or shipped levels), in
    the order of AGENTS.

    An agent swept earlier into the same folder keeps its table or column, so one agent
    can be swept again (or added) without playing the others; episodes of the other
    mode in the same folder are left out.
    """
    tables = {}
    for name in AGENTS:
        path = out / name / "results.json"
        rows = json.loads(path.read_text())["episodes"] if path.is_file() else []
        rows = [r for r in rows if ("@" in str(r["level"])) == generated]
        if rows:
            tables[name] = rows
    return tables


def main() -> int:
    """Run each agent's suite, update the page and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="sweep", help="parent of one suite folder per agent")
    parser.add_argument("--agents", default=",".join(AGENTS), help="which agents to run")
    parser.add_argument("--no-doc", action="store_true", help="leave docs/levels.md alone")
    parser.add_argument("--replay", action="store_true",
                        help="replay every record and count those that verify")
    parser.add_argument("--levels", default="all", help="all, or level ids separated by commas")
    parser.add_argument("--generated", type=int, default=0, metavar="N",
                        help="play level seeds 0..N-1 of every template instead")
    parser.add_argument("--secret-set", type=int, default=0, metavar="N",
                        help="play a secret held-out set of N levels of every template instead")
    parser.add_argument("--templates", default="all",
                        help="with --generated or --secret-set: which templates")
    parser.add_argument("--pairs-table", default=None, metavar="PATH",
                        help="write the episodes greedy and random both failed as CSV")
    args = parser.parse_args()
    if args.secret_set:
        chosen = list(TEMPLATES) if args.templates == "all" else args.templates.split(",")
        args.levels = ",".join(f"{t}@secret:{args.secret_set}" for t in chosen)
        args.seeds = 1
    elif args.generated:
        chosen = list(TEMPLATES) if args.templates == "all" else args.templates.split(",")
        args.levels = ",".join(f"{t}@0-{args.generated - 1}" for t in chosen)
        args.seeds = 1
    unknown = sorted(set(args.agents.split(",")) - set(AGENTS))
    if unknown:
        parser.error(f"--agents: no agent named {', '.join(unknown)}; "
                     f"allowed: {', '.join(AGENTS)}")
    for name in args.agents.split(","):
        out = Path(args.out) / name
        status = harness(["eval", "--agent", AGENTS[name][0], "--seeds", str(args.seeds),
                          "--levels", args.levels,
                          "--jobs", str(args.jobs), "--out", str(out),
                          "--decision-timeout", "60", "--episode-timeout", "900"])
        if status != 0:
            return status
    tables = collect(Path(args.out), bool(args.generated or args.secret_set))
    if not args.no_doc and args.secret_set:
        write_doc(generated_block(tables, args.secret_set, secret=True), begin=SECRET_BEGIN,
                  end=SECRET_END, heading="On a secret held-out set")
    elif not args.no_doc and args.generated:
        write_doc(generated_block(tables, args.generated), begin=GENERATED_BEGIN,
                  end=GENERATED_END, heading="Generated missions")
    elif not args.no_doc:
        write_doc(block(tables, args.seeds, args.levels))
    report = {name: figures(rows) for name, rows in tables.items()}
    if args.generated or args.secret_set:
        for name in tables:
            report[name]["per_template"] = {
                t: round(sum(c[f"{name}_won"] for c in cells)
                         / max(sum(c[f"{name}_played"] for c in cells), 1), 3)
                for t in TEMPLATES
                if (cells := [c for c in template_table(tables) if c["template"] == t
                              and f"{name}_played" in c])}
    ranking = failure_ranking(tables)
    if ranking is not None:
        report["failures_ranked"] = {k: v for k, v in ranking.items() if k != "table"}
        if args.pairs_table:
            write_table(Path(args.pairs_table), ranking["table"])
    if args.replay:
        for name, rows in tables.items():
            report[name]["replay"] = replays(rows)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
