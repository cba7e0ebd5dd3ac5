"""Episode ids: the harness's own numbering, shuffled with the episode seed.

Level ids (which may be telling, like "red_key") never reach the agent. Each group gets
a letter and numbers drawn from a seeded permutation, so an id carries no meaning from
the level file; characters that appear later are numbered in order of appearance.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from world.errors import UnknownIdError
from world.level.model import Level

# Group -> letter. Ways out cover exits of every kind and stairs; doors are exits too
# and get their own letter so "d3" always means a door.
LETTERS = {"area": "a", "door": "d", "way": "w", "object": "o", "character": "c"}
_SALT = 0x1D5  # keeps the numbering stream apart from the world's own generator


class IdMap:
    """Two-way mapping between level ids and episode ids, stable for one episode."""

    def __init__(self, level: Level, seed: int) -> None:
        rng = np.random.default_rng([seed, _SALT])
        self._to_ep: dict[tuple[str, str], str] = {}
        self._to_level: dict[str, str] = {}
        self._next: dict[str, int] = {}
        doors = [e.id for e in level.exits if e.kind == "door"]
        ways = [e.id for e in level.exits] + [s.id for s in level.stairs]
        groups = {
            "area": [a.id for a in level.areas],
            "door": doors,
            "way": ways,
            "object": [o.id for o in level.objects],
            "character": [c.id for c in level.characters],
        }
        for group, ids in groups.items():
            order = rng.permutation(len(ids)) if ids else []
            for number, index in enumerate(order, 1):
                self._bind(group, ids[int(index)], number)
            self._next[group] = len(ids) + 1

    def _bind(self, group: str, level_id: str, number: int) -> None:
        ep = f"{LETTERS[group]}{number}"
        self._to_ep[(group, level_id)] = ep
        self._to_level[ep] = level_id

    def ep(self, group: str, level_id: str) -> str:
        """The episode id of a level id in a group, numbering newcomers on first sight."""
        key = (group, level_id)
        if key not in self._to_ep:
            self._bind(group, level_id, self._next[group])
            self._next[group] += 1
        return self._to_ep[key]

    def any_ep(self, level_id: str) -> str:
        """The episode id of a level id of any group (doors before ways; unknown: as is)."""
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
        known = sorted((e for e in self._to_level if e[:1] in letters),
                       key=lambda e: (e[0], int(e[1:])))
        raise UnknownIdError(kind, ep_id, known)

    def holds(self, group: str, level_id: str, ep_id: str) -> bool:
        """Whether an episode id is the one a level id has in a group."""
        return self._to_ep.get((group, level_id)) == ep_id

    def table(self) -> dict[str, str]:
        """Every episode id numbered so far and the level id behind it, in id order."""
        order = sorted(self._to_level, key=lambda e: (e[0], int(e[1:])))
        return {ep: self._to_level[ep] for ep in order}

    def eps_where(self, groups: Iterable[str], keep: Callable[[str, str], bool]) -> list[str]:
        """Episode ids of the groups whose (group, level id) passes `keep`, in id order."""
        wanted = set(groups)
        found = {ep for (g, lid), ep in self._to_ep.items() if g in wanted and keep(g, lid)}
        return sorted(found, key=lambda e: (e[0], int(e[1:])))
