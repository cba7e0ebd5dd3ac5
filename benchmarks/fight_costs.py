"""Where a suite's players lose their health: per action kind, and per attack by its target.

Reads every record under a suite folder (`harness eval --out DIR`) and prints one JSON
object per template (a generated level's template, else the level) and difficulty:

- `episodes`, `won` and `lost_episodes` (the lost ones' levels, as asked for, and seeds);
- `lost_per_episode`: health and armour lost per episode, by the kind of the action
  during which it was lost (an action's cost is the fall from the view it was chosen in
  to the next view; healing in the same action hides as much damage);
- `attacks`: every `attack`, grouped by what the agent saw of its target when it chose
  it (alertness, and distance band `near` under 300 units, `mid` under 700, else
  `far`): how many, the mean and median health and armour they cost, and how many cost
  more than `--heavy` (default 0.6, three pistol hits of a hard guard).

The figures of docs/agents.md ("Where the reference agent still loses") come from it:

    python benchmarks/fight_costs.py DIR [--difficulty hard] [--levels errand,expedition]
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.core.record import RECORD_NAMES, Record, RecordError, read_record  # noqa: E402

# Distance bands of an attack's target when the agent chose it (upper bounds, units).
BANDS = (("near", 300.0), ("mid", 700.0), ("far", float("inf")))
HEAVY = 0.6


@dataclass(frozen=True)
class Attack:
    """One `attack` action: what the agent saw of its target, and what it cost."""

    alertness: str
    band: str
    cost: float


@dataclass
class Group:
    """The figures of one template (or level) and difficulty."""

    episodes: int = 0
    won: int = 0
    lost: list[str] = field(default_factory=list)
    by_action: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    attacks: list[Attack] = field(default_factory=list)


def band(distance: float) -> str:
    """The distance band of a target `distance` units away."""
    return next(name for name, top in BANDS if distance < top)


def _vitality(turn: dict[str, Any]) -> float:
    player = turn["observation"]["view"]["player"]
    return float(player["health"]) + float(player["armour"])


def costs(turns: Iterable[dict[str, Any]]) -> Iterator[tuple[str, float, Attack | None]]:
    """Each action of a record's turns: its kind, what it cost, and the attack it was.

    The cost is the health and armour lost from the view the action was chosen in to the
    next; the attack is None for any other action, and for an attack whose target was not
    in that view.
    """
    for chosen, next_turn in itertools.pairwise(turns):
        action = chosen.get("action") or {}
        kind = str(action.get("action", "none"))
        cost = _vitality(chosen) - _vitality(next_turn)
        attack = None
        if kind == "attack":
            target = (action.get("arguments") or {}).get("character_id")
            seen = [c for c in chosen["observation"]["view"]["characters"] if c["id"] == target]
            if seen:
                attack = Attack(str(seen[0].get("alertness")),
                                band(float(seen[0].get("distance") or 0.0)), cost)
        yield kind, cost, attack


def group_key(record: Record) -> tuple[str, str]:
    """(template or level, difficulty) of a record: a generated level's template."""
    generated = record.header.get("generated")
    level = generated["template"] if generated else record.header["level"]
    return str(level), str(record.header["difficulty"])


def episode_name(record: Record) -> str:
    """A record's level as it was asked for (a generated level's name) and its seed."""
    generated = record.header.get("generated")
    level = generated["name"] if generated else record.header["level"]
    return f"{level} s{record.header['seed']}"


def records(root: Path) -> Iterator[Record]:
    """Every record under a suite folder, in a stable order (unreadable ones skipped)."""
    for name in RECORD_NAMES:
        for path in sorted(root.rglob(name)):
            try:
                yield read_record(path)
            except RecordError as exc:
                print(f"skipped: {exc}", file=sys.stderr)


def tabulate(found: Iterable[Record], difficulty: str | None = None,
             levels: set[str] | None = None) -> dict[tuple[str, str], Group]:
    """The groups of these records (only `difficulty` and `levels`, when given).

    A record without an end (an interrupted run proves no outcome) is left out, and so,
    said on standard error, is one whose turns are not a single player's views (a
    match's record, say).
    """
    groups: dict[tuple[str, str], Group] = defaultdict(Group)
    for record in found:
        try:
            key = group_key(record)
            if (difficulty and key[1] != difficulty) or (levels and key[0] not in levels):
                continue
            if record.end is None:
                continue
            won = bool(record.end["summary"].get("success"))
            actions = list(costs(record.turns))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            print(f"skipped {record.path}: not a single player's record of views "
                  f"({type(exc).__name__}: {exc})", file=sys.stderr)
            continue
        group = groups[key]
        group.episodes += 1
        if won:
            group.won += 1
        else:
            group.lost.append(episode_name(record))
        for kind, cost, attack in actions:
            if cost > 0.0:
                group.by_action[kind] += cost
            if attack is not None:
                group.attacks.append(attack)
    return groups


def summary(key: tuple[str, str], group: Group, heavy: float = HEAVY) -> dict[str, Any]:
    """One group's figures as plain data (see the module documentation)."""
    kinds: dict[tuple[str, str], list[float]] = defaultdict(list)
    for attack in group.attacks:
        kinds[(attack.alertness, attack.band)].append(attack.cost)
    n = max(group.episodes, 1)
    return {
        "level": key[0], "difficulty": key[1], "episodes": group.episodes, "won": group.won,
        "lost_episodes": sorted(group.lost),
        "lost_per_episode": {k: round(v / n, 3) for k, v in
                             sorted(group.by_action.items(), key=lambda kv: -kv[1])},
        "attacks_per_episode": round(len(group.attacks) / n, 2),
        "attacks": [{"alertness": a, "band": b, "count": len(c),
                     "mean_cost": round(statistics.mean(c), 3),
                     "median_cost": round(statistics.median(c), 3),
                     "heavy": sum(1 for x in c if x > heavy)}
                    for (a, b), c in sorted(kinds.items())],
    }


def suite_parser(description: str) -> argparse.ArgumentParser:
    """The arguments every fight script takes: a suite folder, a difficulty, levels."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("suite", type=Path, help="a suite folder (harness eval --out)")
    parser.add_argument("--difficulty", help="only this difficulty")
    parser.add_argument("--levels", help="only these templates or levels, comma-separated")
    return parser


def suite_args(parser: argparse.ArgumentParser,
               argv: list[str] | None) -> tuple[argparse.Namespace, set[str] | None]:
    """Parsed arguments, the suite checked a folder, and the levels asked for (or None)."""
    args = parser.parse_args(argv)
    if not args.suite.is_dir():
        parser.error(f"{args.suite}: not a folder (a suite folder: harness eval --out)")
    return args, (set(args.levels.split(",")) if args.levels else None)


def print_groups(suite: Path, groups: dict[tuple[str, str], Any],
                 row: Callable[[tuple[str, str], Any], dict[str, Any]]) -> int:
    """One JSON line per group in a stable order; 1, said, when no record matched."""
    if not groups:
        print(f"{suite}: no finished records match", file=sys.stderr)
        return 1
    for key in sorted(groups):
        print(json.dumps(row(key, groups[key])))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = suite_parser(__doc__.splitlines()[0])
    parser.add_argument("--heavy", type=float, default=HEAVY,
                        help=f"an attack costing more than this is counted heavy ({HEAVY})")
    args, levels = suite_args(parser, argv)
    groups = tabulate(records(args.suite), args.difficulty, levels)
    return print_groups(args.suite, groups, lambda key, group: summary(key, group, args.heavy))


if __name__ == "__main__":
    raise SystemExit(main())
