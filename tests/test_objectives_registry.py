import json

from harness.core.protocol import OUTCOMES as PROTOCOL_OUTCOMES
from harness.rl.macro_obs import STATUS_NAMES
from tests.shared import SCHEMAS
from world.objectives import END_RULES, OUTCOMES, STATUSES, VERIFIERS
from world.objectives.base import CLOCK, EVENTS, PLAYER
from world.objectives.outcome import Situation, decide
from world.objectives.registry import KINDS
from world.objectives.triggers import READS, WAKES
from world.sim.events import EVENT_KINDS

SCHEMA = SCHEMAS / "level.schema.json"


def test_registry_covers_exactly_the_schema_kinds():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    kinds = schema["$defs"]["objective"]["properties"]["kind"]["enum"]
    assert sorted(VERIFIERS) == sorted(kinds)


def test_every_kind_is_one_class_with_its_facts_on_it():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    kinds = schema["$defs"]["objective"]["properties"]["kind"]["enum"]
    sides = schema["$defs"]["character_template"]["properties"]["side"]["enum"]
    objects = set(schema["$defs"]["object"]["properties"]["kind"]["enum"])
    events = set(EVENT_KINDS)
    # One class per kind: a kind declared twice would vanish silently from the table.
    assert sorted(v.kind for v in KINDS) == sorted(kinds)
    for kind in kinds:
        verifier = VERIFIERS[kind]
        own = verifier.__dict__  # declared on the class itself, not inherited
        assert own.get("kind") == kind
        assert own.get("wakes") in (EVENTS, PLAYER, CLOCK), kind
        assert "reads" in own, kind
        assert own["reads"] is None or own["reads"] <= events, kind
        assert verifier.character_side in (None, *sides), kind
        assert verifier.object_kinds is None or verifier.object_kinds <= objects, kind
    # The tables the per-tick shortcut and the level checker read are these facts.
    assert dict(WAKES) == {k: v.wakes for k, v in VERIFIERS.items()}
    assert dict(READS) == {k: v.reads for k, v in VERIFIERS.items()}
    assert {k: v.character_side for k, v in VERIFIERS.items() if v.character_side} == {
        "neutralise": "hostile", "escort": "friendly", "follow": "friendly"}
    assert {k: v.object_kinds for k, v in VERIFIERS.items() if v.object_kinds} == {
        "collect_item": {"key", "weapon", "ammo", "armour", "medkit", "poison", "gadget"},
        "use_object": {"panel", "switch", "computer", "secret_trigger", "alarm"}}


def test_statuses_outcomes_and_reasons_are_declared_once():
    assert set(STATUSES) == {"todo", "done", "failed"}
    # The macro environment's one-hot of a status follows the world's declaration order.
    assert STATUS_NAMES == tuple(STATUSES) == ("todo", "done", "failed")
    reasons = [r.reason for r in END_RULES]
    assert len(reasons) == len(set(reasons))
    assert {r.outcome for r in END_RULES} == set(OUTCOMES)
    # The protocol's outcomes of a mission ended in the world are the world's, word for word.
    assert {n: PROTOCOL_OUTCOMES[n].summary for n in OUTCOMES} == OUTCOMES
    assert all(PROTOCOL_OUTCOMES[n].kind == "terminated" for n in OUTCOMES)


def test_every_kind_declares_what_finishes_it():
    for name, verifier in VERIFIERS.items():
        assert verifier.__dict__.get("description"), name
        assert verifier.description.endswith("."), name
        # Declared once: the docstring says how the kind is judged, not what finishes it.
        assert verifier.description not in " ".join((verifier.__doc__ or "").split()), name


def test_event_kinds_the_system_emits_are_declared():
    for kind in ("objective_changed", "mission_ended", "player_spotted"):
        assert kind in EVENT_KINDS


def _situation(**changes):
    base = dict(player_down=False, countdown_expired=False, failed=(), world_ended=None,
                entered_exit=False, in_exit=False, has_exit=False, all_satisfied=False,
                achievable=True)
    base.update(changes)
    return Situation(**base)


def test_failure_rules_come_before_success():
    assert decide(_situation()) is None
    assert decide(_situation(all_satisfied=True)).reason == "completed"
    both = _situation(all_satisfied=True, player_down=True)
    assert decide(both).reason == "player_dead"
    assert decide(_situation(all_satisfied=True, failed=("x",))).reason == "objective_failed"
    exit_open = _situation(has_exit=True, in_exit=True, entered_exit=True)
    assert decide(exit_open).reason == "exit_with_objectives_open"
    assert decide(_situation(has_exit=True, all_satisfied=True)) is None
    assert decide(_situation(all_satisfied=True, achievable=False)) is None
