"""Long input kept whole: a content longer than the detail tier becomes chained parts, each
its own memory, never truncated; their results are grouped back per item written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import pairwise

from memlane.domain.graph import Edge, EdgeKind
from memlane.domain.memories import split_parts
from memlane.domain.model import NewMemory, RememberResult

PART_KEY = "part"  # metadata: {"index": i, "of": n} of a memory that is one part of a text


@dataclass(frozen=True, slots=True)
class Split:
    """The items as written: every part of each, in order, and the item each part is of."""

    parts: list[NewMemory]
    item_of: list[int]

    def said(self, said: Sequence[str | None] | None) -> list[str | None] | None:
        """What the user said, per part: an item's words go with its first part (facts are
        read once)."""
        if said is None:
            return None
        return [
            said[item] if index == 0 or self.item_of[index - 1] != item else None
            for index, item in enumerate(self.item_of)
        ]

    def grouped(self, results: Sequence[RememberResult]) -> list[RememberResult]:
        """One result per item: its first part's, holding the other parts."""
        grouped: list[RememberResult] = []
        for result, item in zip(results, self.item_of, strict=True):
            if item == len(grouped):
                grouped.append(result)
            else:
                first = grouped[item]
                grouped[item] = replace(first, parts=(*first.parts, result.memory))
        return grouped


def split(items: Sequence[NewMemory], max_chars: int) -> Split:
    """Each item whose content is longer than `max_chars` cut into parts (split_parts),
    each marked with its place; shorter items pass unchanged."""
    parts: list[NewMemory] = []
    item_of: list[int] = []
    for item_index, item in enumerate(items):
        texts = split_parts(item.content, max_chars)
        if len(texts) == 1:
            parts.append(item)
            item_of.append(item_index)
            continue
        for index, text in enumerate(texts):
            parts.append(replace(
                item, content=text,
                metadata={**item.metadata, PART_KEY: {"index": index, "of": len(texts)}},
            ))
            item_of.append(item_index)
    return Split(parts, item_of)


def part_chains(results: Sequence[RememberResult], now: datetime) -> list[Edge]:
    """Chain edges both ways between consecutive parts of each item."""
    edges: list[Edge] = []
    for result in results:
        ids = [result.memory.id, *(p.id for p in result.parts)]
        for before, after in pairwise(ids):
            edges.append(Edge(before, after, EdgeKind.CHAIN, 1.0, now, now))
            edges.append(Edge(after, before, EdgeKind.CHAIN, 1.0, now, now))
    return edges
