#!/usr/bin/env python3
"""Offline track probe: answers from the wording alone, never reading the observation.

It scores each option by cues a test-taker could exploit without seeing the game: words
shared with the prompt, how typical its words are among the four options (the option
"in the middle" of the distractors), and its length. Near-chance accuracy means the
questions cannot be answered from their wording.
"""

import json
import re
import sys
from collections import Counter


def words(text):
    return re.findall(r"[a-z0-9]+", text.lower())


def score(option, options, prompt):
    mine = words(option)
    shared = len(set(mine) & set(words(prompt)))
    counts = Counter(w for o in options for w in set(words(o)))
    typical = sum(counts[w] for w in set(mine)) / max(1, len(set(mine)))
    return (shared, typical, len(option))


def main():
    for line in sys.stdin:
        question = json.loads(line)
        if question.get("type") != "question":
            continue
        options = question["options"]
        best = max(range(len(options)),
                   key=lambda i: score(options[i], options, question["prompt"]))
        print(json.dumps({"type": "answer", "protocol_version": 1, "id": question["id"],
                          "choice": best, "notes": "picked from the wording alone"}),
              flush=True)


if __name__ == "__main__":
    main()
