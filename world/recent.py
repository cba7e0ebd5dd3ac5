"""A bounded, process-wide cache of values derived from immutable inputs.

Meshes, layouts and path finders are derived from a frozen level (or mesh) alone and
reused by every world made from it; each such cache keeps the most recently used few
and drops the least recently used first, so levels an environment made and dropped are
not held past that bound.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class RecentCache(Generic[V]):
    """The `size` most recently used values, each made by its first `get`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept for `key`, made now by `make` when there is none."""
        if key in self._values:
            self._values.move_to_end(key)
            return self._values[key]
        value = self._values[key] = make()
        while len(self._values) > self.size:
            self._values.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every value."""
        self._values.clear()

    def __len__(self) -> int:
        return len(self._values)
