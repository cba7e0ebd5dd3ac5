"""Episode ids: numbered in the order the player first perceives each thing.

Level ids (which may be telling, like "red_key") never reach the agent. Each group gets
a letter, and its things are numbered 1, 2, ... as the player first perceives them
(`perceive`, before each view; things first named elsewhere, a result sentence or a way
out's far side, on first mention). So the largest id shown never exceeds the number of
things of that group perceived, and nothing unperceived has an id yet. The record's map
names every thing, perceived or not, in its own numbering (`map_id`, the level's order),
never shown to the agent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from world.errors import UnknownIdError
from world.level.model import Level

# Group -> letter. Ways out cover exits of every kind and stairs; doors are exits too
# and get their own letter so "d3" always means a door.
LETTERS = {"area": "a", "door": "d", "way": "w", "object": "o", "character": "c"}


def _order(ep: str) -> tuple[str, int]:
    return ep[0], int(ep[1:])


class IdMap:
    """Two-way mapping between level ids and episode ids, stable for one episode."""

    def __init__(self, level: Level, seed: int = 0) -> None:
        # The seed is not used: numbers follow perception, which the episode decides.
        del seed
        self._to_ep: dict[tuple[str, str], str] = {}
        self._to_level: dict[str, str] = {}
        self._next = dict.fromkeys(LETTERS, 1)
        groups = {
            "area": [a.id for a in level.areas],
            "door": [e.id for e in level.exits if e.kind == "door"],
            "way": [e.id for e in level.exits] + [s.id for s in level.stairs],
            "object": [o.id for o in level.objects],
            "character": [c.id for c in level.characters],
        }
        self._map = {(g, lid): f"{LETTERS[g]}{n}" for g, ids in groups.items()
                     for n, lid in enumerate(ids, 1)}

    def ep(self, group: str, level_id: str) -> str:
        """The episode id of a level id in a group, numbering it now if it has none.

        Call it only for what the player perceives now (the view, a result sentence):
        a number handed out is a thing perceived.
        """
        key = (group, level_id)
        if key not in self._to_ep:
            ep = f"{LETTERS[group]}{self._next[group]}"
            self._next[group] += 1
            self._to_ep[key] = ep
            self._to_level[ep] = level_id
        return self._to_ep[key]

    def perceive(self, group: str, level_ids: Iterable[str]) -> None:
        """Number the things of a group first perceived together, in the order given."""
        for level_id in level_ids:
            self.ep(group, level_id)

    def numbered(self, group: str, level_id: str) -> bool:
        """Whether a thing of a group has an episode id yet."""
        return (group, level_id) in self._to_ep

    def any_ep(self, level_id: str) -> str:
        """The episode id of a level id of any group (doors before ways; none yet: as is).

        Only for lists already filtered to what the player knows, and for the record.
        """
        for group in ("door", "object", "character", "area", "way"):
            if (group, level_id) in self._to_ep:
                return self._to_ep[(group, level_id)]
        return level_id

    def level_id(self, ep_id: str, allowed_groups: Iterable[str], kind: str) -> str:
        """The level id behind an episode id, if it belongs to one of the groups.

        Raises:
            UnknownIdError: naming the episode ids of those groups.
        """
        letters = {LETTERS[g] for g in allowed_groups}
        if ep_id in self._to_level and ep_id[:1] in letters:
            return self._to_level[ep_id]
        known = sorted((e for e in self._to_level if e[:1] in letters), key=_order)
        raise UnknownIdError(kind, ep_id, known)

    def holds(self, group: str, level_id: str, ep_id: str) -> bool:
        """Whether an episode id is the one a level id has in a group."""
        return self._to_ep.get((group, level_id)) == ep_id

    def table(self) -> dict[str, str]:
        """Every episode id numbered so far and the level id behind it, in id order."""
        return {ep: self._to_level[ep] for ep in sorted(self._to_level, key=_order)}

    def given(self) -> dict[str, str]:
        """Every episode id numbered so far and the map id of the same thing, in id order.

        A thing the level does not place (a character a wave brings) has no map id and
        is left out.
        """
        group_of = {letter: group for group, letter in LETTERS.items()}
        pairs = ((ep, (group_of[ep[0]], lid)) for ep, lid in self.table().items())
        return {ep: self._map[key] for ep, key in pairs if key in self._map}

    def map_id(self, group: str, level_id: str) -> str:
        """A thing's id in the record's map: the level's order, whether perceived or not."""
        return self._map[(group, level_id)]

    def map_table(self) -> dict[str, str]:
        """Every map id and the level id behind it, in id order."""
        return {m: lid for (_, lid), m in sorted(self._map.items(), key=lambda kv: _order(kv[1]))}

    def eps_where(self, groups: Iterable[str], keep: Callable[[str, str], bool]) -> list[str]:
        """Episode ids of the groups whose (group, level id) passes `keep`, in id order."""
        wanted = set(groups)
        found = {ep for (g, lid), ep in self._to_ep.items() if g in wanted and keep(g, lid)}
        return sorted(found, key=_order)
