#!/usr/bin/env python3
"""Write a line of binary garbage, then a valid line."""

import sys

sys.stdout.buffer.write(b"\xff\xfe\x00\x80garbage\xc3\x28\n")
sys.stdout.buffer.write(b'{"ok": true}\n')
sys.stdout.flush()
sys.stdin.read()
