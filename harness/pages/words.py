"""Plain words for a person reading a run page: names for ids, failures as sentences.

The record speaks in episode ids ("c8 entered a58") and reason codes ("player_dead"),
as the agent does. A page written for a person says "guard c8 entered Server room"
and "the player died", using the names in the record's map and the plain words each
end rule declares (`world.objectives.outcome.END_RULES`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from world.face import END_RULES

_PLAIN = {rule.reason: rule.plain for rule in END_RULES}
_ID = re.compile(r"\b([aoc])([0-9]+)\b")
_FAILURE = re.compile(r"^([a-z_]+)(?: \((.*)\))?$", re.S)
_NUMBERED = re.compile(r"objective [0-9]+: ")
SHORT_NAME = 16  # characters of an object's name shown on the map


def short(name: str, keep: int = SHORT_NAME) -> str:
    """A name cut to fit a map label."""
    return name if len(name) <= keep else name[:keep - 1].rstrip() + "…"


def names(plan: Mapping[str, Any] | None,
          turns: Sequence[Mapping[str, Any]] = ()) -> dict[str, str]:
    """Episode id -> what a person calls it.

    Areas by name, objects by their short name, characters by kind and id (several
    guards look alike). The map lists the characters present at the start; one that
    comes later (a wave, a reinforcement) is named by the kind the player saw in the
    first observation that shows it, so every name comes from the record alone.

    Args:
        plan: The record's map, or None for a record without one.
        turns: The record's turn lines, whose observations show later characters.
    """
    out: dict[str, str] = {}
    for turn in turns:
        view = (turn.get("observation") or {}).get("view") or {}
        for seen in view.get("characters") or ():
            if isinstance(seen, Mapping) and _ID.fullmatch(str(seen.get("id"))):
                out.setdefault(str(seen["id"]), f"{seen.get('kind')} {seen['id']}")
    if not plan:
        return out
    out.update({a["id"]: a["name"] for a in plan.get("areas", ())})
    out.update({o["id"]: short(o["name"]) for o in plan.get("objects", ())})
    out.update({c["id"]: f"{c['kind']} {c['id']}" for c in plan.get("characters", ())})
    return out


def readable(text: str, known: Mapping[str, str]) -> str:
    """A sentence of the harness's with area, object and character ids named.

    Ids `known` does not hold (a character never seen, only heard) stay as they are.
    """
    def one(m: re.Match[str]) -> str:
        return known.get(m.group(0), m.group(0))

    return _ID.sub(one, text)


def plain_failure(failure: str | None, plan: Mapping[str, Any] | None) -> str | None:
    """Why a mission failed, in words.

    "player_dead" becomes "the player died"; "objective_failed (quiet)" gives the
    objective's own description.

    Args:
        failure: The summary's failure ("reason" or "reason (detail)"), or None.
        plan: The record's map (its objectives give the descriptions), or None.

    Returns:
        The sentence, or None when there was no failure.
    """
    if not failure:
        return None
    m = _FAILURE.match(failure)
    if m is None or m.group(1) not in _PLAIN:
        return failure
    words, detail = _PLAIN[m.group(1)], m.group(2)
    if not detail:
        return words
    texts = {o["id"]: o["text"] for o in (plan or {}).get("objectives", ())}
    tokens = detail.replace(",", " ").split()
    if tokens and all(t in texts for t in tokens):
        described = "; ".join(texts[t] for t in tokens)
    else:
        # The world names failed objectives as "objective N: text"; the text is enough.
        described = _NUMBERED.sub("", detail)
    return f"{words}: {described}"
