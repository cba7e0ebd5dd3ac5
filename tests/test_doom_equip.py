"""Doom's `equip`: a carried gun taken in hand by its id, refused for one not carried.

E1M2 of Freedoom Phase 1 lays a shotgun in the start room: the player walks over it
(Doom raises a gun picked up), draws the pistol, then the shotgun again.
"""

from __future__ import annotations

import pytest

from tests.doom_support import needs_engine


@pytest.fixture
def e1m2():
    from harness.core.level_refs import resolve
    from world.face import new_session

    level = resolve("doom:t06_e1m2_secrets").level
    session = new_session(level, "easy", 0)
    yield session
    session.close()


def _shotgun_seen(session) -> str:
    # The shotgun made known as if seen (its sighting as known.py records one).
    from world.doom.known import Sighting, describe

    snap = session.engine.snap
    thing = next(t for t in snap.things if t.name == "Shotgun")
    words = describe(thing)
    session.known.things[thing.id] = Sighting(thing, "object", words.kind, words.name,
                                              snap.tic, False)
    return session.ids.thing(thing, "object")


@needs_engine
@pytest.mark.slow
def test_equip_takes_the_shotgun_in_hand(e1m2):
    session = e1m2
    session.view()
    shotgun = _shotgun_seen(session)
    # The walk shoots back at what attacks on the way, as a player fetching a gun would.
    taken = session.act("go_to_object", {"object_id": shotgun, "return_fire": True})
    assert taken["detail"] == "Took it.", taken
    carried = {c["id"]: c["weapon"] for c in session.view()["player"]["carried"]}
    assert carried == {"i2": "pistol", "i3": "shotgun"}
    session.act("wait", {"seconds": 1.5})
    assert session.view()["player"]["in_hand"] == "i3"  # Doom raises a gun picked up
    drawn = session.act("equip", {"item_id": "i2"})
    assert (drawn["end_reason"], drawn["detail"]) == ("arrived", "Now holding i2.")
    assert session.view()["player"]["in_hand"] == "i2"
    assert session.engine.snap.counters["SELECTED_WEAPON"] == 2
    drawn = session.act("equip", {"item_id": "i3"})
    assert (drawn["end_reason"], drawn["detail"]) == ("arrived", "Now holding i3.")
    assert 0 < drawn["ticks"] < 60  # Doom lowers one gun and raises the other
    assert session.view()["player"]["in_hand"] == "i3"
    assert session.engine.snap.counters["SELECTED_WEAPON"] == 3
    again = session.act("equip", {"item_id": "i3"})
    assert (again["end_reason"], again["ticks"]) == ("arrived", 0)


@needs_engine
def test_equip_of_a_gun_not_carried_is_refused_naming_the_carried(e1m2):
    from world.errors import InvalidRequestError

    session = e1m2
    for item in ("i3", "i9", "shotgun"):
        with pytest.raises(InvalidRequestError, match=rf"does not carry '{item}'; carried: 'i2'"):
            session.act("equip", {"item_id": item})
    assert session.engine.snap.counters["SELECTED_WEAPON"] == 2


@needs_engine
def test_equip_of_a_gun_without_rounds_is_refused(e1m2):
    from world.errors import InvalidRequestError

    session = e1m2
    session.engine.snap.counters["AMMO2"] = 0.0  # as the status bar would show it spent
    with pytest.raises(InvalidRequestError, match=r"'i2' \(pistol\) has no rounds"):
        session.act("equip", {"item_id": "i2"})
