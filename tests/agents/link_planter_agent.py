#!/usr/bin/env python3
"""Leave links to host paths in the working folder for the clean-up to follow, then wait.

`link_planter_agent.py DIR FILE`: in its working folder it links `dir_link` to DIR and
`file_link` to FILE, makes a folder `locked` with mode 000 holding a link to DIR,
prints `planted` and waits for stdin to close.
"""

import os
import sys

folder, file = sys.argv[1:3]
os.symlink(folder, "dir_link")
os.symlink(file, "file_link")
os.mkdir("locked")
os.symlink(folder, "locked/dir_link")
os.chmod("locked", 0)
print("planted", flush=True)
sys.stdin.read()
