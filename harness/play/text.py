"""What the terminal front draws besides the text view: a character map and short lines.

The map shows the player's current storey from above (x to the right, z up the screen)
as the observations made it known (harness.play.known): each known area's sketch in
dots with its id, ways out and doors, objects, characters, the route walked and the
player. Every mark is a plain ASCII character, so it reads the same without colour.
"""

from __future__ import annotations

from typing import Any

from harness.play.known import KnownMap

# What each mark means, in the order the legend lists them (drawn later wins a cell).
MARKS: dict[str, str] = {
    ".": "known floor (sketch)", ":": "your route", "=": "way out", "+": "door",
    "o": "object", "*": "objective target", "h": "hostile", "f": "friendly",
    "x": "down", "@": "you",
}


def legend() -> str:
    """The map's legend on one line."""
    return "  ".join(f"{mark} {words}" for mark, words in MARKS.items())


def ascii_map(known: KnownMap, width: int, height: int) -> list[str]:
    """The current storey as `height` lines of `width` characters (empty before any turn)."""
    if not known.positions or width < 10 or height < 4:
        return []
    here = known.positions[-1][2]
    storey = known.storey_of(here[1])
    boxes = {a: b for a, b in known.boxes().items() if b[1] == storey}
    if not boxes:
        return []
    lo_x = min(b[2][0] for b in boxes.values())
    lo_z = min(b[2][1] for b in boxes.values())
    hi_x = max(b[2][2] for b in boxes.values())
    hi_z = max(b[2][3] for b in boxes.values())
    # Terminal cells are about twice as tall as wide: one scale keeps rooms' shapes.
    scale = max((hi_x - lo_x) / (width - 1), (hi_z - lo_z) / (2 * (height - 1)), 1e-6)
    grid = [[" "] * width for _ in range(height)]

    def cell(x: float, z: float) -> tuple[int, int] | None:
        col = round((x - lo_x) / scale)
        row = height - 1 - round((z - lo_z) / (2 * scale))
        return (row, col) if 0 <= row < height and 0 <= col < width else None

    def put(x: float, z: float, mark: str) -> None:
        at = cell(x, z)
        if at is not None:
            grid[at[0]][at[1]] = mark

    for _name, _storey, (ax, az, bx, bz) in boxes.values():
        corner, far = cell(ax, bz), cell(bx, az)
        if corner is None or far is None:
            continue
        for row in range(corner[0], far[0] + 1):
            for col in range(corner[1], far[1] + 1):
                grid[row][col] = "."
    for _turn, _tick, been in known.positions:
        if known.storey_of(been[1]) == storey:
            put(been[0], been[2], ":")
    _things(known, storey, put)
    put(here[0], here[2], "@")
    for area_id, (_name, _storey, (ax, az, bx, bz)) in boxes.items():
        middle = cell((ax + bx) / 2, (az + bz) / 2)
        if middle is not None:
            row, col = middle
            for i, char in enumerate(area_id):
                if col + i < width and grid[row][col + i] == ".":
                    grid[row][col + i] = char
    lines = ["".join(line).rstrip() for line in grid]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _things(known: KnownMap, storey: str | None, put: Any) -> None:
    def on_storey(position: Any) -> bool:
        return isinstance(position, list) and len(position) == 3 \
            and known.storey_of(float(position[1])) == storey

    for way in known.ways.values():
        if way.get("door") is None and on_storey(way.get("position")):
            put(way["position"][0], way["position"][2], "=")
    for door in known.doors.values():
        if on_storey(door.get("position")):
            put(door["position"][0], door["position"][2], "+")
    for obj in known.objects.values():
        if on_storey(obj.get("position")) and obj["id"] not in known.carried:
            mark = "*" if obj["id"] in known.targets else "o"
            put(obj["position"][0], obj["position"][2], mark)
    for who in known.characters.values():
        if on_storey(who.get("position")):
            mark = "x" if who.get("down") else "f" if who.get("friendly") else "h"
            put(who["position"][0], who["position"][2], mark)


def status_line(start: dict[str, Any] | None, observation: dict[str, Any] | None,
                name: str, reveal: bool) -> str:
    """The top line: who plays which level, the turn, health and what is left."""
    if start is None:
        return f" {name}: starting..."
    words = f" {name} playing {start.get('level')} ({start.get('difficulty')}, seed " \
            f"{start.get('seed')})"
    if reveal:
        words += " - PLAYTEST, level revealed, not scored"
    if observation is not None:
        player = (observation.get("view") or {}).get("player") or {}
        budgets = observation.get("budgets") or {}
        words += (f" | turn {observation.get('turn')} | health "
                  f"{round(100 * float(player.get('health') or 0))}% | "
                  f"{budgets.get('decisions_left')} decisions left")
    return words


def revealed_lines(plan: dict[str, Any]) -> list[str]:
    """A playtest's whole level in short lines (level ids, not the episode's)."""
    lines = ["WHOLE LEVEL (playtest, level ids):"]
    lines += [f"area {a['id']} {a['name']} ({a['storey']})" for a in plan.get("areas") or []]
    lines += [f"{o['id']} {o['kind']} '{o['name']}' at ({o['at'][0]:.0f}, {o['at'][1]:.0f})"
              + (" *target" if o.get("target") else "") for o in plan.get("objects") or []]
    lines += [f"{c['id']} {c['kind']} ({c['side']}) starts at ({c['at'][0]:.0f}, "
              f"{c['at'][2]:.0f})" for c in plan.get("characters") or []]
    return lines
