#!/usr/bin/env python3
"""Write one line, close stdout, and keep running."""

import os
import sys
import time

sys.stdout.write('{"bye": true}\n')
sys.stdout.flush()
os.close(1)
time.sleep(60)
