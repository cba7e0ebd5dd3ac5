"""The same 40-episode random-agent suite played by the local backend and by Ray.

    python3 benchmarks/ray_suite.py [--jobs 2] [--address ADDRESS]

Plays exit_switch and blue_door at easy and normal with seeds 0..9, once with
`harness eval --backend local` and once with `--backend ray` (a local Ray instance of
--jobs CPUs, or the cluster at --address), each into a fresh folder, and prints one
JSON object: both wall times (Ray's includes starting its instance), the machine's
load average before and after, and whether every episode's outcome, score and final
state hash came out the same on both.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.core.record import record_text  # noqa: E402

AGENT = f"{sys.executable} {ROOT / 'agents' / 'random_agent.py'}"
SUITE = ["--levels", "exit_switch,blue_door", "--difficulties", "easy,normal", "--seeds", "10"]


def play(backend: str, out: Path, jobs: int, address: str | None) -> tuple[float, dict]:
    """Run the suite with one backend; return its wall seconds and its episodes' results."""
    command = [sys.executable, "-m", "harness.cli", "eval", "--agent", AGENT, *SUITE,
               "--jobs", str(jobs), "--out", str(out), "--backend", backend]
    if address:
        command += ["--address", address]
    start = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        raise SystemExit(f"{backend} suite failed ({done.returncode}): {done.stderr[-2000:]}")
    rows = json.loads((out / "results.json").read_text())["episodes"]
    results = {}
    for row in rows:
        end = json.loads(record_text(Path(row["run_dir"])).splitlines()[-1])
        results[f"{row['level']}/{row['difficulty']}/s{row['seed']}"] = (
            row["outcome"], row["score"], end["final_state_hash"])
    return wall, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--address", default=None, help="a Ray cluster to use instead")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="ray-suite-") as scratch:
        local_s, local = play("local", Path(scratch) / "local", args.jobs, None)
        ray_s, on_ray = play("ray", Path(scratch) / "ray", args.jobs, args.address)
    print(json.dumps({
        "episodes": len(local), "jobs": args.jobs, "cpus": os.cpu_count(),
        "local_wall_s": round(local_s, 1), "ray_wall_s": round(ray_s, 1),
        "ray_address": args.address or "local instance",
        "same_results": local == on_ray,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }, indent=2))


if __name__ == "__main__":
    main()
