"""Where the schemas and the shipped levels are, in a checkout and in an installed package.

The folders stay at the top of the repository (`schemas/`, `levels/`), and the build
maps them into the package as `world/_data/schemas` and `world/_data/levels`
(pyproject.toml's `package-dir`), so a wheel carries them. Every reader finds them
here and nowhere else: the installed copy when there is one, else the checkout's.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent


def _data_dir(name: str) -> Path:
    # The packaged copy first: next to an installed package there is no checkout, and a
    # folder of the same name beside it in site-packages would belong to something else.
    packaged = _PACKAGE / "_data" / name
    return packaged if packaged.is_dir() else _CHECKOUT / name


SCHEMA_DIR = _data_dir("schemas")
"""The JSON Schemas: the level format, the protocol messages, records, actions.json."""

LEVELS_DIR = _data_dir("levels")
"""The shipped levels, one `<id>.json` each."""

MATCH_LEVELS_DIR = LEVELS_DIR / "matches"
"""The shipped match levels (the multiplayer track): a folder of their own, so that every
shipped-level check and sweep plays the single-player levels alone."""
