#!/usr/bin/env python3
"""The general reference agent: explores, fetches keys, completes objectives by kind, exits.

It uses nothing but the protocol's structured view; see agents/reference/ for its parts.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from agents.reference.brain import Brain
from agents.reference.reflex import with_reflex
from harness.agent.kit import run_agent


def main() -> None:
    """Play one episode over stdin and stdout."""
    brain = Brain()

    def decide(observation: dict, start: dict) -> tuple:
        # The tactics decide; the reflex rule is applied on the way out (reflex.py).
        return with_reflex(brain.decide(observation, start), start)

    run_agent(decide, name="reference-agent", version="1",
              description="A general scripted player that reads the structured view only.")


if __name__ == "__main__":
    main()
