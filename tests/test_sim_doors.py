"""Door state machines: opening and closing, keys, one-sided locks, one-way and panel doors."""



from world.sim import PlayerIntent, World

LEVEL_FILE = "sim_rooms.json"  # the `level` and `world` fixtures' level (easy, seed 1)


def kinds(world: World, start: int = 0) -> list[tuple[str, str]]:
    return [(e.kind, e.subject) for e in world.events.since(start)]


def test_plain_door_opens_over_time_and_closes_again(world):
    world.teleport("player", 200, 540)
    world.use("player", "d_plain")
    assert world.doors["d_plain"].state == "opening"
    assert "d_plain" in world.blocked_doors()
    for _ in range(14):
        world.step()
        assert world.doors["d_plain"].state == "opening"
    world.step()
    assert world.doors["d_plain"].state == "open"
    assert "d_plain" not in world.blocked_doors()
    world.use("player", "d_plain")
    assert world.doors["d_plain"].state == "closing"
    for _ in range(15):
        world.step()
    assert world.doors["d_plain"].state == "closed"
    got = [k for k, s in kinds(world) if s == "d_plain"]
    assert got == ["door_opening", "door_opened", "door_closing", "door_closed"]


def test_locked_door_needs_the_key(world):
    world.teleport("player", 600, 540)
    world.use("player", "d_key")
    assert world.doors["d_key"].state == "locked"
    refused = [e for e in world.events if e.kind == "door_refused"]
    assert refused and "blue_key" in refused[-1].detail
    assert "d_key" in world.blocked_doors(for_actor="player")
    world.teleport("player", 690, 150)
    world.step()
    assert "blue_key" in world.player.inventory
    assert "d_key" not in world.blocked_doors(for_actor="player")
    world.teleport("player", 600, 540)
    world.use("player", "d_key")
    assert world.doors["d_key"].state == "opening"
    assert ("door_unlocked", "d_key") in kinds(world)


def test_door_locked_from_one_side_opens_freely_from_the_other(world):
    world.teleport("player", 1250, 450)  # the locked side
    world.use("player", "d_lockside")
    assert world.doors["d_lockside"].state == "locked"
    world.teleport("player", 1150, 450, "ground")  # the free side
    world.use("player", "d_lockside")
    assert world.doors["d_lockside"].state == "open"  # opening_seconds is 0


def test_one_way_door_opens_only_from_its_side(world):
    world.teleport("player", 1150, 150)
    world.use("player", "d_oneway")
    assert world.doors["d_oneway"].state == "closed"
    assert world.events[-1].kind == "door_refused"
    world.teleport("player", 1250, 150)
    world.use("player", "d_oneway")
    assert world.doors["d_oneway"].state == "opening"


def test_characters_may_not_open_some_doors(world):
    world.characters["bob"].inventory.append("blue_key")
    world.teleport("bob", 350, 850)
    world.use("bob", "d_bars")
    assert world.events[-1].detail == "characters may not open it"


def test_panel_door_ignores_use_and_closes_again_on_time(world):
    world.teleport("player", 1000, 540)
    world.use("player", "d_panel")
    assert world.doors["d_panel"].state == "closed"
    assert "panel1" in world.events[-1].detail
    world.teleport("player", 1100, 500)
    world.use("player", "panel1")
    assert world.doors["d_panel"].state == "opening"
    for _ in range(15):
        world.step()
    assert world.doors["d_panel"].state == "open"
    for _ in range(59):
        world.step()
    assert world.doors["d_panel"].state == "open"
    world.step()
    assert world.doors["d_panel"].state == "closing"
    for _ in range(15):
        world.step()
    assert world.doors["d_panel"].state == "closed"


def test_panel_door_waits_for_an_actor_in_the_doorway(world):
    world.teleport("player", 1100, 500)
    world.use("player", "panel1")
    for _ in range(15):
        world.step()
    world.teleport("player", 1000, 600)
    for _ in range(120):
        world.step()
    assert world.doors["d_panel"].state == "open"
    assert ("door_blocked", "d_panel") in kinds(world)
    world.teleport("player", 1000, 400)
    world.step()
    assert world.doors["d_panel"].state == "closing"


def test_blocked_doors_lists_hidden_exits_until_revealed(world):
    assert "h_closet" in world.blocked_doors()
    world.teleport("player", 1500, 500)
    world.use("player", "loose_brick")
    assert "h_closet" not in world.blocked_doors()
    assert ("exit_revealed", "h_closet") in kinds(world)
    world.teleport("player", 1500, 560)
    for _ in range(20):
        world.step(PlayerIntent(move_to=(1500, 800)))
    assert world.player.area == "r_secret"
    assert ("secret_found", "player") in kinds(world)
