"""`harness check LEVEL...`: validate levels (files, ids, generated names, Doom missions).

Prints one ``FILE: JSON.PATH: what is wrong`` line per problem and one count line per
good file; exits 1 when any file has a problem.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from world.face import (
    LEVELS_DIR,
    TEMPLATES,
    CheckReport,
    GenerateError,
    LevelProblem,
    check_data,
    check_level,
    check_mission,
    generate,
    is_doom,
    is_generated,
    mission_ref,
    parse_names,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments.

    Args:
        parser: The subcommand's parser.
    """
    parser.add_argument(
        "levels",
        metavar="LEVEL",
        nargs="+",
        help="level files, directories meaning every *.json file in them, shipped level ids, "
             "or generated names TEMPLATE@SEED[?name=value&...] (ranges TEMPLATE@A-B too)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON document with every report"
    )


def level_files(names: list[str]) -> list[Path | str]:
    """Expand directories into their *.json files and shipped level ids into their files.

    Generated names stay names, a range expanded into one name per seed; Doom missions
    (`doom:NAME`, or a shipped mission's file) become their `doom:` ids.

    Args:
        names: Files, directories and level ids as given.

    Returns:
        The files to check, directories' in name order (missing files stay, so they
        are reported).
    """
    files: list[Path | str] = []
    for name in names:
        path = Path(name)
        doom = name if is_doom(name) else mission_ref(path)
        if doom is not None:
            files.append(doom)  # a Doom mission, checked with the map it names
            continue
        if is_generated(name) and not path.exists():
            files.extend(_generated_names(name))
            continue
        shipped = LEVELS_DIR / f"{name}.json"
        if path.is_dir():
            files.extend(sorted(path.glob("*.json")))
        elif not path.exists() and "/" not in name and shipped.is_file():
            files.append(shipped)  # a level id, as `harness run` takes it
        else:
            files.append(path)
    return files


def _as_json(report: CheckReport) -> dict[str, object]:
    return {
        "file": report.file,
        "ok": report.ok,
        "problems": [dataclasses.asdict(p) for p in report.problems],
        "counts": dataclasses.asdict(report.counts) if report.counts else None,
    }


def _generated_names(ref: str) -> list[str]:
    try:
        return [n.text() for n in parse_names(ref, TEMPLATES)]
    except GenerateError:
        return [ref]  # reported by _check_one with the reason


def _check_one(path: Path | str) -> CheckReport:
    # One file never stops the others: whatever escapes the checker is that file's problem.
    try:
        if isinstance(path, str) and is_doom(path):
            return check_mission(path)
        if isinstance(path, str):
            try:
                made = generate(path)
            except GenerateError as exc:
                return CheckReport(path, (LevelProblem(path, "$", str(exc)),))
            return check_data(made.data, made.name)
        return check_level(path)
    except Exception as exc:
        message = f"the checker failed: {type(exc).__name__}: {exc}"
        return CheckReport(str(path), (LevelProblem(str(path), "$", message),))


def run(args: argparse.Namespace) -> int:
    """Check every level named and print the reports.

    Args:
        args: Parsed arguments (levels, json).

    Returns:
        0 when every level is good, 1 otherwise.
    """
    reports = [_check_one(path) for path in level_files(args.levels)]
    if args.json:
        json.dump([_as_json(r) for r in reports], sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for report in reports:
            for problem in report.problems:
                print(problem)
            if report.ok and report.counts is not None:
                print(f"{report.file}: ok: {report.counts.summary()}")
    return 0 if all(r.ok for r in reports) else 1
