#!/usr/bin/env python3
"""Offline track probe: answers next-action questions by reading the observation.

It looks up what each option's ids and points name in the observation's text view (a
way out's area, an object's name, a character's kind and area, the landmark nearest a
point) and picks the option whose names the instruction mentions most. Other kinds are
answered from option 0. Its accuracy above chance with the observation, and at chance
without it, says the next-action questions need the observation and can be answered
from it.
"""

import json
import math
import re
import sys

NAMED = [
    # (pattern over a text-view line, how to name its id)
    (re.compile(r"^\s+(w\d+) -> a\d+ (.+?) via (\w+)"), lambda m: f"{m[3]} into the {m[2]}"),
    (re.compile(r"^\s+(o\d+) \w+ '(.+?)'"), lambda m: m[2]),
    (re.compile(r"^\s+(c\d+) (\w+) \((?:hostile|friendly)[^)]*\)"), lambda m: m[2]),
    (re.compile(r"^\s+door (d\d+) between (a\d+) and (a\d+)"), lambda m: "door"),
]
POINT = re.compile(r"\((-?\d+), -?\d+, (-?\d+)\)")


def names(text):
    """Id -> words, and (x, z) -> words, from the observation's text view."""
    by_id, points = {}, []
    for line in text.splitlines():
        for pattern, name in NAMED:
            m = pattern.match(line)
            if m:
                by_id[m[1]] = name(m)
                at = POINT.search(line)
                if at:
                    points.append(((float(at[1]), float(at[2])), name(m)))
    return by_id, points


def words(text):
    return set(re.findall(r"[a-z]+", text.lower()))


def describe(option, by_id, points):
    action = json.loads(option)
    args = action["arguments"]
    said = [by_id.get(v, "") for v in args.values() if isinstance(v, str)]
    if "x" in args and "z" in args and points:
        said.append(min(points, key=lambda p: math.hypot(p[0][0] - args["x"],
                                                         p[0][1] - args["z"]))[1])
    return " ".join(said)


def choose(question):
    observation = question.get("observation")
    if question["kind"] != "next_action" or not observation:
        return 0
    by_id, points = names(observation["text"])
    asked = words(question["prompt"])
    scores = [len(words(describe(o, by_id, points)) & asked) for o in question["options"]]
    return scores.index(max(scores))


def main():
    for line in sys.stdin:
        question = json.loads(line)
        if question.get("type") == "question":
            print(json.dumps({"type": "answer", "protocol_version": 1, "id": question["id"],
                              "choice": choose(question)}), flush=True)


if __name__ == "__main__":
    main()
