"""Bad calls raise typed errors that name the value and what is allowed, changing nothing."""


import pytest

from world.errors import InvalidRequestError, UnknownIdError
from world.sim import PlayerIntent, World

LEVEL_FILE = "sim_rooms.json"  # the `level` fixture's


@pytest.fixture
def world(level) -> World:
    w = World(level, "easy", seed=3)
    for _ in range(5):
        w.step(PlayerIntent(move_to=(300, 300)))
    return w


def test_unknown_difficulty_names_the_allowed_ones(level):
    with pytest.raises(UnknownIdError) as info:
        World(level, "nightmare", seed=1)
    assert "'nightmare'" in str(info.value) and "easy, normal" in str(info.value)
    assert info.value.allowed == ("easy", "normal")


BAD_CALLS = [
    (lambda w: w.use("ghost", "d_plain"), UnknownIdError, "no actor with id 'ghost'"),
    (lambda w: w.use("player", "nowhere"), UnknownIdError, "d_plain"),
    (lambda w: w.use("player", "terminal"), InvalidRequestError, "use reaches 120 units"),
    (lambda w: w.use("player", "sidearm"), InvalidRequestError, "carried, not placed"),
    (lambda w: w.equip("player", "blue_key"), InvalidRequestError, "carried: 'sidearm', 'spycam'"),
    (lambda w: w.equip("player", "laser"), UnknownIdError, "no object with id 'laser'"),
    (lambda w: w.fire("player", "yeti"), UnknownIdError, "dummy_wall"),
    (lambda w: w.fire("player", ("a", 1)), InvalidRequestError, "point (x, y, z)"),
    (lambda w: w.use_item_on("player", "blue_key", "safe"), InvalidRequestError, "does not carry"),
    (lambda w: w.use_item_on("player", "sidearm", "safe"), InvalidRequestError, "gadget, key"),
    (lambda w: w.use_item_on("player", "spycam", "padlock"), InvalidRequestError, "units away"),
    (lambda w: w.teleport("player", 5000, 5000), InvalidRequestError, "(5000.0, 5000.0)"),
    (lambda w: w.teleport("player", 100, 100, "attic"), UnknownIdError, "ground"),
    (lambda w: w.damage("player", -1), InvalidRequestError, "-1"),
    (lambda w: w.start_countdown("fuse"), UnknownIdError, "bomb"),
    (lambda w: w.step(PlayerIntent(use="terminal")), InvalidRequestError, "terminal"),
    (lambda w: w.step(PlayerIntent(equip="nope")), UnknownIdError, "nope"),
    (lambda w: w.blocked_doors(for_actor="ghost"), UnknownIdError, "ghost"),
]


@pytest.mark.parametrize(("call", "error", "text"), BAD_CALLS)
def test_bad_call_raises_and_leaves_the_world_unchanged(world, call, error, text):
    before, events, tick = world.state_hash(), len(world.events), world.tick
    with pytest.raises(error) as info:
        call(world)
    assert text in str(info.value)
    assert (world.state_hash(), len(world.events), world.tick) == (before, events, tick)


def test_acting_when_down_is_refused(world):
    world.damage("dummy_wall", 5)
    before = world.state_hash()
    with pytest.raises(InvalidRequestError, match="down"):
        world.fire("dummy_wall", "player")
    with pytest.raises(InvalidRequestError, match="already down"):
        world.fire("player", "dummy_wall")
    assert world.state_hash() == before
