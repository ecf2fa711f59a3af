"""Reading the model's answer: streamed events and JSON, what is learnable and what is not."""

from __future__ import annotations

import json
from typing import Any

from memlane.domain.proxy.answer import StreamAssembler, answer_from_json
from tests.stubs.openai_upstream import chunk


def stream_of(*events: Any, split: int = 7) -> StreamAssembler:
    """The events as a server sends them, fed in slices of `split` bytes (events straddle)."""
    raw = b"".join(
        b"data: " + (e if isinstance(e, str) else json.dumps(e)).encode() + b"\r\n\r\n"
        for e in events
    )
    assembler = StreamAssembler()
    for start in range(0, len(raw), split):
        assembler.feed(raw[start:start + split])
    return assembler


def test_content_deltas_assemble_into_the_answer_across_split_events() -> None:
    answer = stream_of(
        chunk(role="assistant"), chunk("Lisbon "), chunk("is sunny."), chunk(finish="stop"),
        "[DONE]",
    ).answer()
    assert answer.text == "Lisbon is sunny." and answer.learnable


def test_reasoning_deltas_and_think_blocks_are_not_part_of_the_answer() -> None:
    answer = stream_of(
        chunk(reasoning_content="The user wants "), chunk(reasoning="weather..."),
        chunk("<think>hidden plan</think>"), chunk("It is sunny."), chunk(finish="stop"),
    ).answer()
    assert answer.text == "It is sunny."


def test_an_answer_that_is_only_unfinished_reasoning_teaches_nothing() -> None:
    answer = stream_of(chunk("<think>still thinking"), chunk(finish="length")).answer()
    assert answer.text == "" and not answer.learnable


def test_a_tool_round_is_not_learnable() -> None:
    call = {"index": 0, "id": "c1", "type": "function",
            "function": {"name": "weather", "arguments": "{}"}}
    answer = stream_of(chunk(tool_calls=[call]), chunk(finish="tool_calls"), "[DONE]").answer()
    assert answer.calls_tools and not answer.learnable


def test_a_mid_stream_error_chunk_makes_the_answer_unlearnable() -> None:
    answer = stream_of(
        chunk("Half an ans"), {"error": {"message": "model crashed"}}, "[DONE]"
    ).answer()
    assert answer.failed and not answer.learnable


def test_a_stream_that_never_finished_is_not_learnable() -> None:
    assert not stream_of(chunk("Half an answer")).answer().learnable


def test_with_several_choices_the_first_is_the_answer() -> None:
    answer = stream_of(
        chunk("Second.", index=1), chunk("First.", index=0), chunk(finish="stop", index=1),
        chunk(finish="stop", index=0), "[DONE]",
    ).answer()
    assert answer.text == "First."


def test_the_usage_chunk_with_empty_choices_changes_nothing() -> None:
    usage = {"object": "chat.completion.chunk", "choices": [], "usage": {"total_tokens": 3}}
    answer = stream_of(chunk("Done."), chunk(finish="stop"), usage, "[DONE]").answer()
    assert answer.text == "Done." and answer.learnable


def test_a_json_answer_reads_the_first_choice_and_leaves_reasoning_out() -> None:
    body = {"choices": [
        {"index": 1, "message": {"role": "assistant", "content": "Other."},
         "finish_reason": "stop"},
        {"index": 0, "finish_reason": "stop", "message": {
            "role": "assistant", "content": "<think>hmm</think>Paris.",
            "reasoning_content": "long thoughts"}},
    ]}
    answer = answer_from_json(json.dumps(body).encode())
    assert answer.text == "Paris." and answer.learnable


def test_a_json_tool_call_or_error_is_not_learnable() -> None:
    tools = {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "tool_calls": [{"id": "c"}]}}]}
    assert not answer_from_json(json.dumps(tools).encode()).learnable
    assert not answer_from_json(b'{"error": {"message": "bad"}}').learnable
    assert not answer_from_json(b"not json").learnable
