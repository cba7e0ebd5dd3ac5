"""What a duel's opening buys: the target's shots at the player, replayed from records.

Reads every record under a suite folder (`harness eval --out DIR`), plays each one's
actions again in a fresh world (as `harness replay` does) and follows every duel the
player opened on a hostile that was unaware or suspicious when the attack was chosen:
whether the player then stood inside his view cone (as the view showed it), how many
shots he fired at the player and how many hit before he went down (or the episode
ended), and how many ticks passed from the player's first hit to his first shot.

Prints one JSON object per template (or level) and difficulty, with a row per
(alertness, inside the cone) giving the duels' count, mean shots and hits taken, and the
median and mean answer delay in ticks. The figures of docs/agents.md ("Where the
reference agent still loses") come from it:

    python benchmarks/fight_shots.py DIR [--difficulty hard] [--levels errand] [--limit N]
"""

from __future__ import annotations

import math
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fight_costs import (  # noqa: E402
    group_key,
    print_groups,
    records,
    suite_args,
    suite_parser,
)
from harness.core.keys import key_of  # noqa: E402
from harness.core.level_refs import from_header  # noqa: E402
from harness.core.protocol import as_played  # noqa: E402
from harness.core.record import Record  # noqa: E402
from harness.core.tracks import TrackSpec  # noqa: E402
from world.face import DoomLevel, WorldSession  # noqa: E402
from world.sim.actors import PLAYER_ID as PLAYER  # noqa: E402

OPENINGS = ("unaware", "suspicious")  # alertness of a target whose duel the player opens


@dataclass
class Duel:
    """One duel the player opened: what it saw, and what the target did after."""

    alertness: str
    in_cone: bool
    shots: int = 0
    hits: int = 0
    first_hit: int | None = None  # tick of the player's first hit on the target
    first_shot: int | None = None  # tick of the target's first shot at the player

    @property
    def delay(self) -> int | None:
        """Ticks from the player's first hit to the target's first shot, if both came."""
        if self.first_hit is None or self.first_shot is None:
            return None
        return self.first_shot - self.first_hit


def in_cone(player: list[float], row: dict[str, Any]) -> bool:
    """Whether the player stands inside a character's view cone, as a view row shows it."""
    facing, angle = row.get("facing_deg"), row.get("view_angle_deg")
    if facing is None or angle is None:
        return True  # a cone the view does not show is taken as looking everywhere
    x, z = row["position"][0], row["position"][2]
    bearing = math.degrees(math.atan2(player[2] - z, player[0] - x))
    return abs((bearing - facing + 180.0) % 360.0 - 180.0) <= angle / 2.0


def follow(events: Iterable[Any], open_duels: dict[str, Duel], done: list[Duel]) -> None:
    """Account a step's world events to the open duels (keyed by the target's world id).

    A duel closes when its target goes down; its shots and hits are those he fired at
    the player meanwhile.
    """
    for event in events:
        kind, subject, other = event.kind, event.subject, event.other
        if kind == "shot_hit" and subject == PLAYER and other in open_duels:
            duel = open_duels[other]
            if duel.first_hit is None:
                duel.first_hit = event.tick
        elif kind in ("shot_hit", "shot_missed") and other == PLAYER and subject in open_duels:
            duel = open_duels[subject]
            duel.shots += 1
            duel.hits += kind == "shot_hit"
            if duel.first_shot is None:
                duel.first_shot = event.tick
        elif kind == "actor_down" and subject in open_duels:
            done.append(open_duels.pop(subject))


def duels(record: Record) -> Iterator[Duel]:
    """Every duel of one record the player opened on an unaware or suspicious hostile.

    Raises:
        TypeError: for a record this cannot play from its first turn (a Doom mission, a
            stepwise chain, a run started from a snapshot).
        ValueError: when the world played again leaves the record (another version of
            the world): its counts would be another episode's.
    """
    header = record.header
    level = from_header(header).level
    if isinstance(level, DoomLevel):
        raise TypeError("a Doom mission: its shots are the engine's, not the world's")
    if "origin" in header or (header.get("start") or {}).get("stepwise"):
        raise TypeError("a run from a snapshot or a stepwise chain, not one world from "
                        "its start")
    game = TrackSpec.from_start(header.get("start") or {}).game_factory()(
        level, header["difficulty"], key_of(header))
    if not isinstance(game, WorldSession):
        raise TypeError(f"a {type(game).__name__}, not a world session (a Doom mission?)")
    world, ids = game.world, game.ids
    version = int(header["protocol_version"])
    open_duels: dict[str, Duel] = {}
    done: list[Duel] = []
    opened: set[str] = set()
    for index, turn in enumerate(record.turns):
        if game.turn.state_hash != turn["state_hash"]:
            raise ValueError(f"turn {index}: the world played again is not the record's "
                             "(its state hash differs)")
        action, error = turn.get("action"), turn.get("error")
        if action is None and error is None:
            break
        executed = action if error is None else None
        if executed is not None and executed["action"] == "attack":
            view = turn["observation"]["view"]
            target = executed["arguments"]["character_id"]
            row = next((c for c in view["characters"] if c["id"] == target), None)
            actor = ids.table().get(target)
            if row is not None and actor is not None and actor not in opened \
                    and row.get("alertness") in OPENINGS:
                opened.add(actor)
                open_duels[actor] = Duel(str(row["alertness"]),
                                         in_cone(view["player"]["position"], row))
        before = len(world.events)
        game.step(None if executed is None else as_played(executed, version))
        follow(world.events.since(before), open_duels, done)
    yield from done
    yield from open_duels.values()


def tabulate(found: Iterable[Record], difficulty: str | None = None,
             levels: set[str] | None = None,
             limit: int | None = None) -> dict[tuple[str, str], list[Duel]]:
    """The duels of these records by (template or level, difficulty), `limit` records each.

    A record without an end is left out, and so, said on standard error, is one that
    is not a single player's world episode this world plays again (`duels`).
    """
    groups: dict[tuple[str, str], list[Duel]] = defaultdict(list)
    taken: dict[tuple[str, str], int] = defaultdict(int)
    for record in found:
        try:
            key = group_key(record)
        except (KeyError, TypeError) as exc:
            print(f"skipped {record.path}: no level or difficulty ({exc})", file=sys.stderr)
            continue
        if (difficulty and key[1] != difficulty) or (levels and key[0] not in levels) \
                or record.end is None or (limit is not None and taken[key] >= limit):
            continue
        try:
            played = list(duels(record))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            print(f"skipped {record.path}: not a single player's world episode this world "
                  f"plays again ({type(exc).__name__}: {exc})", file=sys.stderr)
            continue
        groups[key].extend(played)
        taken[key] += 1
    return groups


def summary(key: tuple[str, str], found: list[Duel]) -> dict[str, Any]:
    """One group's figures as plain data (see the module documentation)."""
    rows: dict[tuple[str, bool], list[Duel]] = defaultdict(list)
    for duel in found:
        rows[(duel.alertness, duel.in_cone)].append(duel)
    out = []
    for (alertness, cone), these in sorted(rows.items()):
        delays = [d.delay for d in these if d.delay is not None]
        out.append({"alertness": alertness, "in_cone": cone, "duels": len(these),
                    "shots": round(statistics.mean(d.shots for d in these), 2),
                    "hits": round(statistics.mean(d.hits for d in these), 2),
                    "median_delay_ticks": statistics.median(delays) if delays else None,
                    "mean_delay_ticks": round(statistics.mean(delays), 1) if delays else None})
    return {"level": key[0], "difficulty": key[1], "duels": len(found), "rows": out}


def main(argv: list[str] | None = None) -> int:
    parser = suite_parser(__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="at most this many records per group")
    args, levels = suite_args(parser, argv)
    if args.limit is not None and args.limit < 1:
        parser.error(f"--limit {args.limit}: a number of records, 1 or more")
    groups = tabulate(records(args.suite), args.difficulty, levels, args.limit)
    return print_groups(args.suite, groups, summary)


if __name__ == "__main__":
    raise SystemExit(main())
