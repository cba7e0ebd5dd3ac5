"""`harness dataset RECORDS... --format chat --out DIR`: fine-tuning rows from finished runs.

Writes DIR/train.jsonl and DIR/validation.jsonl (gzip-compressed with --gzip) and a
dataset card, DIR/README.md. Every row is checked against the row schema before it is
written; a record that cannot be used (unreadable, breaking the record schemas, not
finished, not verified with --verify, or making a row that breaks the row schema) is
left out with one line on standard error.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.core.markdown_table import table_lines
from harness.core.record import Record
from harness.core.version import package_version
from harness.offline.dataset import SPLITS, Rejected, build

FORMATS = ("chat",)
LICENCE = "MIT, the harness's licence (the levels, runs and words are the project's)"
FIELDS = (
    ("messages[0]", "system: the rules, then the mission (title, brief, budgets) from start"),
    ("messages[1]", "user: the turn's text view, exactly as the agent was shown it"),
    ("messages[2]", "assistant: the agent's notes and its one tool call (arguments as JSON text)"),
    ("messages[3]", "tool: how the action ended, in one sentence (what the next turn shows)"),
    ("tools", "the start message's tools (chat-completions function definitions)"),
    ("metadata", "level, variant, difficulty, seed, turn, split, agent, outcome, score"),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("records", nargs="+", metavar="RECORDS",
                        help="run directories, record files, or folders searched for records")
    parser.add_argument("--format", choices=FORMATS, default="chat",
                        help="row format: chat (chat-completions messages with one tool call)")
    parser.add_argument("--out", required=True, help="directory to write the dataset into")
    parser.add_argument("--validation-share", type=float, default=0.2,
                        help="share of level variants held out for validation")
    parser.add_argument("--gzip", action="store_true", help="write .jsonl.gz files")
    parser.add_argument("--verify", action="store_true",
                        help="replay every record and leave out those that do not verify")


def run(args: argparse.Namespace) -> int:
    """Write the dataset; 0 when written, 2 when no record gave a row."""
    if not 0.0 <= args.validation_share <= 1.0:
        print(f"harness dataset: --validation-share {args.validation_share} is not between "
              "0 and 1", file=sys.stderr)
        return 2
    rows, used, rejected = build(args.records, args.validation_share, args.verify)
    for bad in rejected:
        print(f"harness dataset: left out {bad.line()}", file=sys.stderr)
    if not any(rows.values()):
        print("harness dataset: no finished record gave a row", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = {split: f"{split}.jsonl" + (".gz" if args.gzip else "") for split in SPLITS}
    for split in SPLITS:
        _write_rows(out / names[split], rows[split])
    (out / "README.md").write_text(card(rows, used, rejected, names, args.verify),
                                   encoding="utf-8")
    print(out)
    print(f"{len(rows['train'])} train and {len(rows['validation'])} validation rows from "
          f"{len(used)} records", file=sys.stderr)
    return 0


def _write_rows(path: Path, rows: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
    if path.suffix == ".gz":
        with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                                    mtime=0) as gz:
            gz.write(text.encode("utf-8"))  # mtime 0: the same rows give the same bytes
    else:
        path.write_text(text, encoding="utf-8")


def card(rows: Mapping[str, list[dict[str, Any]]], used: list[Record],
         rejected: list[Rejected], names: Mapping[str, str], verified: bool = False) -> str:
    """The dataset card: source, agents, counts, splits, licence and fields, in markdown."""
    agents = Counter(str((r.header.get("hello") or {}).get("name")) for r in used)
    versions = sorted({str(r.header.get("harness_version")) for r in used})
    split_rows = []
    for split in SPLITS:
        metas = [r["metadata"] for r in rows[split]]
        episodes = {(m["variant"], m["difficulty"], m["seed"], m["agent"]) for m in metas}
        variants = sorted({m["variant"] for m in metas})
        split_rows.append([f"`{names[split]}`", str(len(metas)), str(len(episodes)),
                           ", ".join(variants) or "none"])
    outcomes = Counter(str((r.end or {}).get("summary", {}).get("outcome")) for r in used)
    difficulties = sorted({str(r.header.get("difficulty")) for r in used})
    seeds = sorted({int(r.header.get("seed") or 0) for r in used})
    return "\n".join([
        "# Mission harness chat dataset", "",
        "Supervised fine-tuning rows from finished runs of the mission harness: one row per "
        "action played, in the chat-completions format (schemas/offline/chat_row.schema.json "
        "in the harness), written by `harness dataset --format chat` "
        f"(harness {package_version()}).", "",
        "## Source", "",
        f"{len(used)} run records (harness {', '.join(versions)}), {len(rejected)} left out; "
        "outcomes: " + ", ".join(f"{n} {o}" for o, n in sorted(outcomes.items())) + ".",
        "Agents: " + ", ".join(f"{name} ({n} runs)" for name, n in sorted(agents.items())) + ".",
        f"Difficulties: {', '.join(difficulties)}; episode seeds: {', '.join(map(str, seeds))}.",
        "Every record was replayed and its state hashes and summary verified." if verified
        else "The records were read as they are (not replayed: `--verify` replays them).",
        "",
        "## Splits", "",
        "By level variant (a shipped level's id, a generated level's template and level seed), "
        "split by a hash of its name: train and validation never share a variant.", "",
        *table_lines(["file", "rows", "episodes", "level variants"], split_rows, escape=True), "",
        "## Fields", "",
        *table_lines(["field", "what it holds"], [[f"`{f}`", w] for f, w in FIELDS]), "",
        "## Licence", "",
        f"{LICENCE}.", "",
    ])
