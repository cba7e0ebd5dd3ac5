"""docs/rl.md's generated tables, from the declarations of the RL modules.

`python3 -m harness.docgen.protocol` rewrites them with PROTOCOL.md's; none of this needs
Gymnasium installed.
"""

from __future__ import annotations

from harness.core.markdown_table import table_lines
from harness.rl import ENVS
from harness.rl.macro_actions import ARGUMENT_SLOTS, FAMILIES, action_blocks
from harness.rl.proc_spec import SPLITS
from harness.rl.reward import REWARDS
from world.face import RAW_CONTROLS, RAY_CHANNELS, RAY_HIT_CHANNELS


def _rows(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    return "\n".join(table_lines(header, rows))


def rl_tables() -> dict[str, str]:
    """Each generated docs/rl.md table by its marker name."""
    fill = {family: ", ".join(f"`{n}`" for names, fams in ARGUMENT_SLOTS.items()
                              if family in fams for n in names)
            for family in FAMILIES}
    return {
        "rl_env_ids": _rows(
            ("env id", "entry point", "one step", "action", "levels"),
            [(f"`{e.env_id}`", f"`{e.entry_point}`", e.step, e.action, e.levels)
             for e in ENVS]),
        "rl_splits": _rows(
            ("split", "level seeds", "levels by default", "what it is for"),
            [(f"`{s.name}`", s.seeds(), str(s.size), s.summary) for s in SPLITS.values()]),
        "rl_macro_actions": _rows(
            ("indices", "action", "slots → arguments"),
            [(f"{a}–{b}", f"`{name}`", slots) for a, b, name, slots in action_blocks()]),
        "rl_slot_families": _rows(
            ("family", "slots", "what slot i is", "fills"),
            [(f"`{f.name}`", str(f.size), f.summary, fill[f.name]) for f in FAMILIES.values()]),
        "rl_rewards": _rows(("reward", "potential and what it pays"),
                            [(f"`{r.name}`", r.summary) for r in REWARDS.values()]),
        "rl_raw_controls": _rows(
            ("component", "control", "values (index: meaning)", "what it does"),
            [(str(i), f"`{c.name}`", ", ".join(f"{j}: {v}" for j, v in enumerate(c.values)),
              c.summary) for i, c in enumerate(RAW_CONTROLS.values())]),
        "rl_ray_channels": _rows(
            ("channel", "name", "meaning"),
            [(str(i), f"`{name}`",
              "distance to the hit over `max_range` (1: nothing in range)" if i == 0 else
              (f"the ray stopped at a {name}" if name in RAY_HIT_CHANNELS and name in
               ("wall", "door") else
               f"the ray stopped at a {name} character" if name in RAY_HIT_CHANNELS else
               f"the ray stopped at an object of kind `{name}`"))
             for i, name in enumerate(RAY_CHANNELS)]),
    }
