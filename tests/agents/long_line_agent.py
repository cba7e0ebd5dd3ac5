#!/usr/bin/env python3
"""Write one 10 MB line, then a normal line, then wait for stdin to close."""

import sys

sys.stdout.write('{"junk": "' + "x" * (10 * 1000 * 1000) + '"}\n')
sys.stdout.write('{"after": 1}\n')
sys.stdout.flush()
sys.stdin.read()
