"""Wall milliseconds the harness spends per decision, excluding the agent's own time.

Plays a fast scripted agent (one-second waits alternating with short walks) on the
largest shipped level and prints JSON: median and p99 of the harness's time per
decision (protocol, validation, the action's simulation, observation, record), over
all decisions and over the one-second waits alone.
"""

import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.core.record import read_record  # noqa: E402
from harness.episode.runner import run  # noqa: E402
from harness.episode.settings import RunSettings  # noqa: E402

AGENT = r'''
import json, sys
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol_version": 1, "name": "fast", "version": "1"}),
      flush=True)
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "summary":
        break
    if m["turn"] % 2 == 0:
        a = {"action": "wait", "arguments": {"seconds": 1}}
    else:
        x, _, z = m["view"]["player"]["position"]
        a = {"action": "go_to", "arguments": {"x": x + 60, "z": z}}
    print(json.dumps({"type": "action", "protocol_version": 1, **a}), flush=True)
'''


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def main():
    level = max((ROOT / "levels").glob("*.json"), key=lambda p: p.stat().st_size)
    with tempfile.TemporaryDirectory() as tmp:
        agent = Path(tmp) / "fast_agent.py"
        agent.write_text(AGENT)
        summary = run(str(level), f"{sys.executable} {agent}", out_dir=tmp,
                      settings=RunSettings(decision_timeout_s=30))
        turns = [t for t in read_record(summary["run_dir"]).turns if t["action"]]
    all_ms = [t["harness_ms"] for t in turns]
    wait_ms = [t["harness_ms"] for t in turns if t["action"]["action"] == "wait"]
    print(json.dumps({
        "level": level.stem, "decisions": len(turns), "outcome": summary["outcome"],
        "median_ms": round(statistics.median(all_ms), 3), "p99_ms": round(pct(all_ms, 0.99), 3),
        "wait_1s_median_ms": round(statistics.median(wait_ms), 3),
        "wait_1s_p99_ms": round(pct(wait_ms, 0.99), 3),
    }))


if __name__ == "__main__":
    main()
