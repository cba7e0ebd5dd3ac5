"""The type checker's settings: every module of harness/ is checked strictly.

`scripts/test.sh` runs mypy with pyproject.toml's `[tool.mypy]`; this holds the settings
themselves, so that no override lets a harness module fall back to mypy's default
checks (the turn drivers and the Gymnasium environments were the last to pass strict).
"""

from __future__ import annotations

import tomllib

from tests.shared import ROOT

# mypy's strict flags that a per-module override can set (`strict` itself is global only).
STRICT_FLAGS = ("disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls",
                "disallow_untyped_defs", "disallow_incomplete_defs", "check_untyped_defs",
                "disallow_untyped_decorators", "warn_unused_ignores", "warn_return_any",
                "no_implicit_reexport", "strict_equality", "extra_checks")


def _overrides() -> list[dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["mypy"]["overrides"]


def _modules(override: dict) -> list[str]:
    module = override["module"]
    return [module] if isinstance(module, str) else list(module)


def test_the_whole_harness_is_checked_strictly() -> None:
    strict = [o for o in _overrides() if "harness.*" in _modules(o)]
    assert len(strict) == 1
    assert {flag: strict[0].get(flag) for flag in STRICT_FLAGS} == dict.fromkeys(STRICT_FLAGS, True)


def test_no_override_turns_a_strict_check_off() -> None:
    relaxed = [o["module"] for o in _overrides() if any(o.get(f) is False for f in STRICT_FLAGS)]
    assert relaxed == []
