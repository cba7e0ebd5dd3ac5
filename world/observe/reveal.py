"""What the view may say of decoys and of objectives a note reveals (issue 37).

An objective with `revealed_by` is listed only once its note is read; a thing with
decoys is listed with all its look-alikes, numbered and ordered so that nothing tells
which one is real.
"""

from __future__ import annotations

from world.level.model import Objective
from world.objectives.system import revealed
from world.observe.ids import IdMap
from world.observe.knowledge import Knowledge
from world.sim.world import World


def shown_objectives(world: World) -> list[Objective]:
    """The objectives the player knows of, in the order the view lists (and numbers) them.

    An objective a note reveals (`revealed_by`, always after the others in the level) is
    listed only once the player has read the note, after those known before it, so no
    number changes and no gap tells of one not yet revealed.
    """
    known = [o for o in world.level.objectives if revealed(world, o)]
    late = sorted((o for o in known if o.revealed_by is not None),
                  key=lambda o: world.objects[o.revealed_by or ""].read_tick or 0)
    return [o for o in known if o.revealed_by is None] + late


def look_alikes_of(world: World, object_id: str) -> list[str]:
    """The thing and its decoys, alike to the eye (just the thing when it has none)."""
    return [object_id] + [o.id for o in world.level.objects if o.decoy_of == object_id]


def _id_order(ep: str) -> tuple[int, str]:
    # Episode ids in number order (o2 before o10).
    digits = ep.lstrip("abcdefghijklmnopqrstuvwxyz")
    return (int(digits) if digits.isdigit() else -1, ep)


def look_alike_rows(world: World, ids: IdMap, object_id: str, known: Knowledge) -> list[str]:
    """Episode ids of the known look-alikes of a thing, in id order.

    Those first numbered here are numbered by place, never real one first, and the list
    is in number order: neither says which is the real one.
    """
    seen = sorted((o for o in look_alikes_of(world, object_id) if o in known.objects),
                  key=lambda o: (world.objects[o].spot, o))
    return sorted((ids.ep("object", o) for o in seen), key=_id_order)
