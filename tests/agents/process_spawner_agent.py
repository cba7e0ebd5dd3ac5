#!/usr/bin/env python3
"""Say hello, then on the first observation start COUNT sleeping processes and wait.

`process_spawner_agent.py TOKEN COUNT`: each child sleeps ten minutes with TOKEN on
its command line, in a new session of its own, so only a limit on the agent as a
whole (not its process group) stops and ends them.
"""

import json
import subprocess
import sys
import time

token, count = sys.argv[1], int(sys.argv[2])
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "hello", "protocol_version": 1, "name": "spawner",
                          "version": "1"}), flush=True)
    elif message["type"] == "observation":
        for _ in range(count):
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", token],
                             start_new_session=True)
        time.sleep(30)
