"""A suite folder's files: one suite at a time, whole files only, names that stay inside.

- `suite_lock` holds an advisory lock on `OUT/.lock` for as long as a suite writes to
  OUT, so a second suite on the same folder stops with a message naming the first
  one's pid instead of interleaving runs and results with it. The kernel releases the
  lock when its holder dies, however it dies.
- `write_atomically` writes a temporary file beside the target and renames it over the
  target, so a reader (or a crash) sees the old file or the new one, never half of one.
- `folder_name` turns a level reference (an id, or a file path such as
  `../x/level.json`) into one safe path component.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

LOCK_FILE = ".lock"
_SAFE = re.compile(r"[a-z0-9][a-z0-9_-]{0,47}")


class SuiteLockedError(Exception):
    """Another suite is writing to the same output folder."""


@contextlib.contextmanager
def suite_lock(out: Path) -> Iterator[None]:
    """Hold OUT's lock for the block.

    Raises:
        SuiteLockedError: Another process holds it; the message names its pid.
    """
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK_FILE
    # Never through a link: a planted OUT/.lock link must not make us truncate its target.
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise SuiteLockedError(f"--out {out}: cannot use {path} as its lock ("
                               f"{exc.strerror or exc}); remove it if it is a link") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(fd)
        raise SuiteLockedError(f"--out {out}: {path} is not a plain file of its own (a "
                               "hard link or a device); remove it")
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
            raise SuiteLockedError(
                f"--out {out} is in use by another suite (pid {holder}); wait for it to "
                "finish or use another --out directory") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` in one step (a temporary file renamed over it)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def folder_name(ref: str) -> str:
    """One safe path component for a level reference.

    A level id is its own name. Anything else (a path, odd characters) becomes its
    file stem with unsafe characters replaced, plus a hash of the reference, so two
    files with the same stem never share a folder and no name can climb out of OUT.
    """
    if _SAFE.fullmatch(ref):
        return ref
    stem = re.sub(r"[^a-z0-9_-]+", "_", Path(ref).stem.lower()).strip("_")[:40] or "level"
    return f"{stem}-{hashlib.sha256(ref.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"
