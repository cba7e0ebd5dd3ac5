#!/usr/bin/env python3
"""Say hello, then on the first observation fill the working folder and crash.

`disk_filler_agent.py CAP_MIB`: writes 1 MiB blocks into a file in its working
directory until a write fails or CAP_MIB MiB are written (a cap, so that without a
bounded folder the test does not fill the machine's disk), prints how it went on
stderr and exits with status 1.
"""

import json
import sys

cap = int(sys.argv[1])
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "hello", "protocol_version": 1, "name": "filler",
                          "version": "1"}), flush=True)
    elif message["type"] == "observation":
        written, error = 0, "none"
        try:
            with open("filler.bin", "wb") as fh:
                while written < cap:
                    fh.write(b"\0" * (1 << 20))
                    fh.flush()
                    written += 1
        except OSError as exc:
            error = exc.strerror
        sys.stderr.write(f"FILLED {written} MiB, then: {error}\n")
        sys.exit(1)
