"""Level checks on ids: defined once, every reference resolves, and to the right kind."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from world.level.model import CharacterTemplate, Level
from world.objectives.registry import VERIFIERS
from world.sim.items import TARGET_MODES

# Object kinds that act on the gates they target (the world declares what each does).
OPENERS = frozenset(TARGET_MODES)
# Every group whose items carry an id, with the JSON array that holds them.
GROUPS: dict[str, str] = {
    "difficulty": "difficulties",
    "storey": "storeys",
    "area": "areas",
    "stairs": "stairs",
    "exit": "exits",
    "object": "objects",
    "character": "characters",
    "wave": "waves",
    "hazard": "hazards",
    "countdown": "countdowns",
    "objective": "objectives",
}


@dataclass(frozen=True)
class Ref:
    """One reference from somewhere in the level to an id.

    Attributes:
        path: JSON path of the referring field.
        id: The id referred to.
        group: The group the id must belong to.
        kinds: For objects, the kinds allowed (None: any).
    """

    path: str
    id: str
    group: str
    kinds: frozenset[str] | None = None


Problem = tuple[str, str]  # (JSON path, message)


def definitions(level: Level) -> dict[str, list[tuple[str, str]]]:
    """Every id defined in the level with where: id -> [(group, path), ...] in file order.

    Args:
        level: The level.

    Returns:
        The definitions by id.
    """
    found: dict[str, list[tuple[str, str]]] = {}
    for group, array in GROUPS.items():
        for i, item in enumerate(getattr(level, array)):
            found.setdefault(item.id, []).append((group, f"$.{array}[{i}].id"))
    return found


def _template_refs(template: CharacterTemplate, path: str) -> Iterator[Ref]:
    if template.weapon is not None:
        yield Ref(f"{path}.weapon", template.weapon, "weapon")
    for k, place in enumerate(template.route):
        yield Ref(f"{path}.route[{k}].area", place.area, "area")
    if template.destination is not None:
        yield Ref(f"{path}.destination", template.destination, "area")


def _door_refs(level: Level) -> Iterator[Ref]:
    for i, exit_ in enumerate(level.exits):
        path = f"$.exits[{i}]"
        for j, area in enumerate(exit_.areas):
            yield Ref(f"{path}.areas[{j}]", area, "area")
        door = exit_.door
        if door is None:
            continue
        if door.key is not None:
            yield Ref(f"{path}.door.key", door.key, "object", frozenset({"key"}))
        if door.panel is not None:
            yield Ref(f"{path}.door.panel", door.panel, "object", OPENERS)
        for name in ("locked_from", "one_way_from"):
            value = getattr(door, name)
            if value is not None:
                yield Ref(f"{path}.door.{name}", value, "area")


def _object_refs(level: Level) -> Iterator[Ref]:
    for i, obj in enumerate(level.objects):
        path = f"$.objects[{i}]"
        if obj.area is not None:
            yield Ref(f"{path}.area", obj.area, "area")
        if obj.weapon is not None:
            yield Ref(f"{path}.weapon", obj.weapon, "weapon")
        if obj.alarm is not None:
            yield Ref(f"{path}.alarm", obj.alarm, "object", frozenset({"alarm"}))
        if obj.decoy_of is not None:
            yield Ref(f"{path}.decoy_of", obj.decoy_of, "object", frozenset({"key"}))
        for k, target in enumerate(obj.targets):
            yield Ref(f"{path}.targets[{k}]", target, "exit|object", frozenset({"alarm"}))
        for k, area in enumerate(obj.zone or ()):
            yield Ref(f"{path}.zone[{k}]", area, "area")
        for k, point in enumerate(obj.spawn_points):
            yield Ref(f"{path}.spawn_points[{k}]", point, "object", frozenset({"spawn_point"}))
        if obj.reinforcement is not None:
            yield from _template_refs(obj.reinforcement, f"{path}.reinforcement")


def _objective_refs(level: Level) -> Iterator[Ref]:
    for i, objective in enumerate(level.objectives):
        path = f"$.objectives[{i}]"
        if objective.area is not None:
            yield Ref(f"{path}.area", objective.area, "area")
        if objective.object is not None:
            verifier = VERIFIERS.get(objective.kind)  # the kinds it may name, on its class
            kinds = verifier.object_kinds if verifier is not None else None
            yield Ref(f"{path}.object", objective.object, "object", kinds)
        for k, character in enumerate(objective.characters):
            yield Ref(f"{path}.characters[{k}]", character, "character")
        for k, before in enumerate(objective.after):
            yield Ref(f"{path}.after[{k}]", before, "objective")
        if objective.revealed_by is not None:
            yield Ref(f"{path}.revealed_by", objective.revealed_by, "object", frozenset({"note"}))
        for k, place in enumerate(objective.points):
            yield Ref(f"{path}.points[{k}].area", place.area, "area")
        if objective.min_difficulty is not None:
            yield Ref(f"{path}.min_difficulty", objective.min_difficulty, "difficulty")


def references(level: Level) -> Iterator[Ref]:
    """Every reference field of the level.

    Args:
        level: The level.

    Yields:
        One Ref per referring field (list items separately).
    """
    for i, area in enumerate(level.areas):
        yield Ref(f"$.areas[{i}].storey", area.storey, "storey")
    for i, stairs in enumerate(level.stairs):
        yield Ref(f"$.stairs[{i}].bottom.area", stairs.bottom.area, "area")
        yield Ref(f"$.stairs[{i}].top.area", stairs.top.area, "area")
    yield from _door_refs(level)
    yield from _object_refs(level)
    for i, character in enumerate(level.characters):
        path = f"$.characters[{i}]"
        yield Ref(f"{path}.area", character.area, "area")
        yield from _template_refs(character, path)
        if character.min_difficulty is not None:
            yield Ref(f"{path}.min_difficulty", character.min_difficulty, "difficulty")
    for i, wave in enumerate(level.waves):
        for k, point in enumerate(wave.spawn_points):
            kinds = frozenset({"spawn_point"})
            yield Ref(f"$.waves[{i}].spawn_points[{k}]", point, "object", kinds)
        yield from _template_refs(wave.character, f"$.waves[{i}].character")
        if wave.min_difficulty is not None:
            yield Ref(f"$.waves[{i}].min_difficulty", wave.min_difficulty, "difficulty")
    for i, hazard in enumerate(level.hazards):
        yield Ref(f"$.hazards[{i}].storey", hazard.storey, "storey")
    for i, countdown in enumerate(level.countdowns):
        if countdown.starts_after is not None:
            yield Ref(f"$.countdowns[{i}].starts_after", countdown.starts_after, "objective")
    yield Ref("$.start.area", level.start.area, "area")
    for k, place in enumerate(level.start.alternatives):
        yield Ref(f"$.start.alternatives[{k}].area", place.area, "area")
    for k, item in enumerate(level.start.inventory):
        yield Ref(f"$.start.inventory[{k}]", item, "object")
    if level.start.in_hand is not None:
        yield Ref("$.start.in_hand", level.start.in_hand, "object")
    if level.exit_area is not None:
        yield Ref("$.exit_area.area", level.exit_area.area, "area")
    if level.briefing is not None:
        for k, area_id in enumerate(level.briefing.areas):
            yield Ref(f"$.briefing.areas[{k}]", area_id, "area")
        for k, item in enumerate(level.briefing.objects):
            yield Ref(f"$.briefing.objects[{k}]", item, "object")
    yield from _objective_refs(level)


def duplicate_problems(level: Level) -> list[Problem]:
    """Ids defined more than once anywhere in the level.

    Args:
        level: The level.

    Returns:
        One problem per repeated definition, naming where the first one is.
    """
    problems = []
    for item_id, where in definitions(level).items():
        first_group, first_path = where[0]
        for group, path in where[1:]:
            message = f"{group} id {item_id!r} is already defined ({first_group} at {first_path})"
            problems.append((path, message))
    return problems


def reference_problems(level: Level) -> list[Problem]:
    """References to ids that are not defined, or that name the wrong kind of thing.

    Args:
        level: The level.

    Returns:
        One problem per bad reference.
    """
    defined = {item_id: where[0][0] for item_id, where in definitions(level).items()}
    for weapon in level.weapons:
        defined.setdefault(weapon.id, "weapon")
    kinds = {o.id: o.kind for o in level.objects}
    problems = []
    for ref in references(level):
        wanted = ref.group.split("|")
        group = defined.get(ref.id)
        if group is None:
            problems.append((ref.path, f"unknown {' or '.join(wanted)} id {ref.id!r}"))
        elif group not in wanted:
            problems.append((ref.path, f"{ref.id!r} is a {group}, not a {' or '.join(wanted)}"))
        elif group == "object" and ref.kinds is not None and kinds[ref.id] not in ref.kinds:
            allowed = ", ".join(sorted(ref.kinds))
            message = f"object {ref.id!r} is a {kinds[ref.id]}; expected one of: {allowed}"
            problems.append((ref.path, message))
    return problems
