"""The harness's secret and everything drawn from it: episode keys, level ids, secret sets.

An agent is told the level, the difficulty and the seed, and the world's code is public.
So that a copy of the world inside the agent cannot play the episode ahead of it, the
world's one generator is not made from the seed but from the episode key, an HMAC-SHA256
of the level's content hash, the difficulty and the seed under a secret that never
leaves the harness (a run's own, or a suite's `secret` file). The same secret, level,
difficulty and seed give the same key, hence the same episode: that is how an operator
reproduces a run. A record carries its episode's key, never the secret, so publishing
a record reveals nothing about the suite's other episodes.

A generated level's id is its template and a token drawn from the secret and its name,
so it names neither the seed nor the parameters; and a secret held-out set
(`TEMPLATE@secret:N`) draws its N level seeds from the secret.

This module is the one place any of these is derived.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any

from world.face import MAX_SEED

SECRET_BYTES = 32
SECRET_FILE = "secret"
"""A secret's file name in a suite's folder (and in a run directory whose secret was made)."""
KEY_HEX = 32  # an episode key is 128 bits, written as 32 hex digits
_SEED_SPAN = MAX_SEED + 1  # a secret set's level seeds: the whole range TEMPLATE@SEED takes


class SecretError(ValueError):
    """A secret given that cannot be used (the message names it and what is allowed)."""


def new_secret() -> bytes:
    """A fresh random secret."""
    return secrets.token_bytes(SECRET_BYTES)


def secret_text(secret: bytes) -> str:
    """A secret as hex, the form files and `--secret` take."""
    return secret.hex()


def parse_secret(text: str, where: str = "--secret") -> bytes:
    """A secret from its hex text, or from a file holding it.

    Raises:
        SecretError: Neither a file nor at least 16 bytes of hex (named with `where`).
    """
    text = text.strip()
    path = Path(text)
    if text and path.is_file():
        try:
            return parse_secret(path.read_text(encoding="ascii"), str(path))
        except (OSError, UnicodeDecodeError) as exc:
            raise SecretError(f"{where}: cannot read the secret file: {exc}") from None
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) < 16:
        raise SecretError(f"{where}: a secret is a file holding hex or at least 32 hex "
                          f"digits (harness run writes one as {SECRET_FILE} in its run "
                          "directory)")
    return secret


def secret_files(text: str | None) -> tuple[Path, ...]:
    """The file a `--secret` value names, if it names one: a path the agent must not see."""
    if text is None or not text.strip() or not Path(text.strip()).is_file():
        return ()
    return (Path(text.strip()),)


def write_secret(path: Path, secret: bytes) -> None:
    """Write a secret readable by its owner only (mode 0600), never over another one.

    Raises:
        FileExistsError: A file is already there.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(secret_text(secret) + "\n")


def suite_secret(folder: Path) -> bytes:
    """The secret kept in a suite's folder: made on its first run, read on every resume.

    Raises:
        SecretError: The file is there but does not hold a secret.
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SECRET_FILE
    if not path.exists():
        # Another process may make it meanwhile: then theirs is the one.
        with contextlib.suppress(FileExistsError):
            write_secret(path, new_secret())
    return parse_secret(str(path), str(path))


def _mac(secret: bytes, *parts: Any) -> bytes:
    # Every derivation is labelled by its first part, so no two can ever coincide.
    message = json.dumps(["mission-harness", *parts], separators=(",", ":"))
    return hmac.new(secret, message.encode(), hashlib.sha256).digest()


def secret_fingerprint(secret: bytes) -> str:
    """A short name of a secret that tells nothing of it (a suite's `suite.json` keeps it)."""
    return _mac(secret, "fingerprint")[:6].hex()


def episode_key(secret: bytes, level_hash: str, difficulty: str, seed: int) -> int:
    """The key an episode's randomness is drawn from (128 bits)."""
    return int.from_bytes(_mac(secret, "episode", level_hash, difficulty, seed)[:KEY_HEX // 2],
                          "big")


def key_text(key: int) -> str:
    """An episode key as records and snapshots carry it."""
    return f"{key:0{KEY_HEX}x}"


def key_of(data: dict[str, Any]) -> int:
    """The episode key a record header or snapshot names.

    Records and snapshots made before keys carry none: their world was seeded with the
    seed itself, which is then their key.
    """
    text = data.get("key")
    return int(text, 16) if isinstance(text, str) else int(data["seed"])


def level_token(secret: bytes, name: str) -> str:
    """The opaque token of a generated level's id: drawn from the secret and its name."""
    return _mac(secret, "level", name)[:6].hex()


def set_seeds(secret: bytes, template: str, params: str, count: int) -> list[int]:
    """The level seeds of a secret held-out set, in order (distinct).

    A set's first N seeds are the same whatever its size, so `maze@secret:100` is the
    first hundred of `maze@secret:1000`.
    """
    seeds: list[int] = []
    seen: set[int] = set()
    draw = 0
    while len(seeds) < count:
        seed = int.from_bytes(_mac(secret, "set", template, params, draw)[:8], "big") % _SEED_SPAN
        draw += 1
        if seed not in seen:
            seen.add(seed)
            seeds.append(seed)
    return seeds
