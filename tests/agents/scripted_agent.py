#!/usr/bin/env python3
"""Play a fixed list of actions, given as a JSON list of {action, arguments} in argv[1].

After the list it waits a second each turn. Used to play what an RL environment played.
"""

import json
import sys

actions = json.loads(sys.argv[1])
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol_version": 1, "name": "scripted", "version": "1"}),
      flush=True)
for turn, line in enumerate(sys.stdin):
    if json.loads(line).get("type") == "summary":
        break
    step = actions[turn] if turn < len(actions) else {"action": "wait",
                                                       "arguments": {"seconds": 1}}
    print(json.dumps({"type": "action", "protocol_version": 1, **step}), flush=True)
