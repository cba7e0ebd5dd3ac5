"""The reference agent on the Doom missions: success over seeds, and what a decision costs.

For each mission, plays seeds 0..N-1 with the reference agent (one episode at a time,
`harness run` as a library call) and prints one JSON object: successes, mean score,
mean decisions, the harness's own time per decision (the records' `harness_ms`: the
observation built and the action run, tics included, agent time excluded) and, in the
same run, ViZDoom's raw tics per second on the same map with the same settings (state
read every tic, as the harness reads it, and not read). With --doc the table is also
written into docs/levels.md between its Doom results markers.

Usage: python benchmarks/doom_tasks.py [--seeds 10] [--tasks t17_my_way_home,...] [--jobs 2]
[--task-seeds t01_e1m1_exit=3,...] [--out DIR] [--doc]. With --jobs N, N episodes run at
once (each its own engine), so times per decision are those of N episodes sharing the
machine; the raw tics/s are measured after the episodes, one engine at a time.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gzip
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.episode import runner  # noqa: E402
from world.doom.engine import Engine, EngineSpec  # noqa: E402
from world.doom.mission import load_mission, mission_files  # noqa: E402

AGENT = f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}"
DOC = ROOT / "docs" / "levels.md"
BEGIN = ("<!-- BEGIN DOOM RESULTS: written by benchmarks/doom_tasks.py --doc; "
         "levels_doc.py keeps it -->")
END = "<!-- END DOOM RESULTS -->"


def raw_tics(mission_id: str, tics: int = 1500) -> dict[str, float]:
    """ViZDoom's tics per second on a mission's map, state read each tic and not."""
    m = load_mission(mission_id)
    out = {}
    for label, read in (("raw_tics_per_s_reading_state", True), ("raw_tics_per_s", False)):
        engine = Engine(EngineSpec(m.scenario, m.iwad, m.map, m.difficulties[0].skill,
                                   tics + 100), 0)
        game = engine.game
        start = time.perf_counter()
        for _ in range(tics):
            if game.is_episode_finished():
                game.new_episode()
            game.make_action([0.0, 0.0, 1.0, 0.0, 0.0], 1)
            if read:
                engine._read()
        out[label] = round(tics / (time.perf_counter() - start), 1)
        engine.close()
    return out


def harness_ms(record: str) -> list[float]:
    """Each turn's harness time of a record."""
    with gzip.open(record, "rt", encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh]
    return [t["harness_ms"] for t in lines if t.get("kind") == "turn" and "harness_ms" in t]


def one_episode(mission_id: str, seed: int, out_dir: str) -> tuple[dict, list[float]]:
    """One episode's summary and its turns' harness times."""
    summary = runner.run(mission_id, AGENT, seed=seed, out_dir=out_dir)
    return summary, harness_ms(summary["record"])


def seeds_per_task(spec: str, tasks: list[str]) -> dict[str, int]:
    """`t01_e1m1_exit=3,t16_map01_clear=2` as a dict of seeds per mission name.

    A name not among the tasks run is an error (a typo would silently run 10 seeds).
    """
    out = {}
    for item in filter(None, spec.split(",")):
        name, _, count = item.partition("=")
        if not count.isdigit():
            raise SystemExit(f"--task-seeds: {item!r}: expected NAME=COUNT")
        if name not in tasks:
            raise SystemExit(f"--task-seeds: {name!r} is not a task run here; "
                             f"tasks: {', '.join(tasks)}")
        out[name] = int(count)
    return out


def one_task(mission_id: str, played: list[tuple[dict, list[float]]]) -> dict:
    """The reference agent's episodes on one mission (seeds 0..N-1), summed up."""
    rows = [summary for summary, _ in played]
    times = [ms for _, turns in played for ms in turns]
    seeds = len(rows)
    return {
        "task": mission_id,
        "seeds": seeds,
        "successes": sum(bool(r["success"]) for r in rows),
        "mean_score": round(statistics.fmean(r["score"] for r in rows), 3),
        "mean_decisions": round(statistics.fmean(r["decisions"] for r in rows), 1),
        "outcomes": sorted({r["outcome"] for r in rows}),
        "harness_ms_per_decision_mean": round(statistics.fmean(times), 1) if times else None,
        "harness_ms_per_decision_p50": round(statistics.median(times), 1) if times else None,
        "load_average": round(os.getloadavg()[0], 2),
        "episodes": [{"outcome": r["outcome"], "score": r["score"], "decisions": r["decisions"],
                      "objectives": [o.get("counts") for o in r.get("objectives", [])]}
                     for r in rows],
    }


def table(results: list[dict]) -> list[str]:
    """The results as a Markdown table."""
    lines = ["| mission | successes | mean score | decisions | harness ms / decision (mean, "
             "p50) | ViZDoom tics/s (state read each tic; not read) |",
             "|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| `{r['task']}` | {r['successes']}/{r['seeds']} | {r['mean_score']} | "
                     f"{r['mean_decisions']} | {r['harness_ms_per_decision_mean']}, "
                     f"{r['harness_ms_per_decision_p50']} | "
                     f"{r['raw_tics_per_s_reading_state']}; {r['raw_tics_per_s']} |")
    return lines


def write_doc(results: list[dict], jobs: int) -> None:
    """Put the table between the Doom results markers of docs/levels.md."""
    page = DOC.read_text(encoding="utf-8")
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    at_once = "one episode at a time" if jobs <= 1 else f"{jobs} episodes at a time"
    counts = sorted({r["seeds"] for r in results})
    seeds = (f"seeds 0 to {counts[0] - 1}" if len(counts) == 1 else
             "seeds 0 to N-1 (N in the successes column)")
    note = (f"Reference agent, {seeds}, {at_once} (load average "
            f"{results[-1]['load_average']} at the end).")
    DOC.write_text(head + BEGIN + "\n" + "\n".join([note, "", *table(results)]) + "\n" + END
                   + tail, encoding="utf-8")


def main() -> int:
    """Run the benchmark and print one JSON object per mission."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--tasks", default=",".join(p.stem for p in mission_files()))
    parser.add_argument("--jobs", type=int, default=1, help="episodes run at once")
    parser.add_argument("--task-seeds", default="",
                        help="seeds for some missions, e.g. t01_e1m1_exit=3,t16_map01_clear=2")
    parser.add_argument("--out", help="keep the records here (default: a temporary folder)")
    parser.add_argument("--doc", action="store_true", help="write the table into docs/levels.md")
    args = parser.parse_args()
    names = args.tasks.split(",")
    seeds = {name: args.seeds for name in names} | seeds_per_task(args.task_seeds, names)
    missions = [f"doom:{name}" for name in names]
    results = []
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ProcessPoolExecutor(max(1, args.jobs)) as pool:
        out_dir = args.out or scratch
        # Submitted in mission order, seed order: each mission is summed up as soon as its
        # own episodes are done, while the next mission's already run.
        futures = {m: [pool.submit(one_episode, m, seed, out_dir)
                       for seed in range(seeds[m.removeprefix("doom:")])] for m in missions}
        for mission in missions:
            results.append(one_task(mission, [f.result() for f in futures[mission]]))
            print(json.dumps(results[-1]), flush=True)
    for row in results:
        # Measured once this run's episodes are done, one engine at a time.
        row.update(raw_tics(row["task"]))
        print(json.dumps(row), flush=True)
    if args.doc:
        write_doc(results, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
