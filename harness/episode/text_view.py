"""The text view: the one function that renders an observation for a language model.

It reads only the observation message (structured view, last result, budgets, error),
so the two views can never disagree. Sections come in a fixed order and lists keep the
structured view's order, so the same moment always renders to the same text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from world.face import ticks_to_seconds

# An observation message: the harness's own (`ObservationMessage`) or a record's.
Obs = Mapping[str, Any]


def _num(value: float | None) -> str:
    return "?" if value is None else f"{value:.0f}"


def _pt(p: list[float]) -> str:
    return f"({p[0]:.0f}, {p[1]:.0f}, {p[2]:.0f})"


def _pct(value: float) -> str:
    return f"{round(value * 100)}%"


def _header(obs: Obs) -> list[str]:
    b = obs["budgets"]
    return [
        f"Turn {obs['turn']}, game time {obs['time_s']:.1f} s. Left: {b['decisions_left']} "
        f"decisions, {b['game_seconds_left']:.0f} game s, {b['episode_wall_s_left']:.0f} wall s "
        f"(this decision: {b['decision_timeout_s']:.0f} wall s)."
    ]


def _error(obs: Obs) -> list[str]:
    out = []
    if obs["error"]:
        b = obs["budgets"]
        out.append(
            f"ERROR in your last action ({obs['error']['code']}): {obs['error']['message']}. "
            f"Nothing ran; the decision counted ({b['invalid_in_a_row']} invalid in a row, "
            f"the episode ends at {b['max_invalid_in_a_row']})."
        )
    out += [f"Warning ({w['code']}): {w['message']}" for w in obs["warnings"]]
    return out


def _last(obs: Obs) -> list[str]:
    r = obs["last_result"]
    if not r:
        return []
    took = ticks_to_seconds(r["ticks"])
    line = (f"Last action {r['action']} ended: {r['end_reason']} after {took:.1f} s, "
            f"moved {r['distance_moved']:.0f}. {r['detail']}")
    # The words of a note read (or a character heard) during the action: shown this once,
    # never in a later view.
    people = {c["id"] for c in obs["view"]["characters"]}
    read = [f'  {n["object"]} says: "{n["text"]}"' if n["object"] in people
            else f'  You read {n["object"]}: "{n["text"]}"' for n in r.get("read") or ()]
    return [line] + [f"  - {c}" for c in r["changes"]] + read


def _type_of(item: dict[str, Any]) -> str:
    # A weapon's type beside its name when the name does not already say it, so rounds
    # "for smg" can be matched to the gun that takes them.
    weapon = item.get("weapon")
    return f" ({weapon})" if weapon and weapon != item["name"] else ""


def _rounds(item: dict[str, Any]) -> str:
    # The gun's counter: loaded in its magazine, then the rounds carried besides.
    loaded, spare = item.get("loaded"), item.get("ammo")
    if loaded is not None:
        return f" [{loaded} loaded + {spare or 0} rounds]"
    return f" [{spare} rounds]" if spare is not None else ""


def _player(obs: Obs) -> list[str]:
    p = obs["view"]["player"]
    carried = ", ".join(
        f"{c['id']} {c['name']}" + _type_of(c)
        + _rounds(c)
        for c in p["carried"]
    )
    return [
        f"You: at {_pt(p['position'])} facing {p['facing_deg']:.0f} deg, health "
        f"{_pct(p['health'])}, armour {_pct(p['armour'])}"
        + ("" if p["alive"] else ", DOWN") + (", reloading" if p.get("reloading") else "")
        + f". In hand: {p['in_hand'] or 'nothing'}. Carried: {carried or 'nothing'}."
        + (f" Keys: {', '.join(p['keys'])}." if p["keys"] else "")
    ]


def _objectives(obs: Obs) -> list[str]:
    out = ["Objectives:"]
    for o in obs["view"]["objectives"]:
        where = ""
        if o["area"]:
            where = f" [area {o['area']} {o['area_name']}, ~{_num(o['distance'])} away]"
        counts = "" if o["counts"] else f" (counts from {o['min_difficulty']})"
        # The kind, the ids named and the next place come from the same structured fields.
        named = f" {', '.join(o['targets'])}" if o.get("targets") else ""
        point = f" next at {_pt(o['point'])}" if o.get("point") and not o["area"] else ""
        heading = o.get("heading_to")
        bound = f", heading for {heading['area']} {heading['name']}" if heading else ""
        extra = f" ({o['kind']}{named}{point}{bound})" if o.get("kind") else ""
        if o.get("located") is False and o["status"] == "todo":
            where = " [not located yet: look for it]"
        out.append(f"  {o['index']}. [{o['status']}] {o['text']}{where}{extra}{counts}")
    return out if len(out) > 1 else []


def _area(obs: Obs) -> list[str]:
    a = obs["view"]["area"]
    if a is None:
        return ["Area: between areas (on stairs or in a doorway)."]
    out = [f"Area {a['id']} {a['name']} (storey {a['storey']}). Ways out:"]
    for w in a["ways_out"]:
        marks = [m for m, on in (("visited", w["visited"]), ("one way", w["one_way"]),
                                 ("other storey", w["other_storey"])) if on]
        via = f"door {w['door']}" if w["door"] else w["via"]
        out.append(f"  {w['id']} -> {w['to']} {w['to_name']} via {via} at {_pt(w['position'])}, "
                   f"{_num(w['distance'])} away" + (f" ({', '.join(marks)})" if marks else ""))
    out += [f"  window {w['id']} looks into {w['to']} {w['to_name']}" for w in a["windows"]]
    return out


def _doors(obs: Obs) -> list[str]:
    out = []
    for d in obs["view"]["doors"]:
        bits = [d["state"] + (" from this side" if d["locked_from_this_side"] else "")]
        if d["key"]:
            found = f" (in {d['key_area']})" if d["key_area"] else ""
            bits.append(f"needs key {d['key']}{found}")
        elif d.get("needs_key"):
            bits.append("needs a key not seen so far")
        if d["panel"]:
            bits.append(f"opened by panel {d['panel']}")
        elif d.get("has_panel"):
            bits.append("opened by a panel not seen so far")
        if d["open_seconds"]:
            bits.append(f"stays open {d['open_seconds']:.0f} s")
        if d["one_way"]:
            bits.append("one way")
        between = " and ".join(d["between"])
        out.append(f"  door {d['id']} between {between} at {_pt(d['position'])}, "
                   f"{_num(d['distance'])} away: {', '.join(bits)}")
    return ["Doors:", *out] if out else []


def _feeds(obj: dict[str, Any]) -> str:
    weapon = obj.get("weapon")
    if not weapon:
        return ""
    return f" (for {weapon})" if obj["kind"] == "ammo" else f" ({weapon})"


def _cone(row: dict[str, Any]) -> str:
    # Rows without a known view cone (most objects, characters not in view) say nothing.
    if row.get("facing_deg") is None:
        return ""
    return (f", facing {row['facing_deg']:.0f} deg (views {row['view_angle_deg']:.0f} deg, "
            f"{row['view_range']:.0f} far)")


def _objects(obs: Obs) -> list[str]:
    out = [f"  {o['id']} {o['kind']} '{o['name']}'" + _feeds(o) + f" at {_pt(o['position'])}, "
           f"{_num(o['distance'])} away" + (f", {o['state']}" if o["state"] else "")
           + _cone(o) + (" (objective target)" if o["objective"] else "")
           for o in obs["view"]["objects"]]
    return ["Objects:", *out] if out else []


_SIDE = {True: "FRIENDLY, do not shoot", False: "hostile", None: "side unknown"}
_ARMED = {True: "armed", False: "unarmed", None: "arms unknown"}


def _characters(obs: Obs) -> list[str]:
    out = []
    for c in obs["view"]["characters"]:
        side = _SIDE[c["friendly"]]
        armed = _ARMED[c["armed"]] + (f", {c['weapon']}" if c.get("weapon") else "")
        when = ticks_to_seconds(c["seen_tick"])
        seen = {"now": "seen now", "heard": f"heard firing at {when:.0f} s, "
                "place approximate"}.get(c["seen"], f"last seen at {when:.0f} s")
        state = "down" if c["down"] else f"health {_pct(c['health'])}, {c['alertness']}"
        out.append(f"  {c['id']} {c['kind']} ({side}, {armed}) at {_pt(c['position'])}, "
                   f"{_num(c['distance'])} away, {state}, {seen}" + _cone(c)
                   + (", has something to say (press use facing it)" if c.get("talks") else ""))
    return ["Characters:", *out] if out else ["Characters: none seen."]


def _hazards(obs: Obs) -> list[str]:
    out = []
    for h in obs["view"]["hazards"]:
        left = "" if h["seconds_left"] is None else f" ({h['seconds_left']:.0f} s left)"
        extent = h.get("extent")
        where = "" if not extent else " within " + ", ".join(
            f"({x:.0f}, {z:.0f})" for x, z in extent)
        out.append(f"HAZARD {h['kind']}: {h['text']}{where}{left}")
    e = obs["view"]["exit"]
    if e:
        away = "not yet seen" if e["distance"] is None else f"~{_num(e['distance'])} away"
        out.append(f"Mission exit: area {e['area']} {e['name']}, {away}."
                   + (f" WARNING: {e['warning']}" if e["warning"] else ""))
    return out


# The order of the text view, fixed: errors first so an agent sees them at once.
SECTIONS: tuple[Callable[[Obs], list[str]], ...] = (
    _header, _error, _last, _player, _objectives, _area, _doors, _objects, _characters, _hazards,
)


def render_text_view(observation: Obs) -> str:
    """Render the text view of an observation message.

    Args:
        observation: The observation message without its "text" field (extra keys ignored).

    Returns:
        Plain text, one fact per line.
    """
    lines: list[str] = []
    for section in SECTIONS:
        lines.extend(section(observation))
    return "\n".join(lines)
