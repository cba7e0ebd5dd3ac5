"""A hostile player on every Doom mission: whatever it names, nothing unknown is named back.

Like tests/test_knowledge_hostile.py for the shipped levels. Each turn it either walks
through a listed way out (how a player explores) or probes: names ids the episode has
handed out for things, doors and ways the player does not know, walks to where unseen
things lie and into rooms never seen, and to a point off the map. Every structured and
text view, result and error must name only what the player knows (besides the areas
ways out and known doors are signposted to), never an engine class name, a file path
or a traceback; walks keep to rooms known before them; text views stay under 6,000
characters.
"""

from __future__ import annotations

import json
import math
import random
import re

import pytest

from harness.core.level_refs import resolve
from harness.episode.text_view import render_text_view
from harness.episode.turns import _PUBLIC_RESULT_KEYS
from tests.doom_support import needs_engine
from tests.knowledge_kit import observation_of
from tests.shared import ROOT
from world.errors import UnknownIdError, WorldError
from world.face import new_session

MISSIONS = {"t01_e1m1_exit": "normal", "t04_defend_the_center": "normal",
            "t05_health_gathering": "normal", "t06_e1m2_secrets": "normal",
            "t16_map01_clear": "hard", "t17_my_way_home": "normal"}
TURNS = 12
EPISODE_ID = re.compile(r"\b[adwoc]\d+\b")
ECHO = re.compile(r"with id '[^']*'")  # the id the agent gave, quoted back to it
ENGINE_WORDS = ("Traceback", "File \"", ".wad", "site-packages", "vizdoom", "/usr/")


def _actor_names(game) -> set[str]:
    # The engine's class names: the table's, the scenarios' and whatever the map holds.
    tables = json.loads((ROOT / "world" / "doom" / "specials.json").read_text())
    names = {row[2] for row in tables["things"].values() if row[2]}
    names |= set(tables["script_actors"]) | {t.name for t in game.engine.snap.things}
    return {n for n in names if re.search(r"[a-z][A-Z]", n) or n == "Zombieman"}


def _known(game, ep: str, view: dict) -> bool:
    found = game.ids.lookup(ep)
    if found is None:
        return True  # never handed out: nothing behind it
    group, index = found
    if group == "area":
        area = view["area"] or {}
        signs = {w["to"] for w in area.get("ways_out", [])}
        signs |= {a for d in view["doors"] for a in d["between"]}
        return index in game.known.areas or ep in signs
    if group == "door":
        # Read from the map, not from the code under test: a door whose faces are
        # flagged secret is a wall until found (seen open beside it, or passed).
        door = game.doors[index]
        lines = game.layout.map.lines
        secret = any(ln.secret and door.sector in _sectors(game, ln) for ln in lines)
        found = index in getattr(game.known, "revealed", ())
        return game.known.knows_door(door) and (found or not secret)
    if group == "way":
        return game.leads_out(game.way(ep), game.layout.area_at(*game.engine.snap.xy))
    return index in game.known.things


def _sectors(game, line) -> set[int]:
    sides = game.layout.map.sides
    return {sides[s].sector for s in (line.front, line.back) if s is not None}


def _unseen(game) -> list:
    return [t for t in (*game.engine.snap.things, *game.known.fixed)
            if t.id not in game.known.things and t.category != "Player"]


def _positions(rows) -> list[tuple[float, float]]:
    return [(r["position"][0], r["position"][2]) for r in rows if r.get("position")] + \
        [(r["point"][0], r["point"][2]) for r in rows if r.get("point")]


def _check(game, view: dict, text: str, last, error, actors: set[str]) -> list[str]:
    blob = text + json.dumps([view, last, error])
    problems = [f"unknown id {m.group(0)}" for m in EPISODE_ID.finditer(ECHO.sub("", blob))
                if not _known(game, m.group(0), view)]
    problems += [f"engine name {a}" for a in actors if a in blob]
    problems += [f"engine text {w}" for w in ENGINE_WORDS if w.lower() in blob.lower()]
    shown = _positions(view["objects"] + view["characters"] + view["objectives"])
    problems += [f"position of unseen {t.name}" for t in _unseen(game)
                 for p in shown if math.dist(p, (t.x, t.y)) < 1]
    if len(text) >= 6000:
        problems.append(f"text view of {len(text)} characters")
    return problems


def _unknown_ids(game) -> list[str]:
    here = game.layout.area_at(*game.engine.snap.xy)
    out = [ep for ep in game.ids.handed_out(("object", "character"))
           if game.ids.lookup(ep)[1] not in game.known.things]
    out += [ep for ep in game.ids.handed_out(("way",))
            if not game.leads_out(game.way(ep), here)]
    out += [ep for ep in game.ids.handed_out(("door",))
            if not game.known.knows_door(game.doors[game.ids.lookup(ep)[1]])]
    # Ids follow perception: the next numbers of each group name nothing shown yet.
    for letter, group in (("o", "object"), ("c", "character"), ("w", "way"), ("d", "door")):
        given = len(game.ids.handed_out((group,)))
        out += [f"{letter}{given + 1}", f"{letter}{given + 2}"]
    return out


def _probes(game, rng: random.Random) -> list[tuple[str, dict]]:
    out: list[tuple[str, dict]] = []
    unknown = _unknown_ids(game)
    for ep in rng.sample(unknown, min(2, len(unknown))):
        out.append({"o": ("go_to_object", {"object_id": ep}), "d": ("go_to_object",
                    {"object_id": ep}), "c": ("attack", {"character_id": ep}),
                    "w": ("go_to_area", {"exit_id": ep})}[ep[0]])
    unseen = _unseen(game)
    if unseen:
        thing = rng.choice(unseen)
        out.append(("go_to", {"x": thing.x, "z": thing.y}))
    rooms = [a for a in game.layout.rooms.areas if a.index not in game.known.areas]
    if rooms:
        anchor = rng.choice(rooms).anchor
        out.append(("go_to", {"x": anchor[0], "z": anchor[1]}))
    return [*out, ("go_to", {"x": 1e9, "z": -1e9})]


@pytest.mark.slow  # a dozen actions on each of the six missions
@pytest.mark.timeout(600)
@needs_engine
@pytest.mark.parametrize("mission", sorted(MISSIONS))
def test_a_hostile_player_is_never_told_of_a_thing_it_does_not_know(mission: str) -> None:
    game = new_session(resolve(f"doom:{mission}").level, MISSIONS[mission], 0)
    try:
        game.plan()  # the runner writes the record's map before the first turn
        actors = _actor_names(game)
        rng = random.Random(mission)
        last = error = None
        queue: list[tuple[str, dict]] = []
        for turn in range(TURNS):
            view = game.view()
            observation = {**observation_of(view), "last_result": last, "error": error}
            observation["budgets"].update(invalid_in_a_row=0, max_invalid_in_a_row=5)
            text = render_text_view(observation)
            assert not _check(game, view, text, last, error, actors), (mission, turn, text)
            if game.status().ended:
                break
            if not queue:
                ways = (view["area"] or {}).get("ways_out", [])
                queue = _probes(game, rng) if turn % 2 or not ways else [
                    ("go_to_area", {"exit_id": rng.choice(ways)["id"]})]
            action, args = queue.pop(0)
            known = set(game.known.areas)
            try:
                result = game.act(action, args)
            except WorldError as exc:
                last, error = None, {"code": type(exc).__name__, "message": str(exc)}
                if isinstance(exc, UnknownIdError):
                    assert all(_known(game, ep, view) for ep in exc.allowed), (mission, exc)
                continue
            last, error = {k: result.get(k) for k in _PUBLIC_RESULT_KEYS}, None
            if result["end_reason"] == "no_known_route":
                assert result["distance_moved"] == 0, (mission, turn, action, args)
            if action != "go_to_area":
                crossed = {game.layout.area_at(p[0], p[2]) for p in result["path"]}
                assert crossed - known - {None} == set(), (mission, turn, action, args)
    finally:
        game.close()
