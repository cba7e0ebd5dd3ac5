"""Short operations in the benchmark's own words: what one action meant, from what the player saw.

Every phrase is made from an observation the agent received (ids, area names, object names
and kinds) and the action's arguments, never from the level file or the record's map, so
the words hold only what the player perceived. Each phrase comes in two spellings: `text`
with the episode ids ("go through way out w3 (door d3) into the Server hall a2") and
`plain` without them ("go through the door into the Server hall"), which needs the
observation to be turned back into an action (the quiz's instructions use it).

One phrase maker per macro action, in `INTENTS`; a test keeps it equal to the catalogue.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from world.face import PICKUP_KINDS, VERIFIERS

View = dict[str, Any]
# A landmark nearer than this to a go_to point names the point ("walk up to the medkit").
NEAR_UNITS = 250.0
# Kinds picked up by walking to them, and those pressed (a use_object objective's kinds);
# the others are used.
_PICKUPS = PICKUP_KINDS
_PRESSED = VERIFIERS["use_object"].object_kinds or frozenset()


@dataclass(frozen=True)
class Phrase:
    """One operation in two spellings: with episode ids, and without them."""

    text: str
    plain: str


@dataclass
class Known:
    """Names the player has perceived so far, gathered from observations in turn order."""

    areas: dict[str, str] = field(default_factory=dict)
    objects: dict[str, dict[str, Any]] = field(default_factory=dict)
    characters: dict[str, dict[str, Any]] = field(default_factory=dict)
    doors: dict[str, dict[str, Any]] = field(default_factory=dict)

    def learn(self, view: View) -> None:
        """Add what one observation's structured view names."""
        area = view.get("area")
        if area:
            self.areas[area["id"]] = area["name"]
            for way in area["ways_out"]:
                self.areas[way["to"]] = way["to_name"]
                if way.get("door"):
                    self.doors.setdefault(way["door"], {"id": way["door"],
                                                        "between": [area["id"], way["to"]]})
        for objective in view.get("objectives", ()):
            if objective.get("area") and objective.get("area_name"):
                self.areas[objective["area"]] = objective["area_name"]
        exit_ = view.get("exit") or {}
        if exit_.get("area") and exit_.get("name"):
            self.areas[exit_["area"]] = exit_["name"]
        for item in view.get("player", {}).get("carried", ()):
            self.objects.setdefault(item["id"], dict(item))
        for obj in view.get("objects", ()):
            self.objects[obj["id"]] = obj
        for char in view.get("characters", ()):
            self.characters[char["id"]] = char
        for door in view.get("doors", ()):
            self.doors[door["id"]] = door

    def learn_observation(self, observation: dict[str, Any]) -> None:
        """Add what one observation names: its view, and the door a `door_closed` named."""
        self.learn(observation["view"])
        door = ((observation.get("last_result") or {}).get("door") or {}).get("door")
        if door:
            self.doors.setdefault(door, {"id": door})

    def area_name(self, area_id: str | None) -> str:
        """An area's name as the player knows it, or its id."""
        if area_id is None:
            return "an unknown area"
        return self.areas.get(area_id, area_id)


def _in_area(known: Known, area_id: str | None, with_id: bool) -> str:
    if not area_id or area_id not in known.areas:
        return ""
    return f" in the {known.areas[area_id]}" + (f" {area_id}" if with_id else "")


def _door_phrase(door_id: str, known: Known, view: View, verb: str) -> Phrase:
    door = known.doors.get(door_id)
    here = (view.get("area") or {}).get("id")
    sides = [a for a in (door or {}).get("between", ()) if a != here]
    to = sides[0] if sides else None
    if to is None:
        return Phrase(f"{verb} door {door_id}", f"{verb} a door")
    name = known.area_name(to)
    return Phrase(f"{verb} door {door_id} to the {name} {to}", f"{verb} the door to the {name}")


def _thing(obj_id: str, known: Known) -> tuple[str, str]:
    """(text, plain) naming an object: its name with id and area, and without the id."""
    obj = known.objects.get(obj_id)
    if obj is None:
        return f"object {obj_id}", "an object"
    name = obj.get("name") or obj.get("kind", "object")
    return (f"the {name} {obj_id}{_in_area(known, obj.get('area'), True)}",
            f"the {name}{_in_area(known, obj.get('area'), False)}")


def _object_verb(obj_id: str, known: Known) -> str:
    kind = (known.objects.get(obj_id) or {}).get("kind")
    if kind in _PICKUPS:
        return "pick up"
    if kind in _PRESSED:
        return "press"
    return "go to and use"


def _go_to_object(args: dict[str, Any], known: Known, view: View) -> Phrase:
    target = str(args.get("object_id"))
    if target in known.doors:
        return _door_phrase(target, known, view, "open")
    text, plain = _thing(target, known)
    verb = _object_verb(target, known)
    return Phrase(f"{verb} {text}", f"{verb} {plain}")


def _go_to_area(args: dict[str, Any], known: Known, view: View) -> Phrase:
    way_id = str(args.get("exit_id"))
    ways = {w["id"]: w for w in (view.get("area") or {}).get("ways_out", ())}
    way = ways.get(way_id)
    if way is None:
        return Phrase(f"go through way out {way_id}", "go through a way out")
    via = f"{way['via']} {way['door']}" if way.get("door") else way["via"]
    verb = "take the stairs" if way["via"] == "stairs" else f"go through the {way['via']}"
    return Phrase(f"go through way out {way_id} ({via}) into the {way['to_name']} {way['to']}",
                  f"{verb} into the {way['to_name']}")


def _character(char_id: str, known: Known) -> tuple[str, str]:
    char = known.characters.get(char_id)
    if char is None:
        return f"character {char_id}", "a character"
    armed = f" with a {char['weapon']}" if char.get("weapon") else ""
    return (f"the {char['kind']} {char_id}{_in_area(known, char.get('area'), True)}",
            f"the {char['kind']}{armed}{_in_area(known, char.get('area'), False)}")


def _attack(args: dict[str, Any], known: Known, view: View) -> Phrase:
    text, plain = _character(str(args.get("character_id")), known)
    return Phrase(f"take down {text}", f"take down {plain}")


def _shoot(args: dict[str, Any], known: Known, view: View) -> Phrase:
    text, plain = _thing(str(args.get("object_id")), known)
    return Phrase(f"shoot {text}", f"shoot {plain}")


def _equip(args: dict[str, Any], known: Known, view: View) -> Phrase:
    text, plain = _thing(str(args.get("item_id")), known)
    return Phrase(f"draw {text}", f"draw {plain}")


def _use_item(args: dict[str, Any], known: Known, view: View) -> Phrase:
    item, item_plain = _thing(str(args.get("item_id")), known)
    target, target_plain = _thing(str(args.get("object_id")), known)
    return Phrase(f"use {item} on {target}", f"use {item_plain} on {target_plain}")


def _enter_code(args: dict[str, Any], known: Known, view: View) -> Phrase:
    # The plain spelling leaves the digits out: they are words read, not a place.
    text, plain = _thing(str(args.get("object_id")), known)
    return Phrase(f"key {args.get('code')} into {text}", f"key the code into {plain}")


def _wait(args: dict[str, Any], known: Known, view: View) -> Phrase:
    seconds = float(args.get("seconds", 0))
    unit = "second" if seconds == 1 else "seconds"
    return Phrase(f"wait {seconds:g} s", f"wait {seconds:g} {unit}")


def landmarks(view: View, known: Known) -> list[tuple[str, str, tuple[float, float]]]:
    """Named places of one observation as (text, plain, (x, z)), in the view's order."""
    out = []
    for way in (view.get("area") or {}).get("ways_out", ()):
        out.append((f"way out {way['id']} to the {way['to_name']} {way['to']}",
                    f"the way out to the {way['to_name']}",
                    (way["position"][0], way["position"][2])))
    for obj in view.get("objects", ()):
        text, plain = _thing(obj["id"], known)
        out.append((text, plain, (obj["position"][0], obj["position"][2])))
    for door in view.get("doors", ()):
        phrase = _door_phrase(door["id"], known, view, "")
        out.append((phrase.text.strip(), phrase.plain.strip(),
                    (door["position"][0], door["position"][2])))
    for char in view.get("characters", ()):
        text, plain = _character(char["id"], known)
        out.append((text, plain, (char["position"][0], char["position"][2])))
    for objective in view.get("objectives", ()):
        if objective.get("point"):
            p = objective["point"]
            out.append((f"objective {objective['index']}'s next point",
                        f"the next point of the objective \"{objective['text']}\"", (p[0], p[2])))
    return out


def _place(args: dict[str, Any], known: Known, view: View) -> tuple[str, str]:
    x, z = float(args.get("x", 0)), float(args.get("z", 0))
    marks = landmarks(view, known)
    if not marks:
        return f"({x:.0f}, {z:.0f})", "a spot no landmark names"
    text, plain, (mx, mz) = min(marks, key=lambda m: math.hypot(m[2][0] - x, m[2][1] - z))
    gap = math.hypot(mx - x, mz - z)
    if gap <= NEAR_UNITS:
        return f"({x:.0f}, {z:.0f}) by {text}", plain
    return (f"({x:.0f}, {z:.0f}), {gap:.0f} units from {text}",
            f"a spot about {round(gap, -2):.0f} units from {plain}")


def _go_to(args: dict[str, Any], known: Known, view: View) -> Phrase:
    text, plain = _place(args, known, view)
    return Phrase(f"walk to {text}", f"walk to {plain}")


def _turn_and_use(args: dict[str, Any], known: Known, view: View) -> Phrase:
    text, plain = _place(args, known, view)
    return Phrase(f"face {text} and press use", f"face {plain} and press use")


Intent = Callable[[dict[str, Any], Known, View], Phrase]
INTENTS: dict[str, Intent] = {
    "go_to": _go_to,
    "go_to_area": _go_to_area,
    "go_to_object": _go_to_object,
    "turn_and_use": _turn_and_use,
    "attack": _attack,
    "shoot_object": _shoot,
    "equip": _equip,
    "use_item_on": _use_item,
    "enter_code": _enter_code,
    "wait": _wait,
}


def phrase(action: str, args: dict[str, Any], known: Known, view: View) -> Phrase:
    """The operation one action stands for, seen from the observation it answered.

    Actions of other tracks (the raw track's controls) are spelt out as sent.
    """
    maker = INTENTS.get(action)
    if maker is None:
        shown = ", ".join(f"{k}={args[k]}" for k in sorted(args))
        return Phrase(f"{action} ({shown})", f"{action} ({shown})")
    return maker(args, known, view)


def joined(words: Iterable[str]) -> str:
    """Words as an English list: "a", "a and b", "a, b and c"."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
