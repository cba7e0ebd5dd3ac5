#!/usr/bin/env python3
"""A random baseline: each turn picks a random macro action on ids from the observation.

Seeded from the episode seed in start, so the same episode plays the same way.
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from harness.agent.kit import run_agent

rng = random.Random()


def choices(view):
    """Every (action, arguments) that names something in the view."""
    options = [("wait", {"seconds": round(rng.uniform(0.5, 3), 2)})]
    if view["area"]:
        options += [("go_to_area", {"exit_id": w["id"]}) for w in view["area"]["ways_out"]]
    options += [("go_to_object", {"object_id": o["id"]}) for o in view["objects"]]
    options += [("go_to_object", {"object_id": d["id"]}) for d in view["doors"]]
    options += [("attack", {"character_id": c["id"]}) for c in view["characters"]
                if c["friendly"] is False and not c["down"]]
    x, _, z = view["player"]["position"]
    options.append(("go_to", {"x": x + rng.uniform(-600, 600), "z": z + rng.uniform(-600, 600)}))
    return options


def decide(observation, start):
    if observation["turn"] == 0:
        rng.seed(start["seed"])
    action, arguments = rng.choice(choices(observation["view"]))
    return action, arguments, f"random pick among the options I see: {action}"


if __name__ == "__main__":
    run_agent(decide, name="random-agent", version="1",
              description="Picks a random action on things in the current view.")
