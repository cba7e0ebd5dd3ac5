"""Gymnasium environments over the harness's world: Macro-v0, Raw-v0 and procedural ids.

`MissionHarness/Macro-v0` and `Raw-v0` play one level; a procedural pair per template
(`MissionHarness/Macro-Maze-v0`, harness.rl.procedural) draws a new level at each reset.

Importing this module registers them all (Gymnasium's `gym.make("harness.rl:MissionHarness/
Macro-v0")` imports it for you); the package also declares `register_envs` under
the `gymnasium.envs` entry-point group for Gymnasium versions that load plugins.
Needs the optional extra `rl` (gymnasium). See docs/rl.md.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from harness.rl.proc_spec import procedural_entries

# Without Gymnasium (the optional extra `rl`) the declarations (tables, reward) still import.
HAVE_GYMNASIUM = importlib.util.find_spec("gymnasium") is not None
if HAVE_GYMNASIUM:
    import gymnasium as gym

    from harness.rl.batched import vector_entry



@dataclass(frozen=True)
class EnvEntry:
    """One registered environment id: where it lives and what a step and an action are."""

    env_id: str
    entry_point: str
    step: str
    action: str
    levels: str
    template: str = ""  # a procedural id's template (passed as its `template` argument)


# Every env id, declared once: registration and docs/rl.md's registry table read it.
_FIXED: tuple[EnvEntry, ...] = (
    EnvEntry("MissionHarness/Macro-v0", "harness.rl.macro_env:MacroEnv",
             "one macro action (one turn of `harness run`)",
             "`Discrete`, masked (`action_masks()`)",
             "any shipped, file or generated level; Doom missions refused"),
    EnvEntry("MissionHarness/Raw-v0", "harness.rl.raw_env:RawEnv",
             "`frame_skip` ticks of controller input", "`MultiDiscrete`",
             "any shipped, file or generated level; Doom missions refused"),
)
_SAME = {e.env_id.removeprefix("MissionHarness/").removesuffix("-v0"): e for e in _FIXED}
ENVS: tuple[EnvEntry, ...] = _FIXED + tuple(
    EnvEntry(p.env_id, p.entry_point, _SAME[p.kind].step, _SAME[p.kind].action,
             f"a new `{p.template}@SEED` level at every reset, from a seed split",
             p.template)
    for p in procedural_entries())
ENV_IDS = {e.env_id: e.entry_point for e in ENVS}


def register_envs() -> None:
    """Register every environment of `ENVS` with Gymnasium (again is harmless).

    Raises:
        ModuleNotFoundError: Gymnasium is not installed (it comes with the extra `rl`).
    """
    if not HAVE_GYMNASIUM:
        raise ModuleNotFoundError("register_envs: Gymnasium is not installed; install the "
                                  "optional extra `rl` (pip install 'mission-harness[rl]')")
    for entry in ENVS:
        if entry.env_id not in gym.registry:
            gym.register(id=entry.env_id, entry_point=entry.entry_point,
                         vector_entry_point=vector_entry(entry.env_id),
                         disable_env_checker=False,
                         kwargs={"template": entry.template} if entry.template else {})


if HAVE_GYMNASIUM:
    register_envs()
