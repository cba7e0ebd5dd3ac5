"""The facility's floor plan and cast as tables, read by make_facility.py.

Offsets are from the south-west corner of the area named; rooms are listed west to
east; a min difficulty of None means every difficulty.
"""

from __future__ import annotations

from typing import Any

# storey id -> (height, name prefix, light, south rooms, north rooms); rooms west to east.
STOREYS: dict[str, tuple[int, str, float, list[tuple[str, str]], list[tuple[str, str]]]] = {
    "ground": (0, "Ground", 1.0,
               [("reception", "Reception"), ("canteen", "Canteen"), ("kitchen", "Kitchen"),
                ("guard_post", "Guard post"), ("armoury", "Armoury"), ("boiler", "Boiler room")],
               [("lockers", "Locker room"), ("briefing", "Briefing room"),
                ("security", "Security office"), ("first_aid", "First aid"),
                ("workshop", "Workshop"), ("vehicle_bay", "Vehicle bay")]),
    "labs": (400, "Labs", 0.9,
             [("chem", "Chemistry lab"), ("bio", "Biology lab"), ("clean", "Clean room"),
              ("test_bay", "Test bay"), ("control", "Lab control room"),
              ("samples", "Sample store")],
             [("staff", "Staff room"), ("optics", "Optics lab"), ("materials", "Materials lab"),
              ("calibration", "Calibration room"), ("cold_store", "Cold store"),
              ("lab_records", "Lab records")]),
    "archive": (800, "Archive", 0.6,
                [("records_a", "Records room A"), ("records_b", "Records room B"),
                 ("server_hall", "Server hall"), ("cooling", "Cooling plant"),
                 ("uplink", "Uplink room"), ("director", "Director's office")],
                [("reading", "Reading room"), ("microfilm", "Microfilm room"),
                 ("tape_vault", "Tape vault"), ("print_room", "Print room"),
                 ("dispatch", "Dispatch office"), ("watch_room", "Watch room")]),
}

# Room doors that are not plain closed doors: area id -> door settings.
SPECIAL_DOORS: dict[str, dict[str, Any]] = {
    "labs_test_bay": {"initial": "closed", "panel": "test_bay_panel", "open_seconds": 8},
    "archive_server_hall": {"initial": "closed", "panel": "server_panel", "open_seconds": 10},
    "archive_uplink": {"initial": "locked", "key": "uplink_key"},
    "ground_armoury": {"initial": "locked", "key": "armoury_key"},
}
# Corridor joints that are doors (storey, joint number k between segment k-1 and k).
SECURITY_DOORS = {("ground", 3), ("labs", 3), ("archive", 2), ("archive", 4)}

# Placed objects: (id, kind, name, area, x offset, z offset in the area, extra fields).
OBJECTS: list[tuple[str, str, str, str, int, int, dict[str, Any]]] = [
    ("device", "gadget", "tracking device", "ground_workshop", 800, 800, {"gadget": "device"}),
    ("armoury_key", "key", "armoury key", "ground_security", 150, 850, {}),
    ("armoury_vest", "armour", "body armour", "ground_armoury", 500, 150, {"amount": 0.6}),
    ("armoury_ammo", "ammo", "silenced rounds", "ground_armoury", 800, 150,
     {"weapon": "silenced_pistol", "amount": 32}),
    # A vest and a medkit by the start: the front door opens on a guarded corridor, and
    # the stealth of later storeys should not hinge on winning the first gunfight unhurt.
    ("yard_vest", "armour", "flak vest", "yard", 100, 450, {"amount": 0.5}),
    ("yard_medkit", "medkit", "medkit", "yard", 100, 750, {"amount": 0.5}),
    ("first_aid_kit", "medkit", "medkit", "ground_first_aid", 500, 850, {"amount": 0.6}),
    # Each upper storey is reached by the stairs alone, so whoever comes up hurt from the
    # storey below finds a medkit and a vest at the top rather than a gunfight.
    ("labs_stair_medkit", "medkit", "medkit", "labs_stair_top", 100, 300, {"amount": 0.5}),
    ("labs_stair_vest", "armour", "flak vest", "labs_stair_top", 100, 100, {"amount": 0.5}),
    ("archive_stair_medkit", "medkit", "medkit", "archive_stair_top", 100, 100, {"amount": 0.5}),
    ("archive_stair_vest", "armour", "flak vest", "archive_stair_top", 100, 300, {"amount": 0.5}),
    # Rounds at each stair head too: one magazine box in the armoury does not last three
    # storeys of guards, and a player out of rounds can only run.
    ("labs_stair_ammo", "ammo", "silenced rounds", "labs_stair_top", 700, 300,
     {"weapon": "silenced_pistol", "amount": 24}),
    ("archive_stair_ammo", "ammo", "silenced rounds", "archive_stair_top", 700, 100,
     {"weapon": "silenced_pistol", "amount": 24}),
    # And at the foot of the stairs on the way out: whoever comes down from the archive
    # worn down meets the vehicle bay's gunman before any other medkit.
    ("landing_medkit", "medkit", "medkit", "ground_landing", 100, 100, {"amount": 0.5}),
    ("landing_vest", "armour", "flak vest", "ground_landing", 100, 300, {"amount": 0.5}),
    ("landing_ammo", "ammo", "silenced rounds", "ground_landing", 700, 300,
     {"weapon": "silenced_pistol", "amount": 24}),
    ("labs_medkit", "medkit", "medkit", "labs_staff", 500, 850, {"amount": 0.5}),
    # The archive corridor is where the mission's fights happen: a medkit in the middle
    # section and one by the director's door, so a player worn down there can patch up
    # without going back to the stairs.
    ("archive_hall_medkit", "medkit", "medkit", "archive_hall_3", 500, 360, {"amount": 0.5}),
    ("archive_east_medkit", "medkit", "medkit", "archive_hall_5", 700, 360, {"amount": 0.5}),
    # The server hall's guard is met in its doorway and its door shuts behind the player:
    # a medkit inside lets a player worn down by that duel patch up behind the shut door
    # before the corridor patrol, drawn by the shots, is met on the way out.
    ("server_medkit", "medkit", "medkit", "archive_server_hall", 200, 500, {"amount": 0.5}),
    # Likewise behind the test bay's panel door, after its guard is met in the doorway.
    ("test_bay_medkit", "medkit", "medkit", "labs_test_bay", 850, 600, {"amount": 0.5}),
    ("ground_hall_medkit", "medkit", "medkit", "ground_hall_4", 500, 360, {"amount": 0.5}),
    ("archive_medkit", "medkit", "medkit", "archive_reading", 150, 850, {"amount": 0.5}),
    ("prototype", "prop", "prototype rig", "labs_test_bay", 500, 300, {}),
    ("mainframe", "computer", "mainframe console", "archive_server_hall", 500, 200, {}),
    ("uplink_mast", "prop", "uplink transmitter", "archive_uplink", 500, 200, {}),
    ("uplink_key", "key", "uplink key", "archive_director", 800, 200, {}),
    ("test_bay_panel", "panel", "test bay panel", "labs_hall_3", 350, 40,
     {"targets": ["labs_test_bay_door"]}),
    ("server_panel", "panel", "server hall panel", "archive_hall_2", 350, 40,
     {"targets": ["archive_server_hall_door"]}),
    # The panel doors close behind whoever went in and have no handle: a second panel
    # inside, beside the door, lets the player out again.
    ("test_bay_exit_panel", "panel", "test bay exit panel", "labs_test_bay", 650, 960,
     {"targets": ["labs_test_bay_door"]}),
    ("server_exit_panel", "panel", "server hall exit panel", "archive_server_hall", 650, 960,
     {"targets": ["archive_server_hall_door"]}),
]
# Alarms, one per storey, in a room of that storey, bringing soldiers to the stair landing.
ALARMS = {"ground": "ground_security", "labs": "labs_control", "archive": "archive_watch_room"}
# Cameras: (id, area, x offset, z offset, facing degrees, storey whose alarm it raises).
# Each hangs clear of the walls, so a shot from a doorway has a clean line to it.
CAMERAS = [
    # Mounted mid-section looking east, its back to the front door: whoever opens the door
    # sees it down the corridor and can shoot it out from the doorway, out of its cone
    # and beyond the reach at which it would sense someone beside it.
    ("cam_ground_hall", "ground_hall_0", 600, 350, 0, "ground"),
    ("cam_labs_hall", "labs_hall_0", 150, 300, 0, "labs"),
    # The room cameras watch their room's target from beside its door, so whoever opens
    # the door sees them through the doorway and can shoot them out from the corridor,
    # behind their view, before stepping into it.
    ("cam_test_bay", "labs_test_bay", 600, 850, -105, "labs"),
    # Mounted at the west end of the last section, looking east at whoever comes off the
    # stairs: seen from the landing before its shorter reach in the dim archive finds
    # the player, so it can be shot out or its view waited out.
    ("cam_archive_hall", "archive_hall_5", 100, 300, 0, "archive"),
    ("cam_server_hall", "archive_server_hall", 600, 850, -105, "archive"),
]

# Characters: (id, kind, weapon, area, x offset, z offset, behaviour, min difficulty).
GUARDS: list[tuple[str, str, str | None, str, int, int, str, str | None]] = [
    ("gate_guard", "guard", "pistol", "yard", 1000, 900, "guard", None),
    ("reception_guard", "guard", "pistol", "ground_reception", 700, 500, "guard", None),
    ("post_guard", "guard", "pistol", "ground_guard_post", 500, 500, "guard", None),
    ("security_guard", "guard", "pistol", "ground_security", 700, 500, "idle", None),
    ("bay_guard", "guard", "smg", "ground_vehicle_bay", 500, 700, "guard", None),
    ("canteen_guard", "guard", "pistol", "ground_canteen", 300, 300, "idle", "normal"),
    ("boiler_guard", "guard", "pistol", "ground_boiler", 500, 500, "guard", "normal"),
    # Hard's extra guards stand in rooms; four of them in rooms west of the targets and
    # the stairs, where a player who keeps to the route need not meet them: every hard
    # run met the whole cast along that route and died of attrition.
    ("briefing_guard", "soldier", "smg", "ground_briefing", 500, 500, "guard", "hard"),
    ("kitchen_guard", "guard", "pistol", "ground_kitchen", 500, 500, "idle", "hard"),
    ("locker_guard", "guard", "pistol", "ground_lockers", 500, 500, "idle", "hard"),
    # Two sections west of the test bay door, out of sight of it: posted beside that door
    # he joined its guard's duel in the doorway, two guns at once.
    ("labs_hall_guard", "guard", "pistol", "labs_hall_1", 500, 200, "guard", None),
    # A sidearm too: the test bay is visited only for normal's photograph, and its guard
    # with a spray gun was where most normal runs ended, worn down by the storeys above.
    ("test_bay_guard", "guard", "pistol", "labs_test_bay", 200, 700, "guard", None),
    ("control_guard", "guard", "pistol", "labs_control", 500, 500, "idle", None),
    ("optics_guard", "guard", "pistol", "labs_optics", 500, 500, "guard", None),
    ("samples_guard", "guard", "pistol", "labs_samples", 500, 500, "guard", "hard"),
    ("cold_guard", "guard", "pistol", "labs_cold_store", 500, 500, "guard", "normal"),
    ("staff_soldier", "soldier", "smg", "labs_staff", 300, 300, "guard", "hard"),
    ("records_guard", "soldier", "smg", "labs_lab_records", 500, 500, "idle", "hard"),
    ("microfilm_guard", "guard", "pistol", "archive_microfilm", 500, 500, "guard", "hard"),
    ("archive_hall_guard", "guard", "pistol", "archive_hall_1", 500, 200, "guard", "hard"),
    # A sidearm, like the other room guards: he faces the door the player must come
    # through, and the hall's scientist stands in the way of any spray.
    ("server_guard", "guard", "pistol", "archive_server_hall", 800, 700, "guard", None),
    ("director_guard", "guard", "pistol", "archive_director", 300, 600, "guard", None),
    ("watch_guard", "guard", "pistol", "archive_watch_room", 500, 500, "idle", None),
    ("tape_guard", "guard", "pistol", "archive_tape_vault", 500, 500, "guard", "normal"),
    ("uplink_guard", "soldier", "smg", "archive_uplink", 800, 700, "guard", "normal"),
    ("dispatch_guard", "guard", "pistol", "archive_dispatch", 500, 500, "idle", "normal"),
    ("cooling_guard", "soldier", "smg", "archive_cooling", 500, 500, "guard", "hard"),
    ("print_guard", "soldier", "rifle", "archive_print_room", 500, 500, "guard", "hard"),
]
# Guards posted in rooms hear gunfire only this far through their walls, so a fight in
# the corridor draws the corridor's guards, not every room along it.
ROOM_HEARING = 450
# Patrols walk their storey's corridor between two sections and back: (id, storey, first
# section, last section, min difficulty). The ground patrols keep to the east half, each
# on a beat of its own either side of the security door, so the front door opens on the
# reception guard alone and the corridor's guns are met one at a time rather than all at
# once; the upper patrols walk the whole corridor, one per storey at every difficulty.
PATROLS: list[tuple[str, str, int, int, str | None]] = [
    ("ground_patrol", "ground", 2, 3, None), ("labs_patrol", "labs", 0, 5, None),
    ("archive_patrol", "archive", 0, 5, None), ("ground_patrol_2", "ground", 4, 5, "normal"),
]
SCIENTISTS: list[tuple[str, str, int, int, str]] = [
    ("sci_chem", "labs_chem", 500, 500, "idle"), ("sci_bio", "labs_bio", 400, 600, "idle"),
    ("sci_clean", "labs_clean", 500, 500, "stay"), ("sci_test", "labs_test_bay", 700, 400, "stay"),
    ("sci_optics", "labs_optics", 300, 300, "idle"),
    ("sci_materials", "labs_materials", 500, 500, "idle"),
    ("sci_calibration", "labs_calibration", 500, 500, "stay"),
    ("sci_server", "archive_server_hall", 300, 300, "stay"),
    ("sci_reading", "archive_reading", 600, 600, "idle"),
    ("sci_records", "archive_records_b", 500, 500, "idle"),
]

BRIEF = (
    "A research facility on three storeys is building something it should not. On the "
    "archive storey, copy the mainframe's data with your copier and plant the tracking "
    "device (collect it from the ground-floor workshop) on the uplink transmitter; the "
    "uplink room's key is in the director's office. On normal and harder, also photograph "
    "the prototype in the labs' test bay. The scientists are not the enemy: none may come "
    "to harm. Cameras watch the corridors and raise the storey's alarm, which brings "
    "soldiers up the stairs. Leave through the loading dock behind the vehicle bay."
)
NOTE = (
    "Archetype: facility, and the large benchmark level for simulation speed. Three storeys "
    "share one plan (a corridor of six segments with rooms either side and a stair tower at "
    "the east end). The briefing gives the floor plan, the three targets and where the "
    "tracking device is issued, never the guards, keys or panels: the agent still finds "
    "the key to the uplink room and the panels of the panel doors by looking. "
    "Stealth pays: corridor cameras raise their storey's alarm, which sends soldiers to the "
    "stair landing; the test bay and server hall panel doors close again after a few "
    "seconds. The scientists are friendly and must be spared. Normal adds the photograph and "
    "more guards; hard adds a no-alarm rule, soldiers and ten more guards. Edits after "
    "play-testing: upper landings leave a stairwell opening over the flight below; room "
    "guards hear gunfire only 4.5 m through their walls; medkits mid and east in the archive "
    "corridor, by the workshop and inside the server hall and test bay; a medkit, a vest and "
    "silenced rounds at each upper stair head and at the foot of the stairs; a second panel "
    "inside each panel door; the corridor cameras are seen before they see; the room cameras "
    "hang beside their doors watching the target, so they are shot through the open doorway "
    "from behind their view; the ground patrols walk beats either side of the security door; "
    "room guards carry pistols; normal multipliers sit a step above easy; the labs corridor "
    "guard stands two sections west of the test bay door. Hard was a war of attrition (every "
    "run died on the targets' route), so its extra guards now stand in rooms, four of them in "
    "west rooms off that route, the upper storeys keep one patrol each, and its multipliers "
    "are normal's but for sharper sight: hard stays harder by its cast and the no-alarm rule. "
    "Difficulties keep their order: more guards and soldiers at each step, never an easier "
    "multiplier, and the no-alarm rule at hard."
)
