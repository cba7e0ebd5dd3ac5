#!/usr/bin/env python3
"""Say hello, then on the first observation hold what no per-process limit sees, and wait.

`hostile_round3_agent.py threads N`: start N idle threads in this one process (each a task
with a pid of the host's). `hostile_round3_agent.py file PATH MIB`: write MIB MiB into
PATH (the sandbox's /dev/shm or its root) and report on stderr whether it could.
`hostile_round3_agent.py memfd`: try a memfd and a System V segment, report, and exit.
"""

import ctypes
import json
import os
import sys
import threading
import time

mode = sys.argv[1]
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "hello", "protocol_version": 1, "name": "round3",
                          "version": "1"}), flush=True)
    elif message["type"] == "observation":
        if mode == "threads":
            threading.stack_size(64 << 10)
            stop = threading.Event()
            for _ in range(int(sys.argv[2])):
                threading.Thread(target=stop.wait, daemon=True).start()
        elif mode == "memfd":
            try:
                os.memfd_create("hold")
                sys.stderr.write("HELD\n")
            except OSError as exc:
                sys.stderr.write(f"REFUSED {exc.errno}\n")
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.shmget(0, 1 << 20, 0o1000 | 0o600) < 0:  # IPC_PRIVATE, IPC_CREAT
                sys.stderr.write(f"SHM REFUSED {ctypes.get_errno()}\n")
            sys.exit(0)
        else:
            try:
                with open(sys.argv[2], "wb") as handle:
                    for _ in range(int(sys.argv[3])):
                        handle.write(b"x" * (1 << 20))
                sys.stderr.write("HELD\n")
            except OSError as exc:
                sys.stderr.write(f"REFUSED {exc.errno}\n")
                sys.exit(0)  # nothing held: no need to wait for a limit
            sys.stderr.flush()
        time.sleep(30)
    elif message["type"] == "summary":
        break
