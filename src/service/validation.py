"""Input rules checked before anything is written: content, importance, tags, metadata."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from memlane.domain.errors import InvalidMemory
from memlane.domain.model import MemoryPatch, NewMemory
from memlane.domain.policy import MAX_TAG_CHARS, MAX_TAGS, MemoryPolicy


def check_content(content: str, policy: MemoryPolicy) -> None:
    if not content or not content.strip():
        raise InvalidMemory("content must not be empty")
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
        if not isinstance(tag, str) or not tag.strip():
            raise InvalidMemory("a tag must be a non-empty string")
        if len(tag) > MAX_TAG_CHARS:
            raise InvalidMemory(f"tag {tag[:20]!r}… is longer than {MAX_TAG_CHARS} characters")
    return unique


def check_metadata(metadata: Mapping[str, Any]) -> None:
    # Metadata is stored as JSON in clear text: it must survive a JSON round trip.
    try:
        json.dumps(dict(metadata), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidMemory(f"metadata must be plain JSON: {error}") from error


def check_new(new: NewMemory, policy: MemoryPolicy) -> NewMemory:
    """The validated input, tags de-duplicated; raises InvalidMemory and changes nothing."""
    check_content(new.content, policy)
    check_importance(new.importance)
    check_metadata(new.metadata)
    tags = clean_tags(new.tags)
    if new.created_at is not None and new.created_at.tzinfo is None:
        raise InvalidMemory("created_at must carry a time zone")
    return new if tags == tuple(new.tags) else replace(new, tags=tags)


def check_patch(patch: MemoryPatch, policy: MemoryPolicy) -> MemoryPatch:
    """The validated patch, tags de-duplicated."""
    if patch.content is not None:
        check_content(patch.content, policy)
    check_importance(patch.importance)
    if patch.metadata is not None:
        check_metadata(patch.metadata)
    if patch.tags is None:
        return patch
    tags = clean_tags(patch.tags)
    return patch if tags == tuple(patch.tags) else replace(patch, tags=tags)

