"""The offline track's three kinds of question, each declared once with its maker and checker.

Every question has four options, exactly one right, and every wrong one taken from the
same episode so that none is wrong on its face:

- `next_action`: an observation and a short instruction (an operation without ids);
  which action carries it out (never `wait`, whose instruction spells out its argument).
  Wrong options are the same action with other arguments
  that pass validation at that turn (ids the observation lists, points of landmarks it
  shows), whose own instruction at that turn differs from the asked one; a turn with
  fewer than three of them gives no question (another action's name would match the
  instruction's verb, answerable from wording alone).
- `goal_sequence`: a medium goal; which operations, in order, led to it (its last
  `SEQUENCE_LENGTH` at most). The four options cross two orders (the true one and one
  permutation) with two contents (the true operations, and one swapped for an operation
  of another goal that shares as many words with the goal as the one it replaces, as near
  as the episode allows), so every operation text and every order appears exactly twice.
- `consistency`: a medium goal; which instruction/action pair is consistent across the
  horizons (the instruction is a step of that goal, the action carries it out). Two
  turns with the same action, one in the goal and one outside whose instruction shares
  as many words with the prompt, give four pairs in which every instruction and every
  action appears twice, so wording alone cannot tell.

Options agree in form, so that no surface feature tells the right one (the blind
answerers of `harness.offline.quiz_rules` check it): a point is shown rounded to `GRID` units in
every option, a wrong point lies as far from its landmark as the taken one from its,
the taken action's other arguments go on every option, wrong options name ids of the
same kinds as the right one (doors among doors), and wrong options as long as the
right one come first; a goal sequence keeps its last step last in every option (never
swapped), and its swapped-in operation is as long and as often shown by other questions
as the one it replaces; a consistency partner is drawn among the nearest in wording and
length. Choices are drawn by a generator seeded from the record and the question, so
the same records always give the same file; the right option's place is drawn when the
set is asked (`harness.offline.quiz_run.arranged`).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from jsonschema.protocols import Validator

from harness.core.record import Record
from harness.offline.pyramid import Goal, Operation, Pyramid
from harness.offline.pyramid_words import INTENTS, Known, landmarks, phrase
from world.face import REFLEX_ARGUMENT, SchemaValidator, catalog

SEQUENCE_LENGTH = 5
# An episode id: letters naming its kind, then a number (`d12`, `o3`, `c1`, `w4`).
_ID = re.compile(r"^([a-z]+)[0-9]+$")
# Options show a point's x and z rounded to this many units (`shown`).
GRID = 10
# Actions whose instruction spells out every argument ("wait 2 seconds"): asking for them
# tests reading, not play, so they give no next-action or consistency question.
SPELT_OUT = frozenset({"wait"})
Question = dict[str, Any]


def canonical(action: dict[str, Any]) -> str:
    """An action as an option: compact JSON of its name and arguments, keys sorted."""
    return json.dumps({"action": action["action"], "arguments": action.get("arguments") or {}},
                      sort_keys=True, separators=(",", ":"))


def seeded(*parts: object) -> random.Random:
    """A generator seeded from the given parts (a record hash, a kind, a turn)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def shuffled_options(right: str, wrong: list[str], rng: random.Random) -> tuple[list[str], int]:
    """The four options in a seeded order, and where the right one landed."""
    options = [right, *wrong]
    rng.shuffle(options)
    return options, options.index(right)


def known_until(record: Record, turn: int) -> Known:
    """What the player had perceived up to and including a turn's observation."""
    known = Known()
    for t in record.turns[:turn + 1]:
        known.learn_observation(t["observation"])
    return known


@cache
def _arguments_validator(name: str) -> Validator:
    spec = next(a for a in catalog().actions if a.name == name)
    return SchemaValidator(spec.arguments_schema())


def _passes(action: dict[str, Any]) -> bool:
    # The check an agent's action gets before the world sees it (the arguments' schema).
    return bool(_arguments_validator(action["action"]).is_valid(action["arguments"]))


def _like(value: float, template: Any) -> float | int:
    # Numbers spelt as the taken action spells them, so "2" against "2.0" tells nothing.
    if isinstance(template, int) and not isinstance(template, bool):
        return round(value)
    return round(float(value), 1)


def shown(action: dict[str, Any]) -> str:
    """An action as an option: `canonical`, with a point's x and z on the `GRID`.

    Every option of a question, right or wrong, is rounded alike, so neither the
    digits nor the roundness of a point tells the reference agent's own from one made.
    The reflex flag is left out: the reference agent sets it on every action that takes
    it, so on the right option alone it would name the answer and say nothing of play.
    """
    args = dict(action.get("arguments") or {})
    args.pop(REFLEX_ARGUMENT, None)
    for axis in ("x", "z"):
        if isinstance(args.get(axis), (int, float)) and not isinstance(args[axis], bool):
            args[axis] = int(round(float(args[axis]) / GRID) * GRID)
    return canonical({"action": action["action"], "arguments": args})


def _offset(view: dict[str, Any], args: dict[str, Any]) -> tuple[float, float]:
    # How far the taken point lies from the landmark nearest it: the wrong points lie as
    # far from theirs, so none is a bare landmark where the taken one is a spot, or back.
    marks = [p for _t, _p, p in landmarks(view, Known())]
    if "x" not in args or "z" not in args or not marks:
        return 0.0, 0.0
    x, z = float(args["x"]), float(args["z"])
    mx, mz = min(marks, key=lambda m: (m[0] - x) ** 2 + (m[1] - z) ** 2)
    return x - mx, z - mz


def candidate_actions(view: dict[str, Any], taken: dict[str, Any]) -> list[dict[str, Any]]:
    """Actions valid at a turn: every one names only ids the observation lists."""
    args = taken.get("arguments") or {}
    out: list[dict[str, Any]] = []
    area = view.get("area") or {}
    out += [{"action": "go_to_area", "arguments": {"exit_id": w["id"]}}
            for w in area.get("ways_out", ())]
    usable = [o for o in view.get("objects", ()) if o.get("state") != "broken"
              and o["kind"] not in ("prop", "spawn_point")]
    out += [{"action": "go_to_object", "arguments": {"object_id": o["id"]}} for o in usable]
    out += [{"action": "go_to_object", "arguments": {"object_id": d["id"]}}
            for d in view.get("doors", ()) if d["state"] in ("closed", "locked")]
    out += [{"action": "attack", "arguments": {"character_id": c["id"]}}
            for c in view.get("characters", ()) if c.get("friendly") is False and not c["down"]]
    out += [{"action": "shoot_object", "arguments": {"object_id": o["id"]}}
            for o in usable if o["kind"] in ("breakable", "camera")]
    player = view.get("player", {})
    carried = player.get("carried", ())
    out += [{"action": "equip", "arguments": {"item_id": c["id"]}} for c in carried
            if c["id"] != player.get("in_hand") and c["kind"] == "weapon"]
    out += [{"action": "use_item_on", "arguments": {"item_id": c["id"], "object_id": o["id"]}}
            for c in carried if c["kind"] == "gadget" for o in usable]
    out += [{"action": "wait", "arguments": {"seconds": _like(s, args.get("seconds"))}}
            for s in (1, 2, 3, 5, 10)]
    flags = {k: v for k, v in args.items() if k not in ("x", "z", "y")}
    dx, dz = _offset(view, args)
    for _text, _plain, (x, z) in landmarks(view, Known()):
        point = {"x": _like(x + dx, args.get("x")), "z": _like(z + dz, args.get("z")),
                 **({"y": args["y"]} if "y" in args else {})}
        out.append({"action": "go_to", "arguments": {**point, **flags}})
        out.append({"action": "turn_and_use", "arguments": {"x": point["x"], "z": point["z"]}})
    return [a for a in out if _passes(a)]


def _askable(op: Operation) -> bool:
    return (op.action is not None and op.action["action"] in INTENTS
            and op.action["action"] not in SPELT_OUT)


def _id_kinds(action: dict[str, Any]) -> tuple[str, ...]:
    """The kinds of the ids an action names, by their letters (`d` doors, `o` objects)."""
    return tuple(sorted(m.group(1) for v in (action.get("arguments") or {}).values()
                        if isinstance(v, str) and (m := _ID.match(v))))


def _next_action(record: Record, pyr: Pyramid, op: Operation, rng: random.Random
                 ) -> Question | None:
    turn = record.turns[op.turn]
    if not _askable(op):
        return None
    assert op.action is not None
    view = turn["observation"]["view"]
    known = known_until(record, op.turn)
    right = shown(op.action)
    plains = {right: op.plain}
    same: list[dict[str, Any]] = []
    for candidate in candidate_actions(view, op.action):
        if candidate["action"] != op.action["action"]:
            continue
        # The taken action's other arguments (a time limit, flags) on every option alike.
        candidate = {**candidate, "arguments": {**op.action["arguments"],
                                                **candidate["arguments"]}}
        text = shown(candidate)
        if text in plains:
            continue
        plain = phrase(candidate["action"], candidate["arguments"], known, view).plain
        if plain == op.plain:
            continue
        plains[text] = plain
        same.append(candidate)
    # Only the same action (another action's name would match the instruction's verb),
    # naming ids of the same kinds: a door among objects would stand out by its letter,
    # and the doors an agent walks through are named once each where the objects in view
    # recur in question after question.
    kinds = _id_kinds(op.action)
    same = [a for a in same if _id_kinds(a) == kinds]
    if len(same) < 3:
        return None
    rng.shuffle(same)
    # As long as the right one first (ids and numbers of as many digits), so that
    # length tells nothing; the shuffle above chooses among those alike.
    same.sort(key=lambda a: abs(len(shown(a)) - len(right)))
    wrong = [shown(a) for a in same[:3]]
    options, answer = shuffled_options(right, wrong, rng)
    return {"prompt": f"Instruction: {op.plain}. Which action carries it out now?",
            "options": options, "answer": answer, "turn": op.turn, "goal": None}


def _goal_of(pyr: Pyramid, turn: int) -> Goal:
    return next(g for g in pyr.goals if turn in g.turns)


def _steps(texts: list[str]) -> str:
    return "; ".join(f"{n}) {t}" for n, t in enumerate(texts, 1))


def _goal_sequence(record: Record, pyr: Pyramid, goal: Goal, rng: random.Random
                   ) -> Question | None:
    ops = [pyr.operations[t] for t in goal.turns][-SEQUENCE_LENGTH:]
    seq = [o.text for o in ops]
    foreign = sorted({o.text for o in pyr.operations if o.turn not in goal.turns} - set(seq))
    # Three steps at least: the last stays in place in every option (below), and the
    # others need two to be put in another order.
    if len(seq) < 3 or not foreign:
        return None
    # Steps other goals' questions show too: a swapped-in step is then as familiar from
    # earlier questions as a true one, so neither rarity nor repetition tells them apart.
    shown_elsewhere = {pyr.operations[t].text for g in pyr.goals if g.number != goal.number
                       for t in g.turns[-SEQUENCE_LENGTH:]}
    # Never the last step, and the order below keeps it last: the step that completed
    # the goal echoes its wording, so every option ends with it. The swapped-in
    # operation shares as many words with the goal as the one it replaces and is as long
    # (as near as the episode allows, over every step that may be replaced), so neither
    # the goal's wording nor the options' lengths point at the truth.
    goal_words = _words(goal.text)

    def cost(k: int, text: str) -> tuple[int, int, bool]:
        return (abs(len(_words(text) & goal_words) - len(_words(seq[k]) & goal_words)),
                abs(len(text) - len(seq[k])), text not in shown_elsewhere)

    swaps = [(k, t) for k in range(len(seq) - 1) for t in foreign]
    nearest = min(cost(k, t) for k, t in swaps)
    k, swapped_in = rng.choice([(k, t) for k, t in swaps if cost(k, t) == nearest])
    swapped = [*seq[:k], swapped_in, *seq[k + 1:]]
    for _ in range(20):
        order = list(range(len(seq) - 1))
        rng.shuffle(order)
        order.append(len(seq) - 1)
        four = [seq, [seq[i] for i in order], swapped, [swapped[i] for i in order]]
        if len({tuple(f) for f in four}) == 4:
            break
    else:
        return None
    options, answer = shuffled_options(_steps(four[0]), [_steps(f) for f in four[1:]], rng)
    last = f"the last {len(seq)}" if len(goal.turns) > len(seq) else f"the {len(seq)}"
    return {"prompt": f"Goal: {goal.text} Which were {last} operations, in order, that led to "
                      f"it?", "options": options, "answer": answer, "turn": ops[0].turn,
            "goal": goal.number}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def pair(op: Operation) -> str:
    """One option of a consistency question: an instruction and an action."""
    assert op.action is not None
    return f"instruction: {op.plain} | action: {shown(op.action)}"


def _consistency(record: Record, pyr: Pyramid, goal: Goal, rng: random.Random
                 ) -> Question | None:
    prompt = (f"Goal: {goal.text} Which instruction and action are consistent: the "
              f"instruction is a step toward this goal and the action carries it out?")
    asked = _words(prompt)
    inside = [pyr.operations[t] for t in goal.turns if _askable(pyr.operations[t])]
    rng.shuffle(inside)
    plains = {p.plain for p in inside}
    for first in inside:
        assert first.action is not None
        outside = [o for o in pyr.operations if o.turn not in goal.turns and o.action
                   and o.action["action"] == first.action["action"]
                   and shown(o.action) != shown(first.action) and o.plain not in plains]
        # The wrong instruction shares as many words with the prompt as the right one (or
        # more, failing that), so overlap with the goal's words does not give it away; a
        # step with no such partner in the episode gives no question.
        overlap = len(_words(first.plain) & asked)
        fair = [o for o in outside if len(_words(o.plain) & asked) >= overlap]
        if not fair:
            continue
        # Of those, one as near in length as can be, drawn at random: the earliest turn
        # would bring the same early step into question after question.
        costs = {pair(o): (len(_words(o.plain) & asked) - overlap,
                           abs(len(pair(o)) - len(pair(first)))) for o in fair}
        nearest = min(costs.values())
        # Each pair once, however often the episode repeated it.
        alike = {pair(o): o for o in reversed(fair) if costs[pair(o)] == nearest}
        second = alike[rng.choice(sorted(alike))]
        assert second.action is not None
        crossed = [pair(second),
                   f"instruction: {first.plain} | action: {shown(second.action)}",
                   f"instruction: {second.plain} | action: {shown(first.action)}"]
        options, answer = shuffled_options(pair(first), crossed, rng)
        return {"prompt": prompt, "options": options, "answer": answer, "turn": first.turn,
                "goal": goal.number}
    return None


def _sequence_from(pyr: Pyramid, op: Operation, goal: Goal) -> str:
    # The goal's operations from the question's first one on: the right sequence.
    return _steps([pyr.operations[t].text for t in goal.turns[goal.turns.index(op.turn):]])


@dataclass(frozen=True)
class QuestionKind:
    """One kind of question: what it asks, its maker, and the right option from the record."""

    name: str
    summary: str
    per_record: int  # at most this many questions of the kind from one record
    units: Callable[[Pyramid], list[Any]]  # operations or goals to ask about
    make: Callable[[Record, Pyramid, Any, random.Random], Question | None]
    # The right option re-derived from the pyramid, the question's operation and goal.
    truth: Callable[[Pyramid, Operation, Goal], str]


QUESTION_KINDS: dict[str, QuestionKind] = {
    k.name: k
    for k in (
        QuestionKind("next_action", "The next action, given the observation and a short "
                     "instruction.", 8, lambda p: list(p.operations), _next_action,
                     lambda p, op, g: shown(op.action or {})),
        QuestionKind("goal_sequence", "The right sequence of operations for a medium goal.",
                     4, lambda p: list(p.goals), _goal_sequence, _sequence_from),
        QuestionKind("consistency", "The instruction/action pair consistent with a medium "
                     "goal.", 4, lambda p: list(p.goals), _consistency,
                     lambda p, op, g: pair(op)),
    )
}
