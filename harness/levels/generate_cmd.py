"""`harness generate TEMPLATE --seed N [--param k=v ...] --out FILE`: write a generated level."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.episode.settings import seed_number
from world.face import TEMPLATES, GenerateError, check_data, generate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("template", help=f"template name ({', '.join(TEMPLATES)}; "
                        "`harness templates` lists their parameters)")
    parser.add_argument("--seed", type=seed_number, default=0, help="level seed (default 0)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="set a template parameter (repeatable)")
    parser.add_argument("--out", help="file to write (default: <level id>.json here; "
                        "`harness check` wants the file named after the level id)")


def run(args: argparse.Namespace) -> int:
    """Write the level; 0 when written, 2 for a bad template, parameter or --out."""
    query = "&".join(args.param)
    ref = f"{args.template}@{args.seed}" + (f"?{query}" if query else "")
    try:
        made = generate(ref)
    except GenerateError as exc:
        print(f"harness generate: {exc}", file=sys.stderr)
        return 2
    report = check_data(made.data, made.name)
    if not report.ok:  # a template bug: never write a level the checker rejects
        for problem in report.problems:
            print(f"harness generate: {problem}", file=sys.stderr)
        return 1
    out = Path(args.out) if args.out else Path(f"{made.data['id']}.json")
    try:
        out.write_text(made.text(), encoding="utf-8")
    except OSError as exc:
        print(f"harness generate: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"{out}: {made.name} (level {made.data['id']}, generator version "
          f"{made.generator_version}): {report.counts.summary() if report.counts else ''}")
    return 0
