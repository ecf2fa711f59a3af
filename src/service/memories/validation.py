"""Input rules checked before anything is written or looked up: content, importance, tags,
metadata, conversation ids, users and filters. Breaking one raises InvalidMemory (a 422)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from memlane.domain.errors import InvalidMemory
from memlane.domain.memories import L2_MAX_CHARS
from memlane.domain.model import MemoryFilter, MemoryPatch, NewMemory
from memlane.domain.policy import MAX_TAG_CHARS, MAX_TAGS, MemoryPolicy
from memlane.domain.retrieval import ContextOptions
from memlane.domain.text_rules import has_nul, is_blank

MAX_IDENTIFIER_CHARS = 200


def check_text(name: str, value: str) -> None:
    """A text stored or compared as PostgreSQL text: NUL cannot be stored, so it is refused."""
    if not isinstance(value, str):
        raise InvalidMemory(f"{name} must be a string")
    if has_nul(value):
        raise InvalidMemory(f"{name} must not contain NUL characters")


def check_identifier(name: str, value: str | None) -> None:
    """A user or conversation id: visible text without NUL, at most 200 characters."""
    if value is None:
        return
    check_text(name, value)
    if is_blank(value):
        raise InvalidMemory(f"{name} must not be blank")
    if len(value) > MAX_IDENTIFIER_CHARS:
        raise InvalidMemory(f"{name} is longer than {MAX_IDENTIFIER_CHARS} characters")


def check_content(content: str, policy: MemoryPolicy) -> None:
    check_text("content", content)
    if is_blank(content):
        # Zero-width spaces, joiners, BOMs and fillers alone are as empty as no text.
        raise InvalidMemory("content must not be empty or invisible")
    size_bytes = len(content.encode("utf-8"))
    if size_bytes > policy.max_content_bytes:
        raise InvalidMemory(
            f"content is {size_bytes} bytes; at most {policy.max_content_bytes} are allowed"
        )


def check_importance(importance: float | None) -> None:
    if importance is None:
        return
    if isinstance(importance, bool) or not isinstance(importance, int | float):
        raise InvalidMemory("importance must be a number")
    if math.isnan(importance) or not 0.0 <= importance <= 1.0:
        raise InvalidMemory(f"importance must be within [0, 1], got {importance}")


def clean_tags(tags: Sequence[str]) -> tuple[str, ...]:
    """The tags without duplicates (first occurrence kept); raises on too many or too long."""
    if isinstance(tags, str):
        raise InvalidMemory("tags must be a list of strings, not one string")
    unique = tuple(dict.fromkeys(tags))
    if len(unique) > MAX_TAGS:
        raise InvalidMemory(f"{len(unique)} tags given; at most {MAX_TAGS} are allowed")
    for tag in unique:
        if not isinstance(tag, str) or is_blank(tag):
            raise InvalidMemory("a tag must be a non-empty string")
        check_text("a tag", tag)
        if len(tag) > MAX_TAG_CHARS:
            raise InvalidMemory(f"tag {tag[:20]!r}… is longer than {MAX_TAG_CHARS} characters")
    return unique


def check_metadata(metadata: Mapping[str, Any], policy: MemoryPolicy) -> None:
    """Plain JSON within the policy's depth, key and byte bounds, without NUL anywhere.

    Walked with an explicit stack, not recursion: metadata nested 1,000 deep is refused
    by its depth, never by a RecursionError."""
    if not isinstance(metadata, Mapping):
        raise InvalidMemory("metadata must be a JSON object")
    keys = 0
    stack: list[tuple[object, int]] = [(metadata, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, Mapping | list | tuple) and depth > policy.max_metadata_depth:
            raise InvalidMemory(
                f"metadata is nested deeper than {policy.max_metadata_depth} levels"
            )
        if isinstance(value, Mapping):
            keys += len(value)
            if keys > policy.max_metadata_keys:
                raise InvalidMemory(f"metadata has more than {policy.max_metadata_keys} keys")
            for key, item in value.items():
                if not isinstance(key, str):
                    raise InvalidMemory("metadata keys must be strings")
                check_text("a metadata key", key)
                stack.append((item, depth + 1))
        elif isinstance(value, list | tuple):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            check_text("a metadata value", value)
    # Metadata is stored as JSON: it must survive a JSON round trip, within its byte bound.
    try:
        size_bytes = len(json.dumps(dict(metadata), allow_nan=False, separators=(",", ":")))
    except (TypeError, ValueError) as error:
        raise InvalidMemory(f"metadata must be plain JSON: {type(error).__name__}") from error
    if size_bytes > policy.max_metadata_bytes:
        raise InvalidMemory(
            f"metadata is {size_bytes} bytes as JSON; at most {policy.max_metadata_bytes} "
            "are allowed"
        )


def check_filter(filters: MemoryFilter) -> None:
    """List filters are compared as text in SQL: no NUL."""
    if filters.tag is not None:
        check_text("tag", filters.tag)
    check_identifier("conversation_id", filters.conversation_id)


def check_options(options: ContextOptions) -> None:
    """The context's conversation and active texts: no NUL."""
    check_identifier("conversation_id", options.conversation_id)
    for text in options.active_context:
        check_text("active_context", text)


def check_new(new: NewMemory, policy: MemoryPolicy) -> NewMemory:
    """The validated input, tags de-duplicated; raises InvalidMemory and changes nothing."""
    check_content(new.content, policy)
    check_importance(new.importance)
    check_metadata(new.metadata, policy)
    check_identifier("conversation_id", new.conversation_id)
    tags = clean_tags(new.tags)
    if new.created_at is not None and new.created_at.tzinfo is None:
        raise InvalidMemory("created_at must carry a time zone")
    return new if tags == tuple(new.tags) else replace(new, tags=tags)


def check_patch(patch: MemoryPatch, policy: MemoryPolicy) -> MemoryPatch:
    """The validated patch, tags de-duplicated."""
    if patch.content is not None:
        check_content(patch.content, policy)
        if len(patch.content.strip()) > L2_MAX_CHARS:  # a new memory is split; an edit is one
            raise InvalidMemory(
                f"an edit's content is at most {L2_MAX_CHARS} characters (the full-detail "
                "tier); store a longer text as a new memory, which is kept in chained parts"
            )
    check_importance(patch.importance)
    if patch.metadata is not None:
        check_metadata(patch.metadata, policy)
    if patch.tags is None:
        return patch
    tags = clean_tags(patch.tags)
    return patch if tags == tuple(patch.tags) else replace(patch, tags=tags)

