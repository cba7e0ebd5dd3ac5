"""CPU seconds of playing a record against replaying it (36): replay should cost no more.

Plays decision_overhead.py's fast scripted agent (one-second waits alternating with
short walks) for the whole decision budget of facility (400 decisions) with a fixed
secret, then replays the record; repeats both and prints JSON: the harness process's
CPU time (the agent's own process is not counted) of the run and of the replay, their
medians and ratio, and the share of the replay spent checking record lines against the
schemas.

    python benchmarks/replay_cost.py [--repeats N]
"""

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.decision_overhead import AGENT  # noqa: E402  the same fast agent
from harness.core.record import read_record  # noqa: E402
from harness.episode import replay as replay_module  # noqa: E402
from harness.episode.runner import run  # noqa: E402
from harness.episode.settings import RunSettings  # noqa: E402

LEVEL = "facility"
SECRET = bytes(range(32))


def _cpu(call):
    start = time.process_time()
    value = call()
    return time.process_time() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    runs, replays, checks, turns = [], [], [], 0
    # The schema check's own time, measured by wrapping the replay's line check.
    spent = [0.0]
    check = replay_module._schema_problem

    def timed_check(*args, **kwargs):
        start = time.process_time()
        try:
            return check(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - start

    replay_module._schema_problem = timed_check
    with tempfile.TemporaryDirectory() as tmp:
        agent = Path(tmp) / "fast_agent.py"
        agent.write_text(AGENT)
        for i in range(args.repeats):
            cpu, summary = _cpu(lambda i=i: run(
                LEVEL, f"{sys.executable} {agent}", seed=1, out_dir=Path(tmp) / str(i),
                settings=RunSettings(decision_timeout_s=30), secret=SECRET))
            runs.append(cpu)
            turns = len(read_record(summary["record"]).turns)
            spent[0] = 0.0
            cpu, report = _cpu(lambda s=summary: replay_module.replay(s["record"]))
            assert report.verified, report.divergence
            replays.append(cpu)
            checks.append(spent[0])
    run_s, replay_s = statistics.median(runs), statistics.median(replays)
    print(json.dumps({
        "level": LEVEL, "turns": turns, "repeats": args.repeats,
        "run_cpu_s": round(run_s, 3), "replay_cpu_s": round(replay_s, 3),
        "replay_over_run": round(replay_s / run_s, 3),
        "schema_check_share_of_replay": round(statistics.median(checks) / replay_s, 3),
        "runs_cpu_s": [round(x, 3) for x in runs],
        "replays_cpu_s": [round(x, 3) for x in replays],
    }))


if __name__ == "__main__":
    main()
