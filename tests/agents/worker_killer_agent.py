#!/usr/bin/env python3
"""An agent that hangs, or signals the process that started it: `worker_killer_agent.py SIG MARK`.

It starts a sleeping child of its own (which must be ended too), says hello and writes
"pid N child M" to stderr. With SIG 0 it sleeps at its first observation. Otherwise, on
seed 0 it sends signal SIG to its parent (in a suite, its worker process) and sleeps,
and on any other seed it waits in game until the summary. MARK is only there so a test
can find its processes, the child's included.
"""

import json
import os
import subprocess
import sys
import time

signum, mark = int(sys.argv[1]), sys.argv[2]
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", mark],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
sys.stderr.write(f"pid {os.getpid()} child {child.pid}\n")
sys.stderr.flush()
start = json.loads(sys.stdin.readline())
sys.stdout.write(json.dumps({"type": "hello", "protocol_version": 1, "name": "killer",
                             "version": "1"}) + "\n")
sys.stdout.flush()
for line in sys.stdin:
    if json.loads(line)["type"] == "summary":
        break
    if signum == 0 or start["seed"] == 0:
        if signum:
            os.kill(os.getppid(), signum)
        time.sleep(120)
    sys.stdout.write(json.dumps({"type": "action", "protocol_version": 1, "action": "wait",
                                 "arguments": {"seconds": 30}}) + "\n")
    sys.stdout.flush()
