"""Rebuild the shipped question set, quiz/questions.json.gz, from the reference agent's play.

Plays every shipped level at every difficulty with seed 0 (`harness eval`), builds the
questions from those records (`harness quiz build`, which also fails when a blind
answerer is off chance on some kind) and checks every answer key against them
(`harness quiz check`). The suite is played under a fixed, public secret (`SECRET`),
the reference agent is deterministic and a record's play hash leaves wall-clock figures
out, so the rebuilt file is the same byte for byte.

Usage:
    python3 tools/build_quiz.py                  # rewrite quiz/questions.json.gz
    python3 tools/build_quiz.py --runs DIR       # keep the records in DIR
    python3 tools/build_quiz.py --records DIR    # build from a suite already played there
    python3 tools/build_quiz.py --check          # exit 1 when the shipped file differs
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUIZ = ROOT / "quiz" / "questions.json.gz"
AGENT = "python3 agents/reference_agent.py"
# The episodes' secret (harness/core/keys.py), fixed and public so that the set rebuilds byte
# for byte: the quiz is answered offline, so nothing is protected by keeping it.
SECRET = "6d697373696f6e2d6861726e6573732071756978207365742076312e30302e30"


def harness(*words: str) -> None:
    """Run one harness command from the checkout; stop on failure."""
    done = subprocess.run([sys.executable, "-m", "harness.cli", *words], cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"harness {' '.join(words[:2])} failed with status {done.returncode}")


def main() -> int:
    """Play, build, check; with --check compare with the shipped file instead of writing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", help="folder for the records (default: a temporary one)")
    parser.add_argument("--records", help="a suite folder already played by this script's "
                        "eval (its episodes/); nothing is played again")
    parser.add_argument("--jobs", default="2", help="episodes played at once (default 2)")
    parser.add_argument("--check", action="store_true",
                        help="build aside and exit 1 when it differs from the shipped file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="quiz-") as scratch:
        runs = Path(args.runs) if args.runs else Path(scratch) / "runs"
        out = Path(scratch) / QUIZ.name if args.check else QUIZ
        out.parent.mkdir(parents=True, exist_ok=True)
        if args.records:
            runs = Path(args.records)
        else:
            runs.mkdir(parents=True, exist_ok=True)
            if not (runs / "secret").exists():
                (runs / "secret").write_text(SECRET + "\n", encoding="ascii")
            harness("eval", "--agent", AGENT, "--levels", "all", "--difficulties", "all",
                    "--seeds", "1", "--jobs", args.jobs, "--out", str(runs))
        harness("quiz", "build", str(runs / "episodes"), "--out", str(out))
        harness("quiz", "check", str(out), str(runs / "episodes"))
        if args.check and out.read_bytes() != QUIZ.read_bytes():
            print(f"{QUIZ.relative_to(ROOT)} differs from a fresh build", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
