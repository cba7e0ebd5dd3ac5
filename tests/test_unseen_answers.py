"""No answer about the unseen (34): a hostile agent probing with go_to learns nothing.

go_to toward a point off the floor the player knows answers alike whatever lies there:
no floor, floor never seen, or a secret room (hidden_crypt's cellar, found at turn 0 by
the old answers).
"""

from __future__ import annotations

import json

import pytest

from tests.level_factory import knowledge_level
from tests.shared import SHIPPED_LEVELS
from world.errors import UnknownIdError, WorldError
from world.level.load import load_level, parse_level
from world.observe.session import WorldSession


def _crypt(cellar: str) -> WorldSession:
    # hidden_crypt with its cellar (south of the start room, behind a hidden gap) as a
    # secret room, as plain floor never seen (its gap a shut door), or not there at all.
    data = json.loads((SHIPPED_LEVELS / "hidden_crypt.json").read_text())
    if cellar == "unseen floor":
        next(a for a in data["areas"] if a["id"] == "cellar")["secret"] = False
        gap = next(e for e in data["exits"] if e["id"] == "cellar_gap")
        gap.update(kind="door", hidden=False, door={"initial": "closed", "opening_seconds": 1})
    elif cellar == "no floor":
        data["areas"] = [a for a in data["areas"] if a["id"] != "cellar"]
        data["exits"] = [e for e in data["exits"] if e["id"] != "cellar_gap"]
        data["objects"] = [o for o in data["objects"]
                           if o["id"] not in ("old_lever", "cellar_medkit")]
        next(o for o in data["objects"] if o["id"] == "loose_brick")["targets"] = [
            "ossuary_gap"]
    level = parse_level(data)
    session = WorldSession(level, level.difficulties[-1].id, 0)
    session.view()
    return session


def _answer(session: WorldSession, x: float, z: float) -> tuple:
    r = session.act("go_to", {"x": x, "z": z})
    return (r["end_reason"], r["detail"], r["ticks"], r["distance_moved"], r["changes"],
            r["adjusted_target"], session.tick, session.view()["player"]["position"])


CELLAR = ("secret room", "unseen floor", "no floor")
# Targets where the cellar is (or is not), near the start room's wall and far from it,
# and one past the snapping reach.
TARGETS = ((300.0, 900.0), (300.0, 1050.0), (100.0, 1250.0), (900.0, 1100.0), (300.0, 1400.0))


@pytest.mark.parametrize("x,z", TARGETS)
def test_go_to_answers_alike_whatever_lies_off_known_floor(x, z):
    answers = {cellar: _answer(_crypt(cellar), x, z) for cellar in CELLAR}
    assert len(set(map(repr, answers.values()))) == 1, answers


def test_go_to_off_known_floor_moves_onto_it_or_refuses():
    # Within reach of known floor the walk ends on it; beyond, no_known_route.
    near = _crypt("secret room").act("go_to", {"x": 300.0, "z": 1050.0})
    assert near["end_reason"] == "arrived" and near["adjusted_by"] > 250
    assert near["adjusted_target"][2] < 800
    far = _crypt("secret room").act("go_to", {"x": 300.0, "z": 1400.0})
    assert far["end_reason"] == "no_known_route" and far["ticks"] == 0


def test_go_to_on_known_floor_still_walks():
    session = _crypt("secret room")
    assert session.act("go_to", {"x": 600.0, "z": 400.0})["end_reason"] == "arrived"


def _session(name: str = "hidden_crypt") -> WorldSession:
    level = load_level(SHIPPED_LEVELS / f"{name}.json")
    session = WorldSession(level, level.difficulties[-1].id, 0)
    session.view()
    return session


@pytest.mark.parametrize("action,args", [
    ("go_to_object", {"object_id": "o9"}),
    ("go_to_area", {"exit_id": "w9"}),
    ("use_item_on", {"item_id": "o1", "object_id": "o9"}),
    ("shoot_object", {"object_id": "o9"}),
])
def test_unperceived_ids_get_the_unknown_id_answer(action, args):
    # An id no thing has been given yet is refused like any id never shown, and the
    # list of allowed ids names only ids shown.
    session = _session()
    shown = session.ids.table()
    with pytest.raises(UnknownIdError) as caught:
        session.act(action, args)
    assert all(e in shown for e in caught.value.allowed)


def test_refusals_quote_no_level_id():
    # World errors quote level ids; the agent reads episode ids (known things, numbered
    # on mention) or "unknown", never a level file's name such as 'loose_brick'.
    session = _session()
    level = session.level
    names = {*level.ids("area"), *level.ids("exit"), *(o.id for o in level.objects),
             *(c.id for c in level.characters)}
    brick = next(o["id"] for o in session.view()["objects"] if o["name"] == "loose brick")
    messages = []
    for action, args in (("equip", {"item_id": brick}),
                         ("use_item_on", {"item_id": "o1", "object_id": brick}),
                         ("go_to_object", {"object_id": "o99"})):
        with pytest.raises(WorldError) as caught:
            session.act(action, args)
        messages.append(str(caught.value))
    assert not [n for n in names for m in messages if f"'{n}'" in m or f" {n}," in m], messages


def test_a_known_room_answers_alike_whether_unseen_floor_leads_there_or_nothing_does():
    # The far room is briefed (known) but the room between is not: a walk there has no
    # known route whether the unseen room joins them or no floor does at all (the old
    # answer told them apart: no_known_route against unreachable).
    def answer(joined: bool) -> tuple:
        data = knowledge_level()
        data["briefing"] = {"areas": ["far"]}
        if not joined:
            data["exits"] = [e for e in data["exits"] if e["id"] != "far_gap"]
        game = WorldSession(parse_level(data), "easy", 0)
        game.view()
        r = game.act("go_to", {"x": 1500, "z": 300})
        return r["end_reason"], r["detail"], r["ticks"]

    assert answer(True) == answer(False) == ("no_known_route", answer(True)[1], 0)
