"""The actions a person may choose now, and typed action lines read into protocol actions.

Both play fronts use this: the action forms come from the start message's tools (their
JSON schemas, as every agent gets them), and the ids offered for an argument are those
the current observation lists, by the world's own table of which id groups each
argument names (`ARG_GROUPS`). A typed line is `ACTION [VALUE ...] [NAME=VALUE ...]`:
values without a name fill the required arguments in order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from world.face import ARG_GROUPS

# Id group -> the (id, words) pairs an observation's view lists of it (and two lists of
# the buttons: objects the view lists, things carried).
_Lister = Callable[[dict[str, Any]], list[tuple[str, str]]]
VIEW_IDS: dict[str, _Lister] = {
    "way": lambda v: [(w["id"], f"to {w.get('to')} {w.get('to_name') or ''} via {w.get('via')}")
                      for w in (v.get("area") or {}).get("ways_out") or []],
    "door": lambda v: [(d["id"], f"door, {d.get('state')}") for d in v.get("doors") or []],
    "object": lambda v: [(o["id"], f"{o.get('kind')} '{o.get('name')}'")
                         for o in [*((v.get("player") or {}).get("carried") or []),
                                   *(v.get("objects") or [])]],
    "listed": lambda v: [(o["id"], f"{o.get('kind')} '{o.get('name')}'")
                         for o in v.get("objects") or []],
    "carried": lambda v: [(o["id"], f"{o.get('kind')} '{o.get('name')}'")
                          for o in (v.get("player") or {}).get("carried") or []],
    "character": lambda v: [(c["id"], f"{c.get('kind')}{' (down)' if c.get('down') else ''}")
                            for c in v.get("characters") or []],
}
# Argument -> the lists whose ids a menu of buttons offers for it: what a person would
# pick (a way out by its passage, a thing carried to equip), where typing accepts more.
BUTTONS: dict[str, tuple[str, ...]] = {
    "exit_id": ("way",), "object_id": ("listed", "door"), "character_id": ("character",),
    "item_id": ("carried",),
}
# JSON schema type -> how a typed word becomes that value (None: not that type).
_BOOLEAN_WORDS = {"true": True, "yes": True, "on": True, "false": False, "no": False,
                  "off": False}


def _number(word: str) -> float | None:
    try:
        return float(word)
    except ValueError:
        return None


CONVERTERS: dict[str, Callable[[str], Any]] = {
    "number": _number,
    "integer": lambda w: int(w) if w.lstrip("-").isdigit() else None,
    "boolean": lambda w: _BOOLEAN_WORDS.get(w.lower()),
    "string": lambda w: w,
}


@dataclass(frozen=True)
class Param:
    """One argument of an action: its name, JSON type, whether required, and its help."""

    name: str
    kind: str
    required: bool
    help: str


@dataclass(frozen=True)
class ActionForm:
    """One action of the track as the start message's tools describe it."""

    name: str
    help: str
    params: tuple[Param, ...]

    @property
    def required(self) -> tuple[Param, ...]:
        """The arguments that must be given, in the schema's order."""
        return tuple(p for p in self.params if p.required)


class ActionLineError(ValueError):
    """A typed action line that cannot be an action; the message says what is allowed."""


def action_forms(start: dict[str, Any]) -> dict[str, ActionForm]:
    """The track's actions from the start message's tools, by name, in the tools' order."""
    forms = {}
    for tool in start.get("tools") or []:
        spec = tool.get("function", tool)
        schema = spec.get("parameters") or {}
        required = set(schema.get("required") or [])
        params = tuple(Param(name, str(p.get("type", "string")), name in required,
                             str(p.get("description", "")))
                       for name, p in (schema.get("properties") or {}).items())
        forms[spec["name"]] = ActionForm(spec["name"], str(spec.get("description", "")),
                                         tuple(sorted(params, key=lambda p: not p.required)))
    return forms


def id_choices(param: str, view: dict[str, Any]) -> list[tuple[str, str]]:
    """The ids the view offers for an argument (none for an argument that is no id)."""
    out: dict[str, str] = {}
    for group in ARG_GROUPS.get(param, ()):
        for ident, words in VIEW_IDS[group](view):
            out.setdefault(ident, words)
    return list(out.items())


def parse_line(text: str, forms: dict[str, ActionForm]) -> tuple[str, dict[str, Any]]:
    """A typed line read as (action, arguments).

    Raises:
        ActionLineError: An unknown action, a missing or unknown argument or a value
            of the wrong type (the message names it and what is allowed).
    """
    words = text.split()
    if not words:
        raise ActionLineError("type an action: " + ", ".join(forms))
    form = forms.get(words[0])
    if form is None:
        raise ActionLineError(f"no action {words[0]!r}; the actions are {', '.join(forms)}")
    known = {p.name: p for p in form.params}
    arguments: dict[str, Any] = {}
    free = list(form.required)
    for word in words[1:]:
        name, sep, value = word.partition("=")
        if not sep:
            if not free:
                raise ActionLineError(f"{form.name} takes {_usage(form)}; {word!r} is one too many")
            name, value = free.pop(0).name, word
        elif name not in known:
            raise ActionLineError(f"{form.name} has no argument {name!r} ({_usage(form)})")
        param = known[name]
        converted = CONVERTERS.get(param.kind, CONVERTERS["string"])(value)
        if converted is None:
            raise ActionLineError(f"{form.name}: {name} must be a {param.kind}, not {value!r}")
        arguments[name] = converted
        free = [p for p in free if p.name != name]
    if free:
        raise ActionLineError(f"{form.name} needs {', '.join(p.name for p in free)} "
                              f"({_usage(form)})")
    return form.name, arguments


def _usage(form: ActionForm) -> str:
    return " ".join([p.name.upper() for p in form.required]
                    + [f"[{p.name}=...]" for p in form.params if not p.required])


def usage(form: ActionForm) -> str:
    """How to type an action: `go_to_object OBJECT_ID [time_limit_s=...]`."""
    return f"{form.name} {_usage(form)}".strip()


def quick_choices(forms: dict[str, ActionForm], view: dict[str, Any]
                  ) -> list[tuple[str, str]]:
    """Whole action lines valid now with one id each: (line, words), for a menu of buttons.

    Actions whose required arguments are all ids get one line per id the view offers;
    the others (a point, seconds) are typed, so they are not listed here.
    """
    lines = []
    for form in forms.values():
        required = form.required
        if len(required) != 1 or required[0].name not in BUTTONS:
            continue
        for group in BUTTONS[required[0].name]:
            lines += [(f"{form.name} {ident}", words) for ident, words in VIEW_IDS[group](view)]
    return lines
