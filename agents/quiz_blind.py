#!/usr/bin/env python3
"""Offline track probe: answers by one blind rule, never reading the observation.

    python3 agents/quiz_blind.py --rule longest

The rules (harness/offline/quiz_rules.py, part of the agent kit) pick an option from its surface
alone: first, longest, shortest, most or least like the others, most words shared with
the question, last step matching the goal, least or most seen in earlier questions.
Each scoring at chance on every kind means the questions cannot be answered from their
wording.
"""

import argparse
import json
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from harness.offline.quiz_rules import RULES, choose


def main():
    parser = argparse.ArgumentParser(description="Answer quiz questions by one blind rule.")
    parser.add_argument("--rule", required=True, choices=sorted(RULES))
    rule = parser.parse_args().rule
    seen = Counter()
    for line in sys.stdin:
        question = json.loads(line)
        if question.get("type") != "question":
            continue
        print(json.dumps({"type": "answer", "protocol_version": 1, "id": question["id"],
                          "choice": choose(rule, question, seen), "notes": rule}), flush=True)


if __name__ == "__main__":
    main()
