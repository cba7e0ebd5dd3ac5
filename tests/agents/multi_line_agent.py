#!/usr/bin/env python3
"""Write several lines in one write call, the last one without a newline."""

import os

os.write(1, b"".join(b'{"n": %d}\n' % i for i in range(5)) + b'{"n": 5}')
