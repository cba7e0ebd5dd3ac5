"""PettingZoo environments over matches (the multiplayer track, issue 40): see docs/rl.md.

`match_env(level=...)` is a `ParallelEnv` (harness.pz.parallel); `match_aec_env(...)`
is the same env turned into an AEC env by PettingZoo's `parallel_to_aec`. Needs the
optional extra `rl` (gymnasium and pettingzoo).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pettingzoo import AECEnv

    from harness.pz.parallel import MatchParallelEnv  # start-up cost: pettingzoo on demand


def match_env(**kwargs: Any) -> MatchParallelEnv:
    """A match `ParallelEnv`; the keyword arguments are `MatchParallelEnv`'s."""
    from harness.pz.parallel import MatchParallelEnv  # start-up cost: pettingzoo on demand

    return MatchParallelEnv(**kwargs)


def match_aec_env(**kwargs: Any) -> AECEnv:
    """The same match env as an AEC env (PettingZoo's `parallel_to_aec`)."""
    from pettingzoo.utils.conversions import parallel_to_aec  # start-up cost: on demand

    return parallel_to_aec(match_env(**kwargs))
