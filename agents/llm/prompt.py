"""The words the model reads: the system prompt and the opening message of a mission.

The action list itself is not repeated here: the model receives the tool definitions
from `start` with every request, and the prompt points at them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

SYSTEM_PROMPT = """\
You are playing a mission in a 3D game through a text interface. Each turn you are \
shown what the player character can see and know right now, and you answer with \
exactly one tool call: the next action for the character to carry out.

The world
- Positions are in world units, roughly 100 units to a metre. Seen from above, x and \
z are the ground plane; y is height, which tells storeys apart.
- The game runs at 30 ticks per second. Time limits, budgets and scores count game \
time, not how long you think.
- Everything you may refer to (areas, ways out, doors, objects, characters, items) \
has an id in the observation. Use those ids exactly; they stay the same for the whole \
mission.

Actions
- Each tool is a macro action: the character walks a whole route, uses a door or \
panel, fights, or waits, and the game runs until the action ends. One tool call is \
one decision, and the number of decisions is limited.
- Walking actions follow the floor and are given a time limit from the route length. \
Prefer go_to_area to move between areas and go_to_object to reach and use a thing.
- Friendly characters must not be attacked; the game refuses it.

How actions end
The next observation says how your last action ended. It may have arrived; given up \
(out of time while still getting closer: doing it again continues); got stuck \
(repeating will not help, try another way); found the target unreachable (nothing \
happened); been stopped by a closed or locked door (the result names the door and \
what opens it); ended on the wrong storey; or been interrupted because the player \
took damage, an objective changed, the mission's stage changed, or the player died. \
Read that result before choosing the next action.

How to answer
- Call exactly one tool per turn, with arguments that match its schema.
- Before the call, write one or two short sentences on what you are doing and why; \
they are kept as your notes. Earlier turns may be shortened into a summary to save \
space, so restate anything you need to remember in those sentences.
- Complete the objectives marked to do, then reach the exit if the mission has one.\
"""


def mission_message(start: Mapping[str, Any]) -> str:
    """The first user message: level, difficulty, brief and budgets from `start`.

    Args:
        start: The decoded start message.

    Returns:
        Text that stays at the head of the context for the whole episode.
    """
    lines = [
        f"Mission: {start.get('level', start.get('level_id', '?'))}, "
        f"difficulty {start.get('difficulty', '?')}."
    ]
    brief = start.get("brief")
    if brief:
        lines += ["", "Brief:", str(brief).strip()]
    budgets = start.get("budgets")
    if isinstance(budgets, Mapping) and budgets:
        parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in budgets.items())
        lines += ["", f"Budgets: {parts}."]
    return "\n".join(lines)


def observation_text(observation: Mapping[str, Any]) -> str:
    """The text view of an observation, or its structured view as JSON if none.

    Args:
        observation: The decoded observation message.

    Returns:
        What the model reads for this turn.
    """
    for key in ("text", "text_view"):
        value = observation.get(key)
        if isinstance(value, str) and value.strip():
            return value
    view = observation.get("view", observation.get("structured"))
    # No text view at all is a runner bug, but the model can still read plain JSON.
    return json.dumps(view if view is not None else observation, sort_keys=True)


def repair_message(error: str, tool_names: list[str]) -> str:
    """What the model is told after an answer that could not be played.

    Args:
        error: What was wrong with the answer.
        tool_names: The tools it may call.

    Returns:
        The correction request.
    """
    return (
        f"That answer could not be played: {error}. Reply with exactly one call to one "
        f"of these tools, with arguments matching its schema: {', '.join(tool_names)}."
    )
