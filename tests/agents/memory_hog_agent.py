#!/usr/bin/env python3
"""Say hello, then on the first observation start COUNT processes that each hold MIB MiB.

`memory_hog_agent.py TOKEN COUNT MIB`: each child fills MIB MiB (so the memory is
resident, not only reserved) and sleeps ten minutes with TOKEN on its command line, in
a new session. Each stays under a per-process address-space limit; together they do not.
"""

import json
import subprocess
import sys
import time

token, count, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
HOLD = f"import time; held = b'x' * ({mib} << 20); time.sleep(600)"
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "hello", "protocol_version": 1, "name": "hog",
                          "version": "1"}), flush=True)
    elif message["type"] == "observation":
        for _ in range(count):
            subprocess.Popen([sys.executable, "-S", "-c", HOLD, token], start_new_session=True)
        time.sleep(30)
