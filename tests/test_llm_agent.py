"""The chat-model agent: configuration, request building, parsing, retries, context,
and whole episodes against a scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

import json
import subprocess
import sys
from email.utils import formatdate
from pathlib import Path

import pytest

from harness.core.record import record_text
from tests.fake_openai_server import (
    FakeOpenAIServer,
    check_messages,
    error_reply,
    slow,
    text_reply,
    tool_call,
)
from tests.shared import ROOT, SHIPPED_AGENTS
from world.actions.catalog import catalog

AGENT = SHIPPED_AGENTS / "llm_agent.py"
# The agent's own package (agents/llm) is imported as the agent imports it, by plain name.
sys.path.insert(0, str(SHIPPED_AGENTS))

from llm.client import ChatClient, ChatError, RetryPolicy, parse_retry_after  # noqa: E402
from llm.config import ConfigError, Prices, load_config  # noqa: E402
from llm.context import Context, Turn  # noqa: E402
from llm.player import Player, trim  # noqa: E402
from llm.turn import ToolBox, read_answer  # noqa: E402
from llm.usage import Usage  # noqa: E402

TOOLS = catalog().tool_definitions()
START = {
    "type": "start",
    "protocol_version": 1,
    "level": "outpost",
    "title": "Outpost",
    "difficulty": "agent",
    "seed": 7,
    "brief": "Reach the radio room and switch the beacon on.",
    "budgets": {"max_decisions": 50, "max_game_seconds": 600, "hello_timeout_s": 30,
                "decision_timeout_s": 60, "episode_timeout_s": 600,
                "max_invalid_in_a_row": 5, "max_line_bytes": 1048576},
    "units": {"length": "world units (about 100 to a metre)"},
    "tools": TOOLS,
}


def observation(turn: int, text: str = "You are in the yard.", result: dict | None = None):
    return {"type": "observation", "protocol_version": 1, "turn": turn, "tick": 30 * turn,
            "time_s": float(turn), "view": {}, "last_result": result, "error": None,
            "budgets": {"decisions_left": 50 - turn, "game_seconds_left": 600.0,
                        "episode_wall_s_left": 600.0, "decision_timeout_s": 60.0,
                        "invalid_in_a_row": 0, "max_invalid_in_a_row": 5},
            "warnings": [], "text": text}


def config(*flags: str, **env: str):
    return load_config(["--backoff", "0", "--max-backoff", "0", *flags], env)


def player_for(server: FakeOpenAIServer, *flags: str, sleeps: list | None = None) -> Player:
    cfg = config("--base-url", server.url, "--model", "fake-model", *flags)
    sleeps = [] if sleeps is None else sleeps
    client = ChatClient(cfg.base_url, cfg.api_key, cfg.timeout_s,
                        RetryPolicy(cfg.retries, cfg.backoff_s, cfg.max_backoff_s),
                        sleep=sleeps.append)
    player = Player(cfg, client)
    player.start(START)
    return player


# --- configuration -------------------------------------------------------------------

def test_flags_beat_environment_which_beats_defaults():
    env = {"LLM_MODEL": "env-model", "LLM_TEMPERATURE": "0.7", "MY_KEY": "sk-test",
           "LLM_API_KEY_ENV": "MY_KEY"}
    cfg = load_config(["--model", "flag-model"], env)
    assert cfg.model == "flag-model"
    assert cfg.temperature == 0.7
    assert cfg.api_key == "sk-test"
    assert cfg.keep_turns == 8
    assert load_config([], {}).api_key is None


def test_price_file_and_flags(tmp_path):
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"input": 2.0, "cached_input": 0.5, "output": 8.0}))
    cfg = load_config(["--prices", str(prices), "--price-output", "10"], {})
    assert cfg.prices == Prices(input=2.0, cached_input=0.5, output=10.0)
    prices.write_text(json.dumps({"inptu": 1}))
    with pytest.raises(ConfigError, match="unknown price keys"):
        load_config(["--prices", str(prices)], {})


@pytest.mark.parametrize("flags", [
    ["--fallback", "not json"],
    ["--fallback", '{"arguments": {}}'],
    ["--extra-body", "[1]"],
    ["--max-tokens-param", "tokens"],
    ["--timeout", "0"],
])
def test_bad_settings_are_refused(flags):
    with pytest.raises(ConfigError):
        load_config(flags, {})


# --- request building ----------------------------------------------------------------

def test_request_carries_the_start_tools_unchanged_and_the_settings():
    cfg = load_config(["--model", "m", "--max-output-tokens", "256", "--max-tokens-param",
                       "max_completion_tokens", "--tool-choice", "required",
                       "--extra-body", '{"top_p": 0.9}'], {})
    player = Player(cfg, client=None)  # type: ignore[arg-type]
    hello = player.start(START)
    assert hello["model"] == "m" and hello["type"] == "hello"
    messages, _ = player.context.build("You see a door.")
    body = player.request_body(messages)
    assert body["tools"] == TOOLS
    assert body["max_completion_tokens"] == 256 and "max_tokens" not in body
    assert body["tool_choice"] == "required" and body["top_p"] == 0.9
    assert body["temperature"] == 0.2
    assert check_messages(body["messages"]) == []
    first_user = body["messages"][1]["content"]
    assert "Reach the radio room" in first_user and "You see a door." in first_user
    system = body["messages"][0]["content"]
    assert "100 units to a metre" in system and "30 ticks per second" in system


def test_context_keeps_k_turns_and_folds_older_ones_into_a_summary():
    ctx = Context("system", "mission", keep_turns=4, context_chars=100000, summary_chars=1000)
    for i in range(1, 6):
        ctx.add(Turn(i, f"obs {i}", f"c{i}", "wait", {"seconds": i}, f"thinking {i}"))
        ctx.set_outcome("arrived")
    messages, dropped = ctx.build("obs 6")
    # Folded in a block down to half of K, so the next turns keep the same prefix.
    assert dropped.turns == (1, 2, 3)
    assert "turns 1-3 folded" in dropped.describe()
    last = messages[-1]["content"]
    assert 'turn 1: wait {"seconds":1} -> arrived - thinking 1' in last
    assert last.endswith("obs 6")
    assert "obs 1" not in json.dumps(messages)
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool",
                                             "assistant", "tool"]
    assert messages[1]["content"] == "mission\n\nobs 4"
    assert check_messages(messages) == []
    _, again = ctx.build("obs 6")
    assert not again


def test_character_budget_folds_turns_then_trims_the_summary():
    big = "x" * 400
    ctx = Context("s", "m", keep_turns=10, context_chars=1000, summary_chars=120)
    for i in range(1, 6):
        ctx.add(Turn(i, big, f"c{i}", "wait", {"seconds": 1}, "note " * 10))
    messages, dropped = ctx.build(big)
    assert sum(len(m.get("content") or "") for m in messages) <= 1000 + 200
    assert dropped.turns and dropped.summary_lines
    assert "no longer listed" in messages[-1]["content"]
    assert check_messages(messages) == []


# --- reading answers -----------------------------------------------------------------

def _answer(reply):
    return read_answer(reply.body, ToolBox(TOOLS), turn=1)


def test_a_valid_call_is_read_with_its_text():
    answer = _answer(tool_call("go_to_area", {"exit_id": "e2"}, text="Head north."))
    assert (answer.name, answer.arguments, answer.problem) == ("go_to_area",
                                                               {"exit_id": "e2"}, None)
    assert answer.text == "Head north."


@pytest.mark.parametrize(("reply", "words"), [
    (tool_call("wait", "{seconds: 2"), "not valid JSON"),
    (tool_call("wait", '{"seconds": NaN}'), "NaN"),
    (tool_call("wait", "[2]"), "JSON object"),
    (tool_call("fly", {"to": "moon"}), "no tool named 'fly'"),
    (tool_call("wait", {"seconds": -1}), "wait seconds"),
    (tool_call("go_to", {"x": 1}), "'z' is a required property"),
    (tool_call("wait", {"seconds": 1, "extra": True}), "Additional properties"),
    (text_reply("I think I should wait."), "no tool call"),
])
def test_unplayable_answers_name_their_problem(reply, words):
    answer = _answer(reply)
    assert answer.name is None
    assert words in answer.problem


def test_a_call_written_as_text_is_accepted():
    answer = _answer(text_reply('Waiting. {"name": "wait", "arguments": {"seconds": 3}}'))
    assert (answer.name, answer.arguments) == ("wait", {"seconds": 3})
    assert "tool call read from the text" in answer.remarks


# --- usage ---------------------------------------------------------------------------

def test_usage_reads_counts_and_keeps_missing_ones_null():
    full = Usage.from_response(tool_call("wait", {"seconds": 1}).body)
    assert (full.input_tokens, full.cached_input_tokens, full.output_tokens,
            full.reasoning_tokens) == (120, 100, 30, 10)
    bare = Usage.from_response(tool_call("wait", {"seconds": 1},
                                         usage={"prompt_tokens": 50,
                                                "completion_tokens": 5}).body)
    assert bare.cached_input_tokens is None and bare.reasoning_tokens is None
    total = full + bare
    assert (total.input_tokens, total.output_tokens, total.cached_input_tokens) == (170, 35,
                                                                                   None)
    none = Usage.from_response(tool_call("wait", {"seconds": 1}, usage=None).body)
    assert none.to_message(Prices(1, 1, 1)) == {
        "input_tokens": None, "cached_input_tokens": None, "output_tokens": None,
        "reasoning_tokens": None, "cost_usd": None}


def test_cost_from_the_price_table():
    usage = Usage.from_response(tool_call("wait", {"seconds": 1}).body)
    # 20 uncached at $2/M, 100 cached at $0.5/M, 30 output at $8/M.
    assert usage.cost_usd(Prices(2.0, 0.5, 8.0)) == pytest.approx(
        (20 * 2 + 100 * 0.5 + 30 * 8) / 1e6)
    assert usage.cost_usd(Prices(2.0, None, 8.0)) == pytest.approx((120 * 2 + 30 * 8) / 1e6)
    assert usage.cost_usd(Prices()) is None


# --- HTTP client ---------------------------------------------------------------------

def test_retry_after_in_seconds_or_as_a_date():
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(formatdate(1000.0 + 5, usegmt=True), now=1000.0) == 5.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None
    policy = RetryPolicy(retries=3, backoff_s=0.5, max_backoff_s=4.0)
    assert [policy.delay(n, None) for n in range(4)] == [0.5, 1.0, 2.0, 4.0]
    assert policy.delay(0, 2.5) == 2.5 and policy.delay(0, 100.0) == 4.0


def _client(server, retries=3, sleeps=None, key=None):
    sleeps = [] if sleeps is None else sleeps
    return ChatClient(server.url, key, 5.0, RetryPolicy(retries, 0.25, 10.0),
                      sleep=sleeps.append)


def _body():
    return {"model": "m", "tools": TOOLS,
            "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]}


def test_429_and_5xx_are_retried_honouring_retry_after():
    sleeps: list[float] = []
    script = [error_reply(429, retry_after="2"), error_reply(500), error_reply(503),
              tool_call("wait", {"seconds": 1})]
    with FakeOpenAIServer(script, api_key="sk-local") as server:
        response = _client(server, sleeps=sleeps, key="sk-local").complete(_body())
    assert response["choices"][0]["message"]["tool_calls"]
    assert sleeps == [2.0, 0.5, 1.0]
    assert server.statuses == [429, 500, 503, 200] and server.problems == []


def test_retries_are_bounded_and_client_errors_are_not_retried():
    with FakeOpenAIServer([error_reply(500)] * 3) as server:
        with pytest.raises(ChatError, match="HTTP 500"):
            _client(server, retries=2).complete(_body())
        assert len(server.requests) == 3
    with FakeOpenAIServer([error_reply(401)]) as server:
        with pytest.raises(ChatError, match="HTTP 401"):
            _client(server).complete(_body())
        assert len(server.requests) == 1


def test_an_unreachable_server_is_retried_then_given_up():
    server = FakeOpenAIServer()
    url = server.url
    server.stop()  # never started, and now its port is closed
    sleeps: list[float] = []
    client = ChatClient(url, None, 2.0, RetryPolicy(2, 0.0, 0.0), sleep=sleeps.append)
    with pytest.raises(ChatError, match="network error"):
        client.complete(_body())
    assert len(sleeps) == 2


def test_a_slow_answer_times_out_and_is_retried():
    script = [slow(tool_call("wait", {"seconds": 9}), 1.0), tool_call("wait", {"seconds": 1})]
    sleeps: list[float] = []
    with FakeOpenAIServer(script) as server:
        client = ChatClient(server.url, None, 0.2, RetryPolicy(1, 0.0, 0.0),
                            sleep=sleeps.append)
        response = client.complete(_body())
    arguments = response["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
    assert json.loads(arguments) == {"seconds": 1} and len(sleeps) == 1


# --- turns against the scripted server -----------------------------------------------

def test_a_malformed_call_is_repaired_within_the_turn():
    script = [tool_call("wait", "{seconds: two}", text="Let me wait."),
              tool_call("wait", {"seconds": 2}, text="Waiting for the guard to pass.")]
    with FakeOpenAIServer(script, expected_tools=TOOLS) as server:
        action = player_for(server).decide(observation(0))
    assert server.problems == []
    assert action["action"] == "wait" and action["arguments"] == {"seconds": 2}
    assert action["notes"].startswith("Waiting for the guard to pass.")
    assert "retry after" in action["notes"] and "not valid JSON" in action["notes"]
    # Usage sums both requests.
    assert action["usage"]["input_tokens"] == 240 and action["usage"]["output_tokens"] == 60
    repair = server.requests[1]["messages"]
    # Arguments that are not JSON go back as text, with the problem in a user message.
    assert repair[-2] == {"role": "assistant", "content": "Let me wait. wait({seconds: two})"}
    assert repair[-1]["role"] == "user" and "could not be played" in repair[-1]["content"]


def test_the_fallback_is_played_after_bounded_repairs():
    with FakeOpenAIServer(default=lambda _b: text_reply("Hmm.")) as server:
        action = player_for(server, "--repairs", "2").decide(observation(0))
    assert len(server.requests) == 3 and server.problems == []
    assert (action["action"], action["arguments"]) == ("wait", {"seconds": 2})
    assert "fallback wait played" in action["notes"]
    assert action["usage"]["input_tokens"] == 360


def test_a_dead_server_gives_the_fallback_not_a_crash():
    with FakeOpenAIServer(default=lambda _b: error_reply(503)) as server:
        action = player_for(server, "--retries", "1").decide(observation(0))
    assert len(server.requests) == 2
    assert action["action"] == "wait" and "request failed" in action["notes"]
    assert action["usage"]["input_tokens"] is None


def test_the_turn_budget_bounds_a_slow_server():
    with FakeOpenAIServer(default=lambda _b: slow(tool_call("wait", {"seconds": 1}), 1.0)) \
            as server:
        action = player_for(server, "--turn-budget", "0.3", "--timeout", "60").decide(
            observation(0))
    assert action["action"] == "wait" and "fallback wait played" in action["notes"]
    assert len(server.requests) == 1


def test_history_answers_every_call_across_turns():
    with FakeOpenAIServer(expected_tools=TOOLS) as server:
        player = player_for(server, "--keep-turns", "2")
        for turn in range(5):
            result = {"action": "wait", "end_reason": "arrived", "ticks": 30,
                      "distance_moved": 0.0, "detail": "", "changes": []} if turn else None
            player.decide(observation(turn, f"observation {turn}", result))
    assert server.problems == []
    last = server.requests[-1]["messages"]
    # The summary rides with the current observation; the prefix stays the mission's.
    assert last[1]["content"].endswith("observation 2")
    assert last[-1]["role"] == "tool"
    assert last[-1]["tool_call_id"] == last[-2]["tool_calls"][0]["id"]
    assert "turn 1: wait" in last[-1]["content"] and "-> arrived" in last[-1]["content"]
    assert last[-1]["content"].endswith("observation 4")


def test_notes_are_trimmed_to_the_cap():
    long_text = "word " * 500
    with FakeOpenAIServer([tool_call("wait", {"seconds": 1}, text=long_text)]) as server:
        action = player_for(server, "--notes-chars", "100").decide(observation(0))
    assert len(action["notes"]) <= 100 and action["notes"].endswith("...")
    assert trim("a  b\n c", 10) == "a b c"


# --- the agent as a process ------------------------------------------------------------

def _protocol_errors(kind: str, message: dict) -> list[str]:
    protocol = pytest.importorskip("harness.core.protocol")
    return protocol.schema_errors(kind, message)


def test_the_agent_process_speaks_the_protocol(tmp_path):
    script = [error_reply(429, retry_after="0"), tool_call("go_to_area", {"exit_id": "x1"},
                                                           text="Into the corridor.")]
    lines = [START, observation(0), {"type": "summary", "protocol_version": 1,
                                     "outcome": "truncated"}]
    with FakeOpenAIServer(script, expected_tools=TOOLS) as server:
        proc = subprocess.run(
            [sys.executable, str(AGENT), "--base-url", server.url, "--model", "fake-model",
             "--price-input", "1", "--price-output", "2"],
            input="".join(json.dumps(m) + "\n" for m in lines), capture_output=True,
            text=True, timeout=60, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"},
        )
    assert proc.returncode == 0, proc.stderr
    hello, action = (json.loads(line) for line in proc.stdout.splitlines())
    assert _protocol_errors("hello", hello) == []
    assert _protocol_errors("action", action) == []
    assert action["action"] == "go_to_area" and action["notes"] == "Into the corridor."
    assert action["usage"]["cost_usd"] == pytest.approx((120 * 1 + 30 * 2) / 1e6)
    assert server.statuses == [429, 200] and server.problems == []
    assert "HTTP 429" in proc.stderr
    # Failed requests count too: a run of failures no longer closes with "0 requests".
    assert "2 requests sent, 1 answered" in proc.stderr


def test_bad_configuration_exits_with_a_message():
    proc = subprocess.run([sys.executable, str(AGENT), "--fallback", "nope"], input="",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "bad configuration" in proc.stderr
    assert proc.stdout == ""


# --- a real episode through the runner -------------------------------------------------

def _record(run_dir: str) -> list[dict]:
    return [json.loads(line) for line in record_text(run_dir).splitlines()]


@pytest.mark.slow  # a whole episode of a shipped level; the tests above drive the player
def test_a_whole_episode_through_harness_run(tmp_path, monkeypatch):
    cli = pytest.importorskip("harness.cli")
    if "run" not in cli.COMMANDS:
        pytest.skip("the runner is not available")
    script = [
        error_reply(429, retry_after="0.2"),
        tool_call("go_to", "{'x': 1000, 'z': 400}", text="Out of the yard."),
        tool_call("go_to", {"x": 1000, "z": 400}, text="Out of the yard, east."),
        error_reply(500),
        text_reply("I am not sure what to do."),
        tool_call("wait", {"seconds": 2}, text="Listening for guards."),
    ]
    monkeypatch.setenv("FAKE_LLM_KEY", "sk-local-test")
    agent = (f"{sys.executable} {AGENT} --base-url {{url}} --model fake-model "
             "--api-key-env FAKE_LLM_KEY --backoff 0 --keep-turns 3 "
             "--price-input 1 --price-cached-input 0.25 --price-output 4")
    with FakeOpenAIServer(script, expected_tools=TOOLS, api_key="sk-local-test") as server:
        proc = subprocess.run(
            [sys.executable, "-m", "harness.cli", "run", "outpost", "--agent",
             agent.format(url=server.url), "--pass-env", "FAKE_LLM_KEY", "--out",
             str(tmp_path), "--json"],
            capture_output=True, text=True, timeout=240, cwd=ROOT,
        )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["agent_error"] is None and summary["invalid_actions"] == 0
    assert summary["agent"]["model"] == "fake-model"
    assert server.problems == []
    assert server.statuses[:6] == [429, 200, 200, 500, 200, 200]

    turns = [line for line in _record(summary["run_dir"]) if line.get("kind") == "turn"]
    protocol = pytest.importorskip("harness.core.protocol")
    for turn in turns:
        assert protocol.schema_errors("action", turn["action"]) == []
    first, second = turns[0]["action"], turns[1]["action"]
    # Turn 1: a 429 retried, then a malformed call repaired within the turn.
    assert first["action"] == "go_to" and first["arguments"] == {"x": 1000, "z": 400}
    assert first["notes"].startswith("Out of the yard, east.")
    assert "retry after" in first["notes"] and "not valid JSON" in first["notes"]
    assert first["usage"] == {"input_tokens": 240, "cached_input_tokens": 200,
                              "output_tokens": 60, "reasoning_tokens": 20,
                              "cost_usd": pytest.approx((40 * 1 + 200 * 0.25 + 60 * 4) / 1e6)}
    # Turn 2: a 500 retried, then an answer without a tool call repaired.
    assert second["action"] == "wait" and "no tool call" in second["notes"]
    assert second["notes"].startswith("Listening for guards.")
    # Later turns have the server's default answer and well-formed histories.
    assert all(t["action"]["usage"]["input_tokens"] == 120 for t in turns[2:])
    stderr_log = Path(summary["run_dir"], "agent_stderr.log").read_text()
    assert "HTTP 429" in stderr_log and "HTTP 500" in stderr_log
    assert "folded into the summary" in stderr_log
