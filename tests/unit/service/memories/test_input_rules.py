"""Input rules: NUL is refused everywhere text is stored or compared, invisible-only text is
blank, metadata is bounded in depth, keys and bytes, and a quote is clipped."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, strategies as st

from memlane.domain.errors import InvalidMemory
from memlane.domain.model import MemoryFilter, NewMemory
from memlane.domain.policy import MemoryPolicy
from memlane.domain.text_rules import clipped, is_blank
from memlane.service.memories.validation import (
    check_filter,
    check_identifier,
    check_metadata,
    check_new,
)

POLICY = MemoryPolicy(max_metadata_depth=3, max_metadata_keys=5, max_metadata_bytes=64)


def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": 1}
    for _ in range(depth - 1):
        value = {"d": value}
    return value


@pytest.mark.parametrize(
    "text",
    ["", " \n\t", "\u200b", "\ufeff\u200d\u2060", "\u00ad\u200e", "\u3164", "\u2800 ", "\u0301"],
)
def test_whitespace_and_invisible_characters_alone_are_blank(text: str) -> None:
    assert is_blank(text)


@given(st.text(), st.characters(categories=["Lu", "Ll", "Lo", "Nd", "So"]), st.text())
def test_text_with_one_visible_letter_digit_or_symbol_is_not_blank(
    before: str, visible: str, after: str
) -> None:
    if visible in "\u3164\u2800\u115f\u1160\uffa0\u17b4\u17b5":
        return  # the fillers that Unicode files as letters or symbols
    assert not is_blank(before + visible + after)


@given(st.text(), st.integers(min_value=1, max_value=50))
def test_a_clipped_quote_is_never_longer_than_its_limit(text: str, limit: int) -> None:
    quoted = clipped(text, limit)
    assert len(quoted) <= limit
    assert quoted == text or quoted.endswith("…")


def test_metadata_at_the_depth_bound_passes_and_one_deeper_is_refused() -> None:
    check_metadata(nested(3), POLICY)
    with pytest.raises(InvalidMemory, match="deeper than 3"):
        check_metadata(nested(4), POLICY)
    with pytest.raises(InvalidMemory, match="deeper than 3"):
        check_metadata({"a": [[[1]]]}, POLICY)


def test_metadata_keys_are_counted_at_every_level() -> None:
    check_metadata({"a": 1, "b": {"c": 1, "d": 2}, "e": 3}, POLICY)
    with pytest.raises(InvalidMemory, match="more than 5 keys"):
        check_metadata({"a": 1, "b": {"c": 1, "d": 2}, "e": 3, "f": 4}, POLICY)


def test_metadata_over_the_byte_bound_is_refused() -> None:
    check_metadata({"k": "x" * 50}, POLICY)
    with pytest.raises(InvalidMemory, match="bytes as JSON"):
        check_metadata({"k": "x" * 60}, POLICY)


@pytest.mark.parametrize(
    "metadata",
    [{"k\x00": 1}, {"k": "v\x00"}, {"k": ["a", {"b": "\x00"}]}, {1: "v"}, {"k": float("nan")}],
)
def test_metadata_with_nul_a_non_string_key_or_non_json_is_refused(
    metadata: dict[Any, Any],
) -> None:
    with pytest.raises(InvalidMemory):
        check_metadata(metadata, POLICY)


def test_nul_in_a_tag_conversation_or_filter_is_refused() -> None:
    for new in (
        NewMemory(content="tea", tags=("a\x00",)),
        NewMemory(content="tea", conversation_id="c\x00"),
        NewMemory(content="t\x00ea"),
        NewMemory(content="\u200b\u200b"),
    ):
        with pytest.raises(InvalidMemory):
            check_new(new, POLICY)
    with pytest.raises(InvalidMemory):
        check_filter(MemoryFilter(tag="\x00"))
    with pytest.raises(InvalidMemory):
        check_identifier("user_id", "al\x00ice")
    with pytest.raises(InvalidMemory):
        check_identifier("user_id", "\u200b")
