"""The words the view uses for objects: each kind and state declared once, with its meaning.

The view writes these names and PROTOCOL.md's tables are generated from them
(`harness.docgen.protocol`). `OBJECT_KINDS` must list exactly the object kind enum of
schemas/level.schema.json; a test holds the two together.
"""

from __future__ import annotations

from types import MappingProxyType

from world.sim.items import CODE_KINDS, READ_KINDS, ObjectRuntime

# Object kind -> what it is to the player and how it is worked.
OBJECT_KINDS: MappingProxyType[str, str] = MappingProxyType({
    "key": "Opens the doors made for it; carried once picked up (also listed in `keys`).",
    "weapon": "A gun or melee weapon to pick up; `weapon` names its type.",
    "ammo": "Rounds for the weapon type named in `weapon`; worth taking only for a gun "
            "carried.",
    "armour": "Adds armour when picked up (armour takes hits before health).",
    "medkit": "Restores health when picked up.",
    "poison": "Carried; `use_item_on` a character hurts it through armour.",
    "gadget": "Carried tool (camera, data copier, device); `use_item_on` an object marks "
              "it (photographed, copied, planted).",
    "panel": "Pressed with use (`go_to_object`, `turn_and_use`); opens the doors it drives.",
    "switch": "Pressed with use; toggles the doors it drives or silences its alarm.",
    "computer": "Used like a panel; opens the doors it drives.",
    "camera": "Watches a cone (`facing_deg`, `view_angle_deg`, `view_range`); raises its "
              "alarm once it has watched the player a while; gunfire breaks it.",
    "alarm": "Sounds when a camera or a character raises it, and may bring "
             "reinforcements; pressing use on it stops it.",
    "breakable": "Breaks under gunfire (`shoot_object`); may unlock the doors it holds.",
    "secret_trigger": "Used, or approached, to reveal a hidden passage.",
    "spawn_point": "Where characters enter (arena respawns, reinforcements).",
    "prop": "Scenery: nothing to do with it.",
    "note": "Words to read: press use on it (`go_to_object`, `turn_and_use`); the words "
            "are shown once, in that action's result (`read`), never again.",
    "keypad": "Takes a code (`enter_code`) and opens the doors it drives; too many wrong "
              "codes lock it out for good.",
})

# Object `state` in the view -> meaning; null means an ordinary object standing.
OBJECT_STATES: MappingProxyType[str, str] = MappingProxyType({
    "broken": "Shot to pieces: a camera sees nothing, a breakable no longer blocks.",
    "sounding": "An alarm ringing now.",
    "read": "A note the player has read; its words are not shown again.",
    "accepted": "A keypad that took the right code.",
    "locked_out": "A keypad shut for good by wrong codes: it takes no code.",
})
BROKEN, SOUNDING, READ, ACCEPTED, LOCKED_OUT = OBJECT_STATES


def object_state(obj: ObjectRuntime) -> str | None:
    """The `state` the view shows for an object standing in the world (None: ordinary)."""
    # A note's state says it was read (only the player reads), never what it said.
    if not obj.present:
        return None
    if obj.broken:
        return BROKEN
    if obj.active:
        return SOUNDING
    if obj.kind in READ_KINDS and obj.uses:
        return READ
    if obj.kind in CODE_KINDS:
        return LOCKED_OUT if obj.locked_out else (ACCEPTED if obj.accepted else None)
    return None


__all__ = ["ACCEPTED", "BROKEN", "LOCKED_OUT", "OBJECT_KINDS", "OBJECT_STATES", "READ",
           "SOUNDING", "object_state"]
