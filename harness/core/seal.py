"""The harness's seal on the records it writes: an HMAC under a key only the harness holds.

Replay proves what the world did, but not who played: a genuine record of another agent
whose header names this suite's command replays as well as this agent's own. So every
record the harness finishes gets a seal beside it (`record.seal`: HMAC-SHA256 of the
record file's bytes under the harness key), and what must have been made by this
harness (a finished run that resume reuses, a cached reference run of the stepwise
track) is trusted only when its seal verifies. The key lives in
$XDG_STATE_HOME (or ~/.local/state)/mission-harness/harness.key, made on first use with
mode 0600; the sandbox shows the agent none of the user's folders, so no agent can read
it or write a seal.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from harness.core.record import MAX_RECORD_BYTES, record_path

SEAL_FILE = "record.seal"
KEY_BYTES = 32


def key_file() -> Path:
    """Where the harness key is kept."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "mission-harness" / "harness.key"


def harness_key() -> bytes:
    """The harness key, made (random, mode 0600) the first time it is asked for.

    Raises:
        OSError: The key cannot be read or made (a link or a short file is refused).
    """
    path = key_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(FileExistsError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(KEY_BYTES))
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as handle:
        key = handle.read(KEY_BYTES + 1)
    if len(key) != KEY_BYTES:
        raise OSError(f"{path}: not a harness key ({len(key)} bytes, not {KEY_BYTES})")
    return key


def _digest(record: Path) -> str:
    mac = hmac.new(harness_key(), digestmod=hashlib.sha256)
    with open(record, "rb") as handle:
        while chunk := handle.read(1 << 20):
            mac.update(chunk)
    return mac.hexdigest()


def seal(run_dir: str | Path) -> Path:
    """Write the seal of a finished record beside it; return the seal's path."""
    record = record_path(run_dir)
    path = record.parent / SEAL_FILE
    path.write_text(_digest(record) + "\n", encoding="ascii")
    return path


def seal_problem(run_dir: str | Path) -> str | None:
    """Why a record is not sealed by this harness (None when its seal verifies)."""
    record = record_path(run_dir)
    path = record.parent / SEAL_FILE
    try:
        if record.stat().st_size > MAX_RECORD_BYTES:
            return f"{record}: too large to be a record"
        with open(path, "rb") as handle:
            claimed = handle.read(200).decode("ascii").strip()
        if not hmac.compare_digest(claimed, _digest(record)):
            return f"{path}: the seal does not match the record (not made by this " \
                   "harness's key, or edited since)"
    except FileNotFoundError:
        return f"{record}: no seal ({SEAL_FILE}); the record was not finished by this harness"
    except (OSError, UnicodeDecodeError) as exc:
        return f"{path}: cannot check the seal ({exc})"
    return None
