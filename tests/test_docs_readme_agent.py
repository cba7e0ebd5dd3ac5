"""README's first agent, taken from README.md by its marker, plays a level to a win.

The block after `<!-- first-agent -->` is the code a newcomer copies: this test runs it
as written, through `harness.episode.runner.run` like `harness run`, so a README that drifts
from the protocol fails here.
"""

from __future__ import annotations

import re

from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.shared import ROOT, python_agent

MARKER = "<!-- first-agent -->"
FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)


def readme_agent() -> str:
    """The Python block right after README's marker."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(re.escape(MARKER) + r"\n```python\n(.*?)\n```", text, flags=re.S)
    assert found, f"README.md has no ```python block right after {MARKER}"
    return found.group(1) + "\n"


def test_readme_agent_is_short_and_reads_only_the_structured_view() -> None:
    # The promise is a 15-line agent: every line of the block counts, blank ones too,
    # and none is squeezed past 100 characters to get there.
    code = readme_agent()
    lines = code.splitlines()
    assert len(lines) <= 15, f"README's first agent is {len(lines)} lines, not 15"
    assert max(len(line) for line in lines) <= 100
    assert ";" not in code
    assert '["view"]' in code and '["text"]' not in code


def test_readme_agent_wins_key_store(tmp_path) -> None:
    script = tmp_path / "first_agent.py"
    script.write_text(readme_agent(), encoding="utf-8")
    summary = run(str(ROOT / "examples" / "levels" / "key_store.json"), python_agent(script),
                  difficulty="easy", seed=0, out_dir=tmp_path / "runs", settings=FAST)
    assert summary["agent_error"] is None and summary["invalid_actions"] == 0
    assert summary["outcome"] == "completed" and summary["success"] is True, summary["reason"]
