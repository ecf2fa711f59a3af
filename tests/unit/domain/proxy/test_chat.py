"""Reading a chat request: roles, text parts, exchanges, tasks, injection, what is learned."""

from __future__ import annotations

import pytest

from memlane.domain.proxy.answer import Answer
from memlane.domain.proxy.chat import exchanges, is_background_task, read_messages, with_memory
from memlane.domain.proxy.errors import InvalidChatRequest
from memlane.domain.proxy.learning import learned_exchange
from memlane.domain.proxy.modes import MemoryMode, allowed_mode, asked_mode

IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
AUDIO = {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}
DONE = Answer("Noted, you live in Porto.", "stop")


def test_developer_is_read_as_system_and_parts_give_their_text_only() -> None:
    messages = read_messages({"messages": [
        {"role": "developer", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "What is on"}, IMAGE,
                                     {"type": "text", "text": "this picture?"}, AUDIO]},
    ]})
    assert messages[0].role == "system"
    assert messages[1].text == "What is on\nthis picture?"
    assert "base64" not in messages[1].text and "UklGRg" not in messages[1].text


@pytest.mark.parametrize("body", [[], {}, {"messages": []}, {"messages": [{"content": "x"}]},
                                  {"messages": "hi"}])
def test_a_body_that_is_not_a_chat_request_is_refused(body: object) -> None:
    with pytest.raises(InvalidChatRequest):
        read_messages(body)


def test_exchanges_pair_users_with_text_replies_and_skip_tool_traffic() -> None:
    messages = read_messages({"messages": [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "Weather in Oslo?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c"}]},
        {"role": "tool", "tool_call_id": "c", "content": "{\"temp\": 3}"},
        {"role": "assistant", "content": "3 degrees."},
        {"role": "user", "content": "And tomorrow?"},
    ]})
    assert [(e.user, e.reply) for e in exchanges(messages)] == [
        ("Weather in Oslo?", "3 degrees."), ("And tomorrow?", "")
    ]


def test_open_webui_tasks_are_recognised_by_their_task_prompt() -> None:
    task = read_messages({"messages": [{"role": "user", "content":
        "### Task:\nGenerate a concise, 3-5 word title.\n### Chat History:\n..."}]})
    chat = read_messages({"messages": [{"role": "user", "content": "What is a ### Task: line?"}]})
    assert is_background_task(task) and not is_background_task(chat)


def test_the_block_merges_into_a_system_message_or_comes_first() -> None:
    plain = [{"role": "user", "content": "hi"}]
    assert with_memory(plain, "MEM") == [{"role": "system", "content": "MEM"}, *plain]
    dev = [{"role": "developer", "content": "Be brief."}, *plain]
    assert with_memory(dev, "MEM")[0] == {"role": "developer", "content": "Be brief.\n\nMEM"}
    parts = [{"role": "system", "content": [{"type": "text", "text": "A"}]}, *plain]
    assert with_memory(parts, "MEM")[0]["content"][-1] == {"type": "text", "text": "MEM"}
    assert with_memory(plain, "") == plain
    assert dev[0]["content"] == "Be brief."  # the request's own messages are not changed


def test_the_learned_exchange_is_the_last_question_and_the_answer() -> None:
    messages = read_messages({"messages": [
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"},
        {"role": "user", "content": [{"type": "text", "text": "I moved to Porto."}, IMAGE]},
    ]})
    learned = learned_exchange(messages, DONE, 32 * 1024)
    assert learned is not None
    assert (learned.question, learned.answer) == ("I moved to Porto.", DONE.text)


def test_a_request_ending_with_an_assistant_message_teaches_nothing() -> None:
    messages = read_messages({"messages": [
        {"role": "user", "content": "Write a poem"}, {"role": "assistant", "content": "Roses"}
    ]})
    assert learned_exchange(messages, DONE, 32 * 1024) is None


def test_a_long_exchange_is_cut_to_fit_a_segment() -> None:
    messages = read_messages({"messages": [{"role": "user", "content": "ä" * 40_000}]})
    learned = learned_exchange(messages, Answer("ö" * 40_000, "stop"), 32 * 1024)
    assert learned is not None
    segment = f"user: {learned.question}\nassistant: {learned.answer}"
    assert len(segment.encode()) <= 32 * 1024
    assert len(learned.question) > 1000 and len(learned.answer) > 1000


def test_a_key_without_write_is_downgraded_and_told_why() -> None:
    applied = allowed_mode(asked_mode("write"), can_read=True, can_write=False)
    assert applied.mode is MemoryMode.OFF and "memories:write" in (applied.reason or "")
    assert allowed_mode(asked_mode(None), True, False).mode is MemoryMode.READ
    assert allowed_mode(asked_mode("ON"), True, True).reason is None
    with pytest.raises(InvalidChatRequest):
        asked_mode("sometimes")
