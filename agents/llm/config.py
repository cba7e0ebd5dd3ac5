"""Configuration of the chat-model agent: flags, environment variables and prices.

Every setting has a flag; most also read an environment variable so a suite can set
them once for all episodes. A flag beats its environment variable, which beats the
default. The API key itself is never a flag (command lines are visible to other users
and end up in run records): the agent reads it from the environment variable named by
``--api-key-env``.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

AGENT_NAME = "llm-agent"
AGENT_VERSION = "0.1.0"


@dataclass(frozen=True)
class Prices:
    """Dollars per million tokens; None where the price is not known.

    Attributes:
        input: Price of uncached input (prompt) tokens.
        cached_input: Price of input tokens served from the server's cache; falls back
            to the input price when not given.
        output: Price of output tokens (reasoning tokens are part of them).
    """

    input: float | None = None
    cached_input: float | None = None
    output: float | None = None


@dataclass(frozen=True)
class Setting:
    """One configurable setting: its flag, environment variable, type and default."""

    dest: str
    flag: str
    env: str | None
    kind: type
    default: Any
    help: str


# The one table of settings: the parser, the environment lookup and the README's table
# are all read from here.
SETTINGS: tuple[Setting, ...] = (
    Setting("base_url", "--base-url", "LLM_BASE_URL", str, "http://127.0.0.1:8000/v1",
            "Base URL of the OpenAI-compatible API (up to and including /v1)."),
    Setting("model", "--model", "LLM_MODEL", str, "default",
            "Model name sent with every request."),
    Setting("api_key_env", "--api-key-env", "LLM_API_KEY_ENV", str, "OPENAI_API_KEY",
            "Name of the environment variable holding the API key (none needed locally)."),
    Setting("temperature", "--temperature", "LLM_TEMPERATURE", float, 0.2,
            "Sampling temperature; a negative value leaves it to the server."),
    Setting("max_output_tokens", "--max-output-tokens", "LLM_MAX_OUTPUT_TOKENS", int, 1024,
            "Cap on output tokens per request; 0 leaves it to the server."),
    Setting("max_tokens_param", "--max-tokens-param", "LLM_MAX_TOKENS_PARAM", str,
            "max_tokens",
            "Request field carrying the cap: max_tokens, or max_completion_tokens for "
            "servers that want it."),
    Setting("tool_choice", "--tool-choice", "LLM_TOOL_CHOICE", str, "auto",
            "tool_choice sent with requests: auto, required, or omit to leave it out. "
            "Some servers accept required without enforcing it (llama.cpp's server) or "
            "fail on it; the agent then says so in its log and notes, and stops sending "
            "tool_choice after an error about it."),
    Setting("stream", "--stream", "LLM_STREAM", int, 0,
            "1 asks for streamed answers (stream: true, server-sent events); 0 does not."),
    Setting("timeout_s", "--timeout", "LLM_TIMEOUT_S", float, 120.0,
            "Wall-clock seconds allowed for one HTTP request."),
    Setting("retries", "--retries", "LLM_RETRIES", int, 4,
            "Retries of one request after a 429, a 5xx, a timeout or a network error."),
    Setting("backoff_s", "--backoff", "LLM_BACKOFF_S", float, 1.0,
            "First retry delay in seconds; doubles on each retry."),
    Setting("max_backoff_s", "--max-backoff", "LLM_MAX_BACKOFF_S", float, 30.0,
            "Longest single delay, also capping a server's Retry-After."),
    Setting("repairs", "--repairs", "LLM_REPAIRS", int, 2,
            "Extra requests in one turn after an answer with no valid tool call."),
    Setting("turn_budget_s", "--turn-budget", "LLM_TURN_BUDGET_S", float, 0.0,
            "Wall-clock seconds one decision may take before the fallback action is "
            "sent; 0 means derive it from the runner's decision timeout when known."),
    Setting("keep_turns", "--keep-turns", "LLM_KEEP_TURNS", int, 8,
            "Past turns kept verbatim in the context (K)."),
    Setting("context_chars", "--context-chars", "LLM_CONTEXT_CHARS", int, 60000,
            "Character budget of the whole request's messages; oldest turns go first."),
    Setting("summary_chars", "--summary-chars", "LLM_SUMMARY_CHARS", int, 4000,
            "Character budget of the rolling summary of dropped turns."),
    Setting("notes_chars", "--notes-chars", "LLM_NOTES_CHARS", int, 600,
            "Cap on the notes sent with each action."),
    Setting("fallback", "--fallback", "LLM_FALLBACK", str,
            '{"action": "wait", "arguments": {"seconds": 2}}',
            "Action (JSON: action and arguments) sent when the model gives no usable "
            "tool call within the turn."),
    Setting("extra_body", "--extra-body", "LLM_EXTRA_BODY", str, "{}",
            "JSON object merged into every request body (for example top_p or "
            "reasoning_effort)."),
    Setting("prices_file", "--prices", "LLM_PRICES", str, "",
            "JSON file with dollars per million tokens: "
            '{"input": .., "cached_input": .., "output": ..}.'),
    Setting("price_input", "--price-input", "LLM_PRICE_INPUT", float, None,
            "Dollars per million input tokens (beats the file)."),
    Setting("price_cached_input", "--price-cached-input", "LLM_PRICE_CACHED_INPUT", float,
            None, "Dollars per million cached input tokens (beats the file)."),
    Setting("price_output", "--price-output", "LLM_PRICE_OUTPUT", float, None,
            "Dollars per million output tokens (beats the file)."),
)


@dataclass(frozen=True)
class Config:
    """The resolved settings of one agent process."""

    base_url: str
    model: str
    api_key: str | None
    temperature: float | None
    max_output_tokens: int | None
    max_tokens_param: str
    tool_choice: str | None
    stream: bool
    timeout_s: float
    retries: int
    backoff_s: float
    max_backoff_s: float
    repairs: int
    turn_budget_s: float | None
    keep_turns: int
    context_chars: int
    summary_chars: int
    notes_chars: int
    fallback: Mapping[str, Any]
    extra_body: Mapping[str, Any]
    prices: Prices = field(default_factory=Prices)


class ConfigError(ValueError):
    """A setting has a value the agent cannot use."""


def build_parser() -> argparse.ArgumentParser:
    """The agent's command-line parser, one flag per row of SETTINGS.

    Returns:
        The parser; unset flags parse to None so the environment can fill them.
    """
    parser = argparse.ArgumentParser(
        prog="llm_agent.py",
        description="Play harness episodes with a model behind an OpenAI-compatible "
        "chat-completions API.",
    )
    for s in SETTINGS:
        env = f" [env {s.env}]" if s.env else ""
        parser.add_argument(
            s.flag, dest=s.dest, type=s.kind, default=None,
            help=f"{s.help} Default: {s.default!r}.{env}",
        )
    return parser


def _resolve(args: argparse.Namespace, environ: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for s in SETTINGS:
        value = getattr(args, s.dest)
        if value is None and s.env and environ.get(s.env, "") != "":
            try:
                value = s.kind(environ[s.env])
            except ValueError as exc:
                raise ConfigError(f"{s.env}={environ[s.env]!r}: {exc}") from exc
        values[s.dest] = s.default if value is None else value
    return values


def _json_object(text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{what} is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ConfigError(f"{what} must be a JSON object")
    return value


def load_prices(values: Mapping[str, Any]) -> Prices:
    """The price table from the optional JSON file, overridden by price flags.

    Args:
        values: The resolved settings.

    Returns:
        The prices, None where unknown.

    Raises:
        ConfigError: The file cannot be read or holds something other than numbers.
    """
    table: dict[str, Any] = {}
    if values["prices_file"]:
        path = Path(values["prices_file"])
        try:
            table = _json_object(path.read_text(encoding="utf-8"), f"price file {path}")
        except OSError as exc:
            raise ConfigError(f"cannot read price file {path}: {exc}") from exc
    for key in ("input", "cached_input", "output"):
        flag_value = values[f"price_{key}"]
        if flag_value is not None:
            table[key] = flag_value
    unknown = sorted(set(table) - {"input", "cached_input", "output"})
    if unknown:
        raise ConfigError(f"unknown price keys {unknown}; use input, cached_input, output")
    for key, price in table.items():
        if isinstance(price, bool) or not isinstance(price, int | float) or price < 0:
            raise ConfigError(f"price {key!r} must be a non-negative number, not {price!r}")
    return Prices(**{k: float(v) for k, v in table.items()})


def load_config(
    argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None
) -> Config:
    """Resolve the configuration from flags, then environment variables, then defaults.

    Args:
        argv: Command-line arguments (without the program name); None reads sys.argv.
        environ: Environment mapping; None reads os.environ.

    Returns:
        The resolved configuration.

    Raises:
        ConfigError: A value is malformed or out of range.
    """
    environ = os.environ if environ is None else environ
    values = _resolve(build_parser().parse_args(argv), environ)
    fallback = _json_object(values["fallback"], "--fallback")
    if not isinstance(fallback.get("action"), str) or not isinstance(
        fallback.get("arguments", {}), dict
    ):
        raise ConfigError('--fallback must look like {"action": "wait", "arguments": {...}}')
    if values["max_tokens_param"] not in ("max_tokens", "max_completion_tokens"):
        raise ConfigError("--max-tokens-param must be max_tokens or max_completion_tokens")
    for name in ("retries", "repairs", "keep_turns", "context_chars", "summary_chars"):
        if values[name] < 0:
            raise ConfigError(f"--{name.replace('_', '-')} must not be negative")
    if values["timeout_s"] <= 0:
        raise ConfigError("--timeout must be positive")
    key_env = values["api_key_env"]
    return Config(
        base_url=values["base_url"].rstrip("/"),
        model=values["model"],
        api_key=environ.get(key_env) or None,
        temperature=values["temperature"] if values["temperature"] >= 0 else None,
        max_output_tokens=values["max_output_tokens"] or None,
        max_tokens_param=values["max_tokens_param"],
        tool_choice=None if values["tool_choice"] == "omit" else values["tool_choice"],
        stream=bool(values["stream"]),
        timeout_s=values["timeout_s"],
        retries=values["retries"],
        backoff_s=max(0.0, values["backoff_s"]),
        max_backoff_s=max(0.0, values["max_backoff_s"]),
        repairs=values["repairs"],
        turn_budget_s=values["turn_budget_s"] or None,
        keep_turns=values["keep_turns"],
        context_chars=values["context_chars"],
        summary_chars=values["summary_chars"],
        notes_chars=max(0, values["notes_chars"]),
        fallback={"action": fallback["action"], "arguments": fallback.get("arguments", {})},
        extra_body=_json_object(values["extra_body"], "--extra-body"),
        prices=load_prices(values),
    )
