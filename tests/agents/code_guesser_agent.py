#!/usr/bin/env python3
"""Key a guessed code (argv[1]) into the first keypad seen, else explore; never reads.

Speaks protocol version 2 (it uses `enter_code`). Explores by taking the first way out
not yet visited, so it meets a keypad without reading any note.
"""

import json
import sys

GUESS = sys.argv[1] if len(sys.argv) > 1 else "1234"


def send(action: str, arguments: dict) -> None:
    print(json.dumps({"type": "action", "protocol_version": 2, "action": action,
                      "arguments": arguments}), flush=True)


sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol_version": 2, "name": "code-guesser",
                  "version": "1"}), flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "observation":
        break
    view = message["view"]
    keypads = [o for o in view["objects"] if o["kind"] == "keypad" and o["state"] is None]
    ways = [w for w in (view["area"] or {}).get("ways_out", []) if not w["visited"]]
    if keypads:
        send("enter_code", {"object_id": keypads[0]["id"], "code": GUESS})
    elif ways:
        send("go_to_area", {"exit_id": ways[0]["id"]})
    else:
        send("wait", {"seconds": 1})
