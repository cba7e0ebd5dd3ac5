#!/usr/bin/env python3
"""Write MEGABYTES (argv[1]) of zeros to stderr, then report on stdout and wait."""

import os
import sys

megabytes = int(sys.argv[1]) if len(sys.argv) > 1 else 300
chunk = bytes(1 << 20)
for _ in range(megabytes):
    view = memoryview(chunk)
    while view:
        view = view[os.write(2, view) :]
os.write(2, b"\nflood_stderr_agent: last words\n")
sys.stdout.write(f'{{"flooded_mb": {megabytes}}}\n')
sys.stdout.flush()
sys.stdin.read()
