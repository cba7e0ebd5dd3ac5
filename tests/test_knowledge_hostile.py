"""A hostile player on every shipped level: whatever it names, nothing unknown is named back.

Each turn it either walks through a listed way out (how a player explores) or names
things it never saw: objects, characters and ways out by ids not yet handed out (ids
follow perception, so the next numbers of each group name nothing perceived), and the
spots where unseen objects lie. Every view, text view,
result and error must name only ids of things the player knows, besides the areas
that ways out and known doors are signposted to (see PROTOCOL.md, "What the player
knows"), and an id the agent itself wrote, echoed back in its error.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from harness.episode.text_view import render_text_view
from harness.episode.turns import _PUBLIC_RESULT_KEYS
from tests.knowledge_kit import observation_of
from world.errors import WorldError
from world.observe.ids import LETTERS
from world.observe.session import WorldSession

GROUP_OF = {letter: group for group, letter in LETTERS.items()}
EPISODE_ID = re.compile(r"\b([adwoc])(\d+)\b")
ECHO = re.compile(r"with id '[^']*'")  # the id the agent gave, quoted back to it
TURNS = 24


def _signposted(view: dict) -> set[str]:
    # Areas a way out, a known door, the mission exit or an objective names by design.
    area = view["area"] or {}
    out = {w["to"] for w in area.get("ways_out", []) + area.get("windows", [])}
    out |= {a for d in view["doors"] for a in d["between"]}
    out |= {o["area"] for o in view["objectives"] if o["area"]}
    out |= {o["heading_to"]["area"] for o in view["objectives"] if o["heading_to"]}
    return out | ({view["exit"]["area"]} if view["exit"] else set())


def _unknown_named(game: WorldSession, text: str, allowed: set[str]) -> list[str]:
    # An id never handed out must not appear at all; one handed out, only while known.
    table = game.ids.table()
    return sorted({m.group(0) for m in EPISODE_ID.finditer(ECHO.sub("", text))
                   if m.group(0) not in allowed and (
                       m.group(0) not in table
                       or not game.knows(GROUP_OF[m.group(1)], table[m.group(0)]))})


def _probes(game: WorldSession, rng: random.Random) -> list[tuple[str, dict]]:
    table = game.ids.table()
    unknown = sorted(ep for ep, lid in table.items()
                     if not game.knows(GROUP_OF[ep[0]], lid) and ep[0] in "ocwd")
    for letter in "ocwd":  # the next numbers, which no perceived thing has yet
        given = sum(1 for ep in table if ep[0] == letter)
        unknown += [f"{letter}{given + 1}", f"{letter}{given + 2}"]
    out: list[tuple[str, dict]] = []
    for ep in rng.sample(unknown, min(3, len(unknown))):
        out += {"o": [("go_to_object", {"object_id": ep}), ("equip", {"item_id": ep})],
                "c": [("attack", {"character_id": ep})],
                "w": [("go_to_area", {"exit_id": ep})],
                "d": [("shoot_object", {"object_id": ep})]}[ep[0]]
    world = game.world
    hidden = sorted(oid for oid, o in world.objects.items()
                    if o.x is not None and not game.knows("object", oid))
    if hidden:
        spot = world.objects[rng.choice(hidden)]
        out.append(("go_to", {"x": spot.x, "z": spot.z}))
    return out


@pytest.mark.slow  # a few dozen actions on every shipped level
@pytest.mark.timeout(300)
def test_a_hostile_player_is_never_told_of_a_thing_it_does_not_know(shipped_level_id,
                                                                      session):
    game = session(shipped_level_id, "normal", 1)
    rng = random.Random(shipped_level_id)
    last: dict | None = None
    error: dict | None = None
    queue: list[tuple[str, dict]] = []
    for turn in range(TURNS):
        view = game.view()
        observation = {**observation_of(view), "last_result": last, "error": error}
        observation["budgets"].update(invalid_in_a_row=0, max_invalid_in_a_row=5)
        text = render_text_view(observation)
        allowed = _signposted(view)
        blob = text + json.dumps([view, last, error])
        assert not _unknown_named(game, blob, allowed), (shipped_level_id, turn, blob[:2000])
        assert len(text) < 6000, (shipped_level_id, turn, len(text))
        if game.status().ended:
            break
        if not queue:
            ways = (view["area"] or {}).get("ways_out", [])
            queue = _probes(game, rng) if turn % 2 or not ways else [
                ("go_to_area", {"exit_id": rng.choice(ways)["id"]})]
        action, args = queue.pop(0)
        try:
            result = game.act(action, args)
            last, error = {k: result.get(k) for k in _PUBLIC_RESULT_KEYS}, None
        except WorldError as exc:
            last, error = None, {"code": type(exc).__name__, "message": str(exc)}
