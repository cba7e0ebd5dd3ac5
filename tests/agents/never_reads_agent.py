#!/usr/bin/env python3
"""Never read stdin, so its pipe fills up; exit after a while."""

import sys
import time

sys.stdout.write('{"ready": true}\n')
sys.stdout.flush()
time.sleep(60)
