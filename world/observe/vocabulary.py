"""The words the view uses for objects: each kind and state declared once, with its meaning.

The view writes these names and PROTOCOL.md's tables are generated from them
(`harness.protocol_docs`). `OBJECT_KINDS` must list exactly the object kind enum of
schemas/level.schema.json; a test holds the two together.
"""

from __future__ import annotations

from types import MappingProxyType

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
})

# Object `state` in the view -> meaning; null means an ordinary object standing.
OBJECT_STATES: MappingProxyType[str, str] = MappingProxyType({
    "broken": "Shot to pieces: a camera sees nothing, a breakable no longer blocks.",
    "sounding": "An alarm ringing now.",
})
BROKEN, SOUNDING = OBJECT_STATES

__all__ = ["BROKEN", "OBJECT_KINDS", "OBJECT_STATES", "SOUNDING"]
