"""Gymnasium environments over the harness's world: `MissionHarness/Macro-v0` and `Raw-v0`.

Importing this module registers both (Gymnasium's `gym.make("harness.rl:MissionHarness/
Macro-v0")` imports it for you); the package also declares `register_envs` under
the `gymnasium.envs` entry-point group for Gymnasium versions that load plugins.
Needs the optional extra `rl` (gymnasium). See docs/rl.md.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

# Without Gymnasium (the optional extra `rl`) the declarations (tables, reward) still import.
HAVE_GYMNASIUM = importlib.util.find_spec("gymnasium") is not None
if HAVE_GYMNASIUM:
    import gymnasium as gym



@dataclass(frozen=True)
class EnvEntry:
    """One registered environment id: where it lives and what a step and an action are."""

    env_id: str
    entry_point: str
    step: str
    action: str
    levels: str


# Every env id, declared once: registration and docs/rl.md's registry table read it.
ENVS: tuple[EnvEntry, ...] = (
    EnvEntry("MissionHarness/Macro-v0", "harness.rl.macro_env:MacroEnv",
             "one macro action (one turn of `harness run`)",
             "`Discrete`, masked (`action_masks()`)",
             "any shipped, file or generated level; Doom missions refused"),
    EnvEntry("MissionHarness/Raw-v0", "harness.rl.raw_env:RawEnv",
             "`frame_skip` ticks of controller input", "`MultiDiscrete`",
             "any shipped, file or generated level; Doom missions refused"),
)
ENV_IDS = {e.env_id: e.entry_point for e in ENVS}


def register_envs() -> None:
    """Register both environments with Gymnasium (again is harmless).

    Raises:
        ModuleNotFoundError: Gymnasium is not installed (it comes with the extra `rl`).
    """
    if not HAVE_GYMNASIUM:
        raise ModuleNotFoundError("register_envs: Gymnasium is not installed; install the "
                                  "optional extra `rl` (pip install 'mission-harness[rl]')")
    for env_id, entry_point in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=entry_point, disable_env_checker=False)


if HAVE_GYMNASIUM:
    register_envs()
