"""What the agent learns about its server during an episode, and what it does about it.

Real servers differ in ways a request cannot ask about: the context size, whether
`tool_choice` is honoured, whether the chat template shows the model the tools at all.
The watch keeps what the answers and errors revealed, so the player can adapt (a smaller
request, no `tool_choice`) and say plainly in the log and the notes what went wrong.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from llm.turn import Answer

log = logging.getLogger("llm_agent")

# Turns in a row with no tool call and no tool named before the agent says that the
# server's chat template probably drops the tools.
SILENT_TURNS = 3
# Characters per prompt token assumed until the server's usage tells: low on purpose,
# so a budget derived from a stated context size errs on the short side.
DEFAULT_CHARS_PER_TOKEN = 3.0
# Share of a stated context the request may fill (token estimates are rough).
CONTEXT_SHARE = 0.9
# More characters than this per prompt token the server counted means the prompt was
# probably cut (Ollama cuts to its own context length without an error).
CUT_CHARS_PER_TOKEN = 8.0

NO_TOOLS_HINT = (
    "the server answered {n} turns in a row without a tool call and without naming any "
    "tool: its chat template probably drops the tool definitions (llama.cpp's "
    "llama-server needs --jinja; some models' templates have no tool support at all)"
)
REQUIRED_HINT = (
    'the server accepted tool_choice "required" but did not enforce it (the answer had '
    "no structured tool call)"
)


@dataclass
class Watch:
    """What is known about the server so far."""

    tool_choice: str | None
    chars_per_token: float = DEFAULT_CHARS_PER_TOKEN
    n_ctx: int | None = None
    silent_turns: int = 0
    warned_no_tools: bool = False
    warned_required: bool = False
    warned_cut: bool = False
    _turn_saw_tools: bool = False
    _turn_answered: bool = False

    def learn_usage(self, request_chars: int, prompt_tokens: int | None) -> None:
        """Refine the characters-per-token estimate from a request the server counted."""
        if not prompt_tokens or prompt_tokens <= 0:
            return
        ratio = request_chars / prompt_tokens
        if ratio > CUT_CHARS_PER_TOKEN and not self.warned_cut:
            self.warned_cut = True
            log.warning("the server counted %d prompt tokens for %d characters: it may cut "
                        "the prompt to its context length without saying so (Ollama does; "
                        "set its context on the server)", prompt_tokens, request_chars)
        self.chars_per_token = min(6.0, max(1.5, ratio))

    def budget_chars(self, n_ctx: int, output_tokens: int) -> int:
        """Characters a request may have when the server holds `n_ctx` tokens in all."""
        return max(0, int((n_ctx - output_tokens) * self.chars_per_token * CONTEXT_SHARE))

    def drop_tool_choice(self, why: str) -> bool:
        """Stop sending tool_choice; False when it was not being sent anyway."""
        if self.tool_choice is None:
            return False
        log.warning("not sending tool_choice %r any more: %s", self.tool_choice, why)
        self.tool_choice = None
        return True

    def note_answer(self, answer: Answer, tool_names: list[str]) -> list[str]:
        """Take in one answer; return remarks worth putting in this turn's notes."""
        structured = any(not c.from_text for c in answer.calls)
        self._turn_answered = True
        if answer.calls or any(name in answer.text for name in tool_names):
            self._turn_saw_tools = True
        if self.tool_choice == "required" and not structured and not self.warned_required:
            self.warned_required = True
            log.warning("%s", REQUIRED_HINT)
            return [REQUIRED_HINT]
        return []

    def end_turn(self) -> list[str]:
        """Close a turn; return the no-tools warning once, when it is due.

        A turn without any answer (the server failed) says nothing about the template.
        """
        if self._turn_answered:
            self.silent_turns = 0 if self._turn_saw_tools else self.silent_turns + 1
        self._turn_saw_tools = self._turn_answered = False
        if self.silent_turns >= SILENT_TURNS and not self.warned_no_tools:
            self.warned_no_tools = True
            hint = NO_TOOLS_HINT.format(n=self.silent_turns)
            log.error("%s", hint)
            return [hint]
        return []
