"""The templates, declared once, and generation: (template, seed, parameters) -> level.

The same template, seed, parameters and GENERATOR_VERSION give the same level, byte for
byte: the one generator is seeded from the canonical name, and nothing else (no clock,
no hash order) reaches the build. (Version 4 was corrected once, for mazes that could
not be won; only those changed: docs/missions.md, "Generated missions".)
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

from world.generate import (
    arena,
    courier,
    crossing,
    errand,
    expedition,
    hold,
    maze,
    records,
    relay,
    rescue,
    stealth,
    vault,
)
from world.generate.naming import GeneratedName, GenerateError, parse_name
from world.generate.template import Template

GENERATOR_VERSION = "4"
"""Raised whenever a template's output for some seed changes; records name it."""

TEMPLATES: dict[str, Template] = {t.name: t for t in (
    maze.TEMPLATE, rescue.TEMPLATE, stealth.TEMPLATE, hold.TEMPLATE, errand.TEMPLATE,
    crossing.TEMPLATE, courier.TEMPLATE, vault.TEMPLATE, records.TEMPLATE,
    relay.TEMPLATE, expedition.TEMPLATE, arena.TEMPLATE)}
MISSION_TEMPLATES: dict[str, Template] = {n: t for n, t in TEMPLATES.items() if not t.match}
"""The templates of one agent's missions (every one but the match arenas)."""


@dataclass(frozen=True)
class GeneratedLevel:
    """A generated level and exactly what produced it."""

    name: str
    template: str
    seed: int
    params: dict[str, Any]  # every parameter, defaults filled
    generator_version: str
    data: dict[str, Any]

    def origin(self) -> dict[str, Any]:
        """What a record or results table stores to name what was played."""
        return {"name": self.name, "template": self.template, "seed": self.seed,
                "params": self.params, "generator_version": self.generator_version}

    def text(self) -> str:
        """The level file's text (stable key order, two-space indent, final newline)."""
        return level_text(self.data)


def level_text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def level_id(name: GeneratedName) -> str:
    """`<template>_<digest of the name>`, the level's id when no other is given.

    Anyone can compute it from a name, so it names its seed to whoever tries the seeds:
    the harness gives every level it plays an id drawn from its secret instead
    (harness/core/keys.py); this one is for `harness generate` and `harness check`.
    """
    digest = hashlib.sha256(f"{GENERATOR_VERSION}:{name.text()}".encode()).hexdigest()[:12]
    return f"{name.template}_{digest}"


def origin(ref: str | GeneratedName) -> dict[str, Any]:
    """What produced a generated name's level (as `GeneratedLevel.origin`), unbuilt."""
    name = ref if isinstance(ref, GeneratedName) else parse_name(ref, TEMPLATES)
    params = {**TEMPLATES[name.template].defaults(), **dict(name.params)}
    return {"name": name.text(), "template": name.template, "seed": name.seed,
            "params": params, "generator_version": GENERATOR_VERSION}


def generate(ref: str | GeneratedName, level_id_given: str | None = None) -> GeneratedLevel:
    """Build the level a generated name names, with the id given (default: `level_id`).

    The id is the level's only trace of its name; the rest is drawn from the name alone.

    Raises:
        GenerateError: The name or its parameters cannot be used.
    """
    name = ref if isinstance(ref, GeneratedName) else parse_name(ref, TEMPLATES)
    template = TEMPLATES[name.template]
    params = {**template.defaults(), **dict(name.params)}
    rng = random.Random(f"{GENERATOR_VERSION}:{name.template}:{name.seed}:"
                        f"{json.dumps(params, sort_keys=True)}")
    data = template.build(rng, level_id_given or level_id(name), params)
    data["categories"] = list(template.categories)
    return GeneratedLevel(name.text(), name.template, name.seed, params, GENERATOR_VERSION,
                          data)


__all__ = ["GENERATOR_VERSION", "TEMPLATES", "GenerateError", "GeneratedLevel", "generate"]
