#!/usr/bin/env python3
"""The reference agent, except that it only waits while one stepwise subtask is on.

Usage: shirker_agent.py OBJECTIVE REFERENCE_AGENT. While an observation's
`stepwise.subtask` is OBJECTIVE it waits five seconds a turn; every other line goes to
the reference agent (a child process), whose answers it passes on.
"""

import json
import subprocess
import sys

shirk, reference = int(sys.argv[1]), sys.argv[2]
child = subprocess.Popen([sys.executable, reference], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
WAIT = {"type": "action", "protocol_version": 1, "action": "wait", "arguments": {"seconds": 5},
        "notes": "shirking this subtask"}
for line in sys.stdin:
    message = json.loads(line)
    if (message.get("stepwise") or {}).get("subtask") == shirk:
        print(json.dumps(WAIT), flush=True)
        continue
    child.stdin.write(line)
    child.stdin.flush()
    if message.get("type") == "summary":
        break
    print(child.stdout.readline(), end="", flush=True)  # its hello, or its action
child.stdin.close()
child.wait()
