"""The Macro environment's discrete actions, derived from the action catalogue.

Each declared macro action becomes a block of choices: one per way of filling its
required arguments from fixed slots of the view (the nearest ways out, objects,
doors, characters, carried things) or from fixed values (eight directions, three
durations). Which slots fill which argument is declared once (`ARGUMENT_SLOTS`); a
catalogue action with a required argument no slot fills is an error at import.
Optional arguments keep their defaults. A choice whose slot is empty, or one the world
would refuse for what the view shows, is ruled out by the action mask.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from world.face import catalog


@dataclass(frozen=True)
class Family:
    """A fixed-size list of things an argument can name."""

    name: str
    size: int
    summary: str


# How far a direction choice's point lies from the player (world units).
DIRECTION_REACH = 600.0
DIRECTIONS_DEG = tuple(range(0, 360, 45))
DURATIONS_S = (1.0, 3.0, 10.0)

FAMILIES: MappingProxyType[str, Family] = MappingProxyType({f.name: f for f in (
    Family("way", 6, "the current area's ways out, nearest first"),
    Family("object", 8, "objects in the view, nearest first"),
    Family("door", 6, "doors in the view, nearest first"),
    Family("character", 6, "characters in the view, nearest first"),
    Family("carried", 4, "things carried, in the view's order"),
    Family("direction", len(DIRECTIONS_DEG),
           f"the point {DIRECTION_REACH:g} units from the player at "
           f"{', '.join(str(d) for d in DIRECTIONS_DEG)} degrees"),
    Family("duration", len(DURATIONS_S),
           f"{', '.join(f'{s:g}' for s in DURATIONS_S)} game seconds"),
)})

# Required argument names -> the families whose slots fill them, in slot order.
ARGUMENT_SLOTS: MappingProxyType[tuple[str, ...], tuple[str, ...]] = MappingProxyType({
    ("x", "z"): ("direction",),
    ("exit_id",): ("way",),
    ("object_id",): ("object", "door"),
    ("character_id",): ("character",),
    ("item_id",): ("carried",),
    ("seconds",): ("duration",),
})

# Catalogue actions the Macro environment leaves out, and why (shown in docs/rl.md's
# table). A code is words the player read, which no fixed slot of the view holds.
LEFT_OUT: MappingProxyType[str, str] = MappingProxyType({
    "enter_code": "its code is words read from a note, which no slot of the view holds",
})


@dataclass(frozen=True)
class Choice:
    """One discrete action: the macro action and, per argument group, a (family, slot)."""

    action: str
    slots: tuple[tuple[str, int], ...]

    def label(self) -> str:
        """E.g. `use_item_on(carried 0, door 3)`."""
        return f"{self.action}({', '.join(f'{f} {i}' for f, i in self.slots)})"


def _groups(name: str, required: tuple[str, ...]) -> list[tuple[str, ...]]:
    left, groups = list(required), []
    for names in ARGUMENT_SLOTS:
        if all(n in left for n in names):
            groups.append(names)
            left = [n for n in left if n not in names]
    if left:
        raise ValueError(f"action {name!r}: no slot family fills the required argument(s) "
                         f"{left}; declare them in harness.rl.macro_actions.ARGUMENT_SLOTS")
    return groups


@cache
def choices() -> tuple[Choice, ...]:
    """Every discrete action, in catalogue order, then slot order."""
    out: list[Choice] = []
    for spec in catalog().actions:
        if spec.name in LEFT_OUT:
            continue
        per_group = [
            [(family, i) for family in ARGUMENT_SLOTS[g] for i in range(FAMILIES[family].size)]
            for g in _groups(spec.name, spec.required)
        ]
        out.extend(Choice(spec.name, combo) for combo in itertools.product(*per_group))
    return tuple(out)


def action_blocks() -> list[tuple[int, int, str, str]]:
    """(first index, last index, action, argument slots) per catalogue action."""
    rows: list[tuple[int, int, str, str]] = []
    for name, group in itertools.groupby(enumerate(choices()), key=lambda c: c[1].action):
        members = list(group)
        spec = catalog().action(name)
        slots = " × ".join(
            "/".join(ARGUMENT_SLOTS[g]) + f" → {', '.join(g)}"
            for g in _groups(name, spec.required)) or "none"
        rows.append((members[0][0], members[-1][0], name, slots))
    return rows


# ---- slots of one view -------------------------------------------------------------------
def _near(rows: list[dict[str, Any]], size: int) -> list[dict[str, Any]]:
    def key(r: dict[str, Any]) -> tuple[float, str]:
        d = r.get("distance")
        return (float(d) if isinstance(d, int | float) else math.inf, str(r.get("id")))
    return sorted(rows, key=key)[:size]


def slot_rows(view: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The rows of the view each entity family's slots show, in slot order."""
    player = view.get("player") or {}
    here = player.get("position") or [0.0, 0.0, 0.0]
    doors = [dict(d, distance=math.dist((here[0], here[2]), (d["position"][0], d["position"][2])))
             for d in view.get("doors") or []]
    return {
        "way": _near(list((view.get("area") or {}).get("ways_out") or []), FAMILIES["way"].size),
        "object": _near(list(view.get("objects") or []), FAMILIES["object"].size),
        "door": _near(doors, FAMILIES["door"].size),
        "character": _near(list(view.get("characters") or []), FAMILIES["character"].size),
        "carried": list(player.get("carried") or [])[: FAMILIES["carried"].size],
    }


def _fixed(family: str, index: int, view: Mapping[str, Any]) -> dict[str, Any]:
    if family == "duration":
        return {"seconds": DURATIONS_S[index]}
    here = (view.get("player") or {}).get("position") or [0.0, 0.0, 0.0]
    angle = math.radians(DIRECTIONS_DEG[index])
    return {"x": round(here[0] + DIRECTION_REACH * math.cos(angle), 3),
            "z": round(here[2] + DIRECTION_REACH * math.sin(angle), 3)}


_VALUE_FAMILIES = ("direction", "duration")


def decode(choice: Choice, rows: dict[str, list[dict[str, Any]]], view: Mapping[str, Any]
           ) -> dict[str, Any] | None:
    """The action message's arguments for a choice, or None when a slot is empty."""
    groups = _groups(choice.action, catalog().action(choice.action).required)
    arguments: dict[str, Any] = {}
    for names, (family, index) in zip(groups, choice.slots, strict=True):
        if family in _VALUE_FAMILIES:
            arguments.update(_fixed(family, index, view))
            continue
        if index >= len(rows[family]):
            return None
        arguments[names[0]] = rows[family][index]["id"]
    return arguments


# Action -> what rules a filled choice out (the world would refuse it): declared once.
Rule = Callable[[Mapping[str, Any], list[tuple[str, dict[str, Any]]]], bool]
REFUSED: MappingProxyType[str, Rule] = MappingProxyType({
    "attack": lambda view, filled: any(
        f == "character" and (r.get("friendly") or r.get("down")) for f, r in filled),
    "shoot_object": lambda view, filled: any(f == "door" for f, _ in filled),
})


# What a mask allows once the player is down (the episode has ended): a vector copy's
# mask is read before its next step resets it, so it must never be all zero.
ALLOWED_WHEN_DOWN = "wait"


def mask(rows: dict[str, list[dict[str, Any]]], view: Mapping[str, Any]) -> list[bool]:
    """Whether each choice is allowed now: its slots are filled and no rule refuses it.

    Once the player is down only the `ALLOWED_WHEN_DOWN` choices are, so a mask always
    allows at least one choice.
    """
    if not (view.get("player") or {}).get("alive", True):
        return [choice.action == ALLOWED_WHEN_DOWN for choice in choices()]
    out: list[bool] = []
    for choice in choices():
        filled = [(f, rows[f][i]) for f, i in choice.slots
                  if f not in _VALUE_FAMILIES and i < len(rows[f])]
        full = len(filled) == sum(1 for f, _ in choice.slots if f not in _VALUE_FAMILIES)
        rule = REFUSED.get(choice.action)
        out.append(full and not (rule is not None and rule(view, filled)))
    return out
