#!/usr/bin/env python3
"""An agent that holds each turn until a file appears: `go_file_agent.py READY MARK`.

READY is an existing file (so the sandbox shows its folder); each observation is
answered with a 30 s wait only once a file named "go" exists beside READY. A test holds
an episode this way while it does something to the process playing it. MARK is only
there so the test can find this agent's processes.
"""

import json
import os
import sys
import time

ready, _mark = sys.argv[1], sys.argv[2]
go = os.path.join(os.path.dirname(ready), "go")
sys.stdin.readline()  # start
sys.stdout.write(json.dumps({"type": "hello", "protocol_version": 1, "name": "go-file",
                             "version": "1"}) + "\n")
sys.stdout.flush()
for line in sys.stdin:
    if json.loads(line)["type"] == "summary":
        break
    while not os.path.exists(go):
        time.sleep(0.1)
    sys.stdout.write(json.dumps({"type": "action", "protocol_version": 1, "action": "wait",
                                 "arguments": {"seconds": 30}}) + "\n")
    sys.stdout.flush()
