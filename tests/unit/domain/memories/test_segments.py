"""A conversation becomes segments: each user message with the reply after it, verbatim."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, strategies as st

from memlane.domain.errors import InvalidMemory
from memlane.domain.graph.causal import follows_causally
from memlane.domain.memories.segments import Message, Role, segment_messages, user_words
from memlane.domain.model import MemoryType

T0 = datetime(2030, 1, 1, tzinfo=UTC)


def test_each_user_message_and_its_reply_make_one_segment() -> None:
    segments = segment_messages([
        Message(Role.USER, "I adopted a dog", T0),
        Message(Role.ASSISTANT, "Congratulations! What is its name?"),
        Message(Role.USER, "Bello"),
        Message(Role.ASSISTANT, "A lovely name."),
    ])
    assert [s.content for s in segments] == [
        "user: I adopted a dog\nassistant: Congratulations! What is its name?",
        "user: Bello\nassistant: A lovely name.",
    ]
    assert segments[0].created_at == T0 and segments[1].created_at is None
    assert segments[0].user_text == "I adopted a dog"


def test_a_tool_message_is_its_own_tool_result_segment() -> None:
    segments = segment_messages([
        Message(Role.USER, "What's the weather?"),
        Message(Role.TOOL, '{"temp": 21}', name="weather"),
        Message(Role.ASSISTANT, "It is 21 degrees."),
    ])
    assert [s.memory_type for s in segments] == [None, MemoryType.TOOL_RESULT, None]
    assert segments[1].content == 'weather: {"temp": 21}'
    assert segments[2].roles == (Role.ASSISTANT,)


def test_a_system_message_joins_the_exchange_it_opens() -> None:
    (only,) = segment_messages([
        Message(Role.SYSTEM, "Be brief."), Message(Role.USER, "Hi"),
        Message(Role.ASSISTANT, "Hello."),
    ])
    assert only.roles == (Role.SYSTEM, Role.USER, Role.ASSISTANT)


@pytest.mark.parametrize("messages", [[], [Message(Role.USER, "  ")]])
def test_empty_input_is_refused(messages: list[Message]) -> None:
    with pytest.raises(InvalidMemory):
        segment_messages(messages)


def test_a_naive_timestamp_is_refused() -> None:
    with pytest.raises(InvalidMemory, match="time zone"):
        segment_messages([Message(Role.USER, "hi", datetime(2030, 1, 1))])


texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)
messages = st.lists(
    st.builds(Message, role=st.sampled_from(list(Role)), content=texts.filter(str.strip)),
    min_size=1, max_size=20,
)


@given(messages=messages)
def test_every_message_text_lands_in_exactly_one_segment_in_order(
    messages: list[Message],
) -> None:
    segments = segment_messages(messages)
    assert sum(len(s.roles) for s in segments) == len(messages)
    assert [r for s in segments for r in s.roles] == [m.role for m in messages]
    joined = "\n".join(s.content for s in segments)
    position = 0
    for message in messages:
        found = joined.find(message.content.strip(), position)
        assert found >= 0
        position = found


@pytest.mark.parametrize(("text", "causal"), [
    ("So I quit my job.", True),
    ("user: Because the rent was too high.", True),
    ("Deshalb bin ich umgezogen.", True),
    ("I also like tea", False),
    ("Also, ich mag Tee", False),
])
def test_a_causal_cue_opening_a_segment_links_it_to_the_one_before(
    text: str, causal: bool
) -> None:
    assert follows_causally(text) is causal


def test_what_the_user_said_in_a_segment_leaves_the_reply_out() -> None:
    (segment,) = segment_messages([
        Message(Role.USER, "I live in Lisbon.\nSince May."),
        Message(Role.ASSISTANT, "Thanks for telling me, I'll keep that in mind."),
    ])
    roles = [r.value for r in segment.roles]
    assert user_words(segment.content, roles) == "I live in Lisbon.\nSince May."
    assert user_words("I live in Lisbon.", None) == "I live in Lisbon."
    assert user_words("assistant: Hello!", ["assistant"]) == ""


def test_a_named_assistant_turn_stands_alone_as_the_assistants_words() -> None:
    """A transcript with named speakers keeps one turn per segment, the assistant's too."""
    segments = segment_messages([
        Message(Role.USER, "I adopted a dog", name="user"),
        Message(Role.ASSISTANT, "Congratulations!", name="assistant"),
        Message(Role.ASSISTANT, "What is its name?"),
    ])
    assert [s.content for s in segments] == [
        "user: I adopted a dog", "assistant: Congratulations!", "assistant: What is its name?",
    ]
    assert [s.replied for s in segments] == [False, True, True]


def test_an_exchange_is_not_a_reply_alone() -> None:
    (exchange,) = segment_messages([
        Message(Role.USER, "Hi"), Message(Role.ASSISTANT, "Hello."),
    ])
    assert not exchange.replied
