"""The environments' pictures: a top-down image of what the player knows, drawn with numpy.

`top_down` draws, on the player's storey, the areas the player knows (the ones it
walked in lighter), the doors it knows in the state it last perceived, the objects the
structured view lists (the same rule: as last perceived), the characters where it last
perceived them (larger when in sight now; a character only heard in one colour
whatever its side) and the player with its facing. Nothing
the player has not perceived is drawn, so a frame tells no more than the observation.
The frame is `FRAME_SIZE` square, uint8 RGB, framed on what the player knows (it grows
as the player explores); x runs to the right and z up.
"""

from __future__ import annotations

import importlib.util
import math
import os
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from world.face import look_alikes_of, shown_objectives

FRAME_SIZE = 256
MARGIN = 8
FACING_PX = 14
# Colours (RGB), declared once.
COLOURS: dict[str, tuple[int, int, int]] = {
    "known": (55, 55, 62), "visited": (95, 95, 105), "open": (70, 200, 90),
    "closed": (230, 150, 40), "locked": (220, 50, 50), "object": (230, 210, 60),
    "target": (60, 220, 230), "hostile": (235, 60, 60), "friendly": (80, 140, 255),
    "down": (110, 70, 70), "heard": (170, 120, 170), "player": (255, 255, 255),
    "cone": (150, 150, 150),
}


def render_modes() -> list[str]:
    """The render modes this machine serves: "human" only where a window can open."""
    human = _has_display() and importlib.util.find_spec("matplotlib") is not None
    return ["ansi", "rgb_array", *(["human"] if human else [])]


def check_render_mode(mode: str | None, offered: Sequence[str]) -> str | None:
    """The render mode if it can be served here.

    Raises:
        ValueError: A mode not offered, or "human" where no display or no matplotlib is.
    """
    if mode is None:
        return None
    if mode not in offered and mode != "human":
        raise ValueError(f"render_mode: {mode!r} is not offered; allowed: None, "
                         f"{', '.join(offered)}")
    if mode == "human":
        if not _has_display():
            raise ValueError("render_mode: 'human' needs a display and none is set "
                             "(DISPLAY, WAYLAND_DISPLAY); use 'rgb_array' (e.g. with "
                             "gymnasium.wrappers.RecordVideo)")
        if importlib.util.find_spec("matplotlib") is None:
            raise ValueError("render_mode: 'human' shows frames with matplotlib, which is "
                             "not installed (pip install matplotlib); or use 'rgb_array'")
    return mode


def _has_display() -> bool:
    return sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class Canvas:
    """A square RGB image over a rectangle of the world's ground (x, z)."""

    def __init__(self, box: tuple[float, float, float, float], size: int = FRAME_SIZE) -> None:
        x0, z0, x1, z1 = box
        self.size = size
        self.scale = (size - 2 * MARGIN) / max(x1 - x0, z1 - z0, 1.0)
        self.x0, self.z0 = x0, z0
        self.image = np.zeros((size, size, 3), dtype=np.uint8)
        centres = np.arange(size, dtype=np.float64) + 0.5
        self._cols, self._rows = np.meshgrid(centres, centres)

    def px(self, x: float, z: float) -> tuple[float, float]:
        """(column, row) of a ground point; z grows upward in the image."""
        return (MARGIN + (x - self.x0) * self.scale,
                self.size - MARGIN - (z - self.z0) * self.scale)

    def polygon(self, points: Sequence[tuple[float, float]], colour: tuple[int, int, int]
                ) -> None:
        """Fill a simple polygon (even-odd rule over the pixel centres)."""
        pts = np.array([self.px(x, z) for x, z in points])
        inside = np.zeros((self.size, self.size), dtype=bool)
        cols, rows = self._cols, self._rows
        for (c1, r1), (c2, r2) in zip(pts, np.roll(pts, -1, axis=0), strict=True):
            if r1 == r2:
                continue
            crosses = (r1 > rows) != (r2 > rows)
            at = c1 + (rows - r1) * (c2 - c1) / (r2 - r1)
            inside ^= crosses & (cols < at)
        self.image[inside] = colour

    def line(self, a: tuple[float, float], b: tuple[float, float],
             colour: tuple[int, int, int], ground: bool = True) -> None:
        """A one-pixel line between two points (ground points, or pixels if not `ground`)."""
        (c1, r1), (c2, r2) = (self.px(*a), self.px(*b)) if ground else (a, b)
        n = int(max(abs(c2 - c1), abs(r2 - r1))) * 2 + 2
        cs = np.linspace(c1, c2, n).astype(int)
        rs = np.linspace(r1, r2, n).astype(int)
        keep = (cs >= 0) & (cs < self.size) & (rs >= 0) & (rs < self.size)
        self.image[rs[keep], cs[keep]] = colour

    def dot(self, x: float, z: float, radius: float, colour: tuple[int, int, int]) -> None:
        """A filled disc of `radius` pixels at a ground point."""
        c, r = self.px(x, z)
        near = (self._cols - c) ** 2 + (self._rows - r) ** 2 <= radius * radius
        self.image[near] = colour


def _bounds(polygons: list[Sequence[tuple[float, float]]], here: tuple[float, float]
            ) -> tuple[float, float, float, float]:
    xs = [here[0], *(p[0] for poly in polygons for p in poly)]
    zs = [here[1], *(p[1] for poly in polygons for p in poly)]
    return min(xs), min(zs), max(xs), max(zs)


def top_down(game: Any, scan: Any = None, size: int = FRAME_SIZE) -> np.ndarray:
    """A (size, size, 3) uint8 image of what the player knows now (see the module)."""
    world, known, level = game.world, game.known, game.level
    player = world.player
    storey = player.storey
    areas = [a for a in level.areas if a.id in known.areas and a.storey == storey]
    canvas = Canvas(_bounds([a.polygon for a in areas], (player.x, player.z)), size)
    for area in areas:
        canvas.polygon(area.polygon, COLOURS["visited" if area.id in known.visited
                                              else "known"])
    area_ids = {a.id for a in areas}
    for exit_ in level.exits:
        if exit_.id in known.doors and set(exit_.areas) & area_ids:
            state = known.door_states.get(exit_.id, "closed")
            colour = COLOURS.get(state, COLOURS["closed"])
            start, end = exit_.segment
            canvas.line(start, end, colour)
    # As the view: only objectives known of, and every look-alike of a thing (issue 37).
    targets = {t for o in shown_objectives(world) if o.object
               for t in look_alikes_of(world, o.object)}
    for oid, obj in world.objects.items():
        # The structured view's rule: listed as last perceived, a thing taken unseen
        # still lies there for the player.
        if obj.x is None or oid not in known.objects or oid in known.gone:
            continue
        if obj.storey != storey or (not obj.present and obj.holder == player.id):
            continue
        canvas.dot(obj.x, obj.z, 2.5, COLOURS["target" if oid in targets else "object"])
    storey_of = {a.id: a.storey for a in level.areas}
    for cid, seen in known.characters.items():
        # The storey where it was perceived, not where it is now.
        actor = world.characters.get(cid)
        if actor is None or storey_of.get(seen.area or "") != storey:
            continue
        # As the view: a shot heard tells neither who fired nor on which side.
        side = "heard" if seen.heard else "down" if seen.down else (
            "friendly" if actor.side == "friendly" else "hostile")
        now = seen.tick == world.tick and not seen.heard
        canvas.dot(seen.position[0], seen.position[2], 4.0 if now else 2.5, COLOURS[side])
    _player(canvas, player.x, player.z, player.facing, scan)
    return canvas.image


def _player(canvas: Canvas, x: float, z: float, facing: float, scan: Any) -> None:
    here = canvas.px(x, z)
    if scan is not None:  # the ray scan's cone, a fixed length on the image
        for side in (-1, 1):
            angle = facing + side * math.radians(scan.fov_deg) / 2
            canvas.line(here, (here[0] + 3 * FACING_PX * math.cos(angle),
                               here[1] - 3 * FACING_PX * math.sin(angle)),
                        COLOURS["cone"], ground=False)
    canvas.dot(x, z, 4.0, COLOURS["player"])
    canvas.line(here, (here[0] + FACING_PX * math.cos(facing),
                       here[1] - FACING_PX * math.sin(facing)), COLOURS["player"], ground=False)


def show(frame: np.ndarray, viewer: Any = None) -> Any:
    """Show a frame in a matplotlib window (render mode "human"); returns the window."""
    import matplotlib.pyplot as plt  # start-up cost: only a "human" window needs it

    if viewer is None:
        plt.ion()
        figure, axes = plt.subplots()
        axes.set_axis_off()
        viewer = (figure, axes.imshow(frame))
    else:
        viewer[1].set_data(frame)
    viewer[0].canvas.draw_idle()
    plt.pause(0.001)
    return viewer


def close_window(viewer: Any) -> None:
    """Close a window `show` opened."""
    import matplotlib.pyplot as plt  # start-up cost: only a "human" window needs it

    plt.close(viewer[0])
