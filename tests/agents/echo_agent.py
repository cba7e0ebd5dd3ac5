#!/usr/bin/env python3
"""Echo every stdin line back on stdout; exit cleanly when stdin closes."""

import sys

for line in sys.stdin:
    sys.stdout.write(line)
    sys.stdout.flush()
