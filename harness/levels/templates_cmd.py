"""`harness templates`: list the mission templates and their parameters."""

from __future__ import annotations

import argparse
import json
import sys

from world.face import GENERATOR_VERSION, TEMPLATES, describe_param


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("--json", action="store_true",
                        help="print every template with its parameters' JSON Schema")


def run(args: argparse.Namespace) -> int:
    """Print the templates; always 0."""
    if args.json:
        json.dump({"generator_version": GENERATOR_VERSION, "templates": [
            {"name": t.name, "kind": t.kind, "description": t.description,
             "params": t.schema()} for t in TEMPLATES.values()]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(f"generator version {GENERATOR_VERSION}; name a level TEMPLATE@SEED[?name=value&...]")
    for t in TEMPLATES.values():
        print(f"\n{t.name} ({t.kind}): {t.description}")
        for name, schema in t.params.items():
            print(f"  {describe_param(name, schema)}: {schema['description']}")
    return 0
