"""How a new memory folds into a near-duplicate: content, importance, type, tags, metadata."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from memlane.domain.memories import build_tiers, importance_at, raw_importance, summarize
from memlane.domain.model import Heat, Memory
from memlane.domain.policy import MAX_TAGS

ADDITIONAL_CONTEXT = "\n\nAdditional context: "
SOURCES_KEY = "sources"


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


_WORD = re.compile(r"\w+")


def _words(text: str) -> str:
    """The text's words, case-folded, between spaces: "I live in Lisbon." and "i live in
    lisbon" read the same, and containment is checked on whole words only."""
    return "".join(f" {word} " for word in _WORD.findall(text.casefold()))


def merged_content(existing: str, new: str) -> str:
    """The content after folding `new` into `existing`: unchanged when `new` says nothing
    more (the same words, whatever the case, spacing or punctuation, or fewer of them),
    `new` itself when it says everything `existing` did and more, else both."""
    old_words, new_words = _words(existing), _words(new)
    if new_words in old_words:  # the empty string too: punctuation alone adds nothing
        return existing
    if old_words and old_words in new_words:
        return new
    return existing + ADDITIONAL_CONTEXT + new


def merge_metadata(existing: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """Existing keys win, new keys fill gaps, and the `sources` lists are united (no refs lost)."""
    merged = {**new, **existing}
    sources: dict[str, Any] = {}
    for source in _as_list(existing.get(SOURCES_KEY)) + _as_list(new.get(SOURCES_KEY)):
        sources.setdefault(json.dumps(source, sort_keys=True), source)
    if sources:
        merged[SOURCES_KEY] = list(sources.values())
    return merged


def merge(existing: Memory, new: Memory, now: datetime, base_rate: float) -> Memory:
    """`existing` with `new` appended; the caller re-embeds and reseals the result.

    Importance: the higher of the existing memory's decayed base and the new base, and the
    decay clock restarts (the user just said it again); access count is kept. Type: the one
    injected first (a correction merged into a fact stays a correction).
    """
    content = merged_content(existing.content, new.content)
    memory_type = min(existing.memory_type, new.memory_type, key=lambda t: t.priority)
    decayed = raw_importance(existing.heat, existing.memory_type, now, base_rate)
    heat = Heat(
        base_importance=max(decayed, new.heat.base_importance),
        access_count=existing.heat.access_count,
        accessed_at=max(now, existing.heat.accessed_at),
    )
    # Tags beyond the limit are dropped rather than failing a write the user cannot fix.
    tags = tuple(dict.fromkeys(existing.tags + new.tags))[:MAX_TAGS]
    return replace(
        existing,
        memory_type=memory_type,
        content=content,
        summary=summarize(content),
        tiers=build_tiers(content),
        importance=importance_at(heat, memory_type, now, base_rate),
        heat=heat,
        updated_at=now,
        conversation_id=existing.conversation_id or new.conversation_id,
        tags=tags,
        metadata=merge_metadata(existing.metadata, new.metadata),
        pinned=existing.pinned or new.pinned,
    )
