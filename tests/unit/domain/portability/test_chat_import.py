"""Planning a chat import: new messages only, whole exchanges per call, memories that fit."""

from __future__ import annotations

from hypothesis import given, strategies as st

from memlane.domain.memories.segments import Message, Role, segment_messages
from memlane.domain.portability.chat_import import (
    TRUNCATION_MARK,
    ImportSummary,
    fit_exchanges,
    plan_chat,
)

LIMIT = 32 * 1024


def chat(*texts: tuple[Role, str]) -> list[tuple[str, Message]]:
    return [(f"k{i}", Message(role, text)) for i, (role, text) in enumerate(texts)]


def test_known_messages_are_left_out_and_the_rest_keep_their_order() -> None:
    keyed = chat((Role.USER, "a"), (Role.ASSISTANT, "b"), (Role.USER, "c"), (Role.ASSISTANT, "d"))
    (call,) = plan_chat("chatgpt:x", keyed, {"k0", "k1"}, max_content_bytes=LIMIT)
    assert call.keys == ("k2", "k3")
    assert [m.content for m in call.messages] == ["c", "d"]


def test_a_chat_imported_before_needs_no_call() -> None:
    keyed = chat((Role.USER, "a"), (Role.ASSISTANT, "b"))
    assert plan_chat("c", keyed, {"k0", "k1"}, max_content_bytes=LIMIT) == []


def test_a_long_chat_is_split_before_a_user_message_never_inside_an_exchange() -> None:
    keyed = chat(*[(Role.USER if i % 3 == 0 else Role.ASSISTANT, f"m{i}") for i in range(10)])
    calls = plan_chat("c", keyed, set(), max_content_bytes=LIMIT, max_messages=4)
    assert [len(c.keys) for c in calls] == [3, 3, 4]
    assert all(c.messages[0].role is Role.USER for c in calls)
    assert [k for c in calls for k in c.keys] == [k for k, _ in keyed]


def test_an_exchange_too_long_for_one_memory_shortens_its_longest_message_only() -> None:
    question, answer = "How do I parse JSON?", "x" * (LIMIT + 500)
    (call,) = plan_chat(
        "c", chat((Role.USER, question), (Role.ASSISTANT, answer)), set(), max_content_bytes=LIMIT
    )
    asked, answered = call.messages
    assert asked.content == question and answered.content.endswith(TRUNCATION_MARK)
    assert call.shortened == 1
    (segment,) = segment_messages(call.messages)
    assert len(segment.content.encode()) <= LIMIT


@given(st.lists(
    st.tuples(st.sampled_from([Role.USER, Role.ASSISTANT, Role.TOOL]),
              st.text(min_size=1, max_size=300).filter(str.strip)),
    min_size=1, max_size=12,
), st.integers(min_value=200, max_value=2000))
def test_every_fitted_exchange_fits_and_small_ones_are_untouched(
    texts: list[tuple[Role, str]], limit: int
) -> None:
    messages = [Message(role, text) for role, text in texts]
    fitted = fit_exchanges(messages, limit)
    assert [m.role for m in fitted] == [m.role for m in messages]
    before = segment_messages(messages)
    for old, new in zip(before, segment_messages(fitted), strict=True):
        fits = len(old.content.encode()) <= limit
        assert new.content == old.content if fits else len(new.content.encode()) <= limit


def test_summaries_add_field_by_field() -> None:
    total = ImportSummary(chats=1, messages_added=2) + ImportSummary(chats=2, memories_added=1)
    assert total == ImportSummary(chats=3, messages_added=2, memories_added=1)
