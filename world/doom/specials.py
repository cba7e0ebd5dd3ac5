"""What a map's numbers mean: line specials, damaging sectors and thing types.

The tables are data (specials.json); this module only reads them into typed answers.
Doom-format specials carry their trigger in the number (specials.json's `line_doom`);
Hexen and UDMF (ZDoom) specials take the trigger from the line's activation flags and
their tag and lock from the special's arguments (`line_hexen`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from world.doom.wad import Line, MapData, Sector

_TABLE = Path(__file__).with_name("specials.json")
LINE_KINDS = ("door", "lift", "exit", "secret_exit", "teleport", "floor", "ceiling", "stairs",
              "crusher")
# What the "moving" kinds do: a player waits for these sectors, not merely walks through.
MOVING_KINDS = frozenset({"door", "lift"})


@dataclass(frozen=True)
class LineSpecial:
    """A line's special in plain terms.

    `tag` is 0 for a manual special (a door's own line: it moves the sector behind it);
    otherwise the sectors with that tag move (a teleport's tag names the destination).
    """

    kind: str
    trigger: str  # "use", "cross" or "shoot"
    repeat: bool
    key: str | None  # "blue", "yellow", "red" or None
    tag: int

    @property
    def manual(self) -> bool:
        """A door or lift worked from its own line, moving the sector behind it."""
        return self.tag == 0 and self.kind in MOVING_KINDS


# Thing kinds (specials.json) by what they are in a view: characters, or map markers no
# player sees; every other kind is an object kind of the level format.
CHARACTER_KINDS = frozenset({"monster"})
MARKER_KINDS = frozenset({"player_start", "teleport_destination", "spot"})


@dataclass(frozen=True)
class ThingType:
    """A thing type in the benchmark's words: its kind and name."""

    kind: str
    name: str

    @property
    def group(self) -> str | None:
        """"character" or "object" as views list it; None for map markers."""
        if self.kind in MARKER_KINDS:
            return None
        return "character" if self.kind in CHARACTER_KINDS else "object"


@cache
def _tables() -> dict:
    return json.loads(_TABLE.read_text())


_DOOM_TRIGGERS = {"D": "use", "S": "use", "W": "cross", "G": "shoot"}
_HEXEN_TRIGGERS = {"use": "use", "push": "use", "cross": "cross", "shoot": "shoot"}


def line_special(found: MapData, line: Line) -> LineSpecial | None:
    """The line's special, or None when it has none the player can trigger or we know."""
    if not line.special:
        return None
    tables = _tables()
    if found.format == "doom":
        entry = tables["line_doom"].get(str(line.special))
        if entry is None:
            return None
        kind, trigger, key = entry
        tag = 0 if trigger[0] == "D" else line.tag
        return LineSpecial(kind, _DOOM_TRIGGERS[trigger[0]], trigger.endswith("R"), key, tag)
    entry = tables["line_hexen"].get(str(line.special))
    trigger = _HEXEN_TRIGGERS.get(line.activation)
    if entry is None or trigger is None:
        return None
    kind, tag_arg, lock_arg = entry
    key = None if lock_arg is None else tables["hexen_locks"].get(str(line.args[lock_arg]))
    tag = line.args[0] if tag_arg is None else line.args[tag_arg]
    if kind == "teleport":
        # Teleport(tid, tag): the destination is the thing with that tid.
        tag = line.args[0]
    return LineSpecial(kind, trigger, line.repeat, key, tag)


def thing_type(type_number: int) -> ThingType | None:
    """The thing type's kind and name, or None for decorations and unknown types."""
    entry = _tables()["things"].get(str(type_number))
    return None if entry is None else ThingType(entry[0], entry[1])


@cache
def _actors() -> dict[str, ThingType]:
    tables = _tables()
    found = {actor: ThingType(kind, name) for kind, name, actor in tables["things"].values()
             if actor is not None}
    found.update((actor, ThingType(kind, name))
                 for actor, (kind, name) in tables["script_actors"].items())
    return found


def actor_type(actor: str) -> ThingType | None:
    """The kind and name of an actor the engine lists (its class name, e.g. "DoomImp")."""
    return _actors().get(actor)


def actor_names() -> frozenset[str]:
    """Every thing name in the benchmark's words the table gives an actor."""
    return frozenset(t.name for t in _actors().values())


def object_kinds() -> tuple[str, ...]:
    """The object kinds things may have, sorted (what a pickups verifier may count)."""
    kinds = {entry[0] for entry in _tables()["things"].values()}
    return tuple(sorted(kinds - CHARACTER_KINDS - MARKER_KINDS))


@dataclass(frozen=True)
class Gun:
    """A weapon slot's gun: its name and the game variable counting its rounds."""

    slot: int
    name: str
    pool: str

    @property
    def item_id(self) -> str:
        """The id `carried` gives it: `i` and its slot."""
        return f"i{self.slot}"


@cache
def guns() -> tuple[Gun, ...]:
    """The guns by slot (2 to 7), in slot order."""
    rows = _tables()["guns"]
    return tuple(Gun(int(slot), name, pool)
                 for slot, (name, pool) in sorted(rows.items(), key=lambda kv: int(kv[0])))


def carried_guns(counters: Mapping[str, float]) -> tuple[Gun, ...]:
    """The guns the player carries, by the engine's WEAPONn counters, in slot order."""
    return tuple(g for g in guns() if counters.get(f"WEAPON{g.slot}", 0) > 0)


def feeds(ammo_name: str) -> str | None:
    """The gun an ammunition pickup (by name) feeds; None for a backpack or unknown name."""
    return _tables()["feeds"].get(ammo_name)


def hurts(sector: Sector) -> bool:
    """A floor that damages whoever stands on it (nukage, lava and the like)."""
    # Vanilla numbers sit in the low five bits; Boom's generalized damage in bits 5-6.
    return (sector.special & 0x1F) in _tables()["sector_hurts"] or bool(sector.special & 0x60)
