"""Map labels that do not overlap: each one placed, abbreviated or left to its tooltip.

Where rooms are dense (a corridor of small sections, a stair landing with three items
on it) names drawn at fixed places run into each other. Labels are placed greedily on
a box estimated from the font size (text is not measured in Python; the estimate errs
wide): room names first, at their room's label point, shrunk once if they collide;
then each object's name at the first free side of its square (right, left, above,
below), abbreviated if no side is free, and hidden if even that collides. A hidden
label's name stays in the square's tooltip, and nothing is drawn past the map's edge.
"""

from __future__ import annotations

from typing import Any

from harness.pages.words import short

# Width of one character as a share of the font size (system-ui averages about 0.5;
# erring wide keeps real text inside its box).
CHAR_W = 0.6
ABBREVIATED = 8  # characters kept of an object's name when no side has room for it

Box = tuple[float, float, float, float]  # (left, top, right, bottom) in SVG units


def _hits(box: Box, others: list[Box]) -> bool:
    return any(box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]
               for o in others)


def _inside(box: Box, frame: Box) -> bool:
    return frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] \
        and box[3] <= frame[3]


def text_box(x: float, y: float, text: str, font: float, anchor: str) -> Box:
    """The estimated box of `text` drawn at (x, y) (the baseline) with that anchor."""
    width = CHAR_W * font * len(text)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return left, y - 0.8 * font, left + width, y + 0.25 * font


def _sides(obj: dict[str, Any], unit: float, font: float) -> list[tuple[float, float, str]]:
    x, y = obj["x"], obj["y"]
    gap = unit * 1.4  # the square's half-side and a little air
    return [(x + gap, y + font * 0.35, "start"), (x - gap, y + font * 0.35, "end"),
            (x, y - gap - font * 0.25, "middle"), (x, y + gap + font * 0.8, "middle")]


def place(areas: list[dict[str, Any]], objects: list[dict[str, Any]], unit: float,
          frame: Box) -> None:
    """Give every area and object label its place, text and whether it is shown.

    Sets on each area: font (maybe shrunk) and shown; on each object: lx, ly, anchor,
    label (maybe abbreviated) and shown.

    Args:
        areas: The storey's areas (x, y, name, font).
        objects: The storey's objects (x, y, label, font).
        unit: The map's drawing unit.
        frame: The map's view box as a Box; no label is placed past it.
    """
    taken: list[Box] = [(o["x"] - unit, o["y"] - unit, o["x"] + unit, o["y"] + unit)
                        for o in objects]  # the squares themselves
    # Bigger names first: a room's name is the map's skeleton.
    for area in sorted(areas, key=lambda a: -a["font"]):
        area["shown"] = False
        for font in (area["font"], round(area["font"] * 0.75, 1)):
            box = text_box(area["x"], area["y"], area["name"], font, "middle")
            if not _hits(box, taken[len(objects):]) and _inside(box, frame):
                area["font"], area["shown"] = font, True
                taken.append(box)
                break
    for obj in objects:
        full = obj["label"]
        obj["shown"] = False
        obj["lx"], obj["ly"], obj["anchor"] = _sides(obj, unit, obj["font"])[0]
        for text in dict.fromkeys((full, short(full, ABBREVIATED))):
            spot = next(((x, y, anchor) for x, y, anchor in _sides(obj, unit, obj["font"])
                         if _inside(box := text_box(x, y, text, obj["font"], anchor), frame)
                         and not _hits(box, taken)), None)
            if spot is not None:
                obj["lx"], obj["ly"], obj["anchor"] = spot
                obj["label"], obj["shown"] = text, True
                taken.append(text_box(*spot[:2], text, obj["font"], spot[2]))
                break
