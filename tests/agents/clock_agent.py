#!/usr/bin/env python3
"""Times each observation, thinks argv[1] seconds, then waits a second of game time.

Its notes say when each observation came, in seconds since its first one and on the
machine's monotonic clock (`t=SECONDS at=SECONDS`), so the record keeps what an agent
can learn from its clock (and a test can line up two agents' clocks).
"""

import json
import sys
import time

think = float(sys.argv[1])
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol_version": 1, "name": "clock", "version": "1"}),
      flush=True)
first = None
for line in sys.stdin:
    now = time.monotonic()
    first = now if first is None else first
    if json.loads(line).get("type") != "observation":
        break
    time.sleep(think)
    notes = f"t={now - first:.4f} at={now:.4f}"
    print(json.dumps({"type": "action", "protocol_version": 1, "action": "wait",
                      "arguments": {"seconds": 1}, "notes": notes}), flush=True)
