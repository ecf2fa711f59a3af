"""Topics read through the topic token index answer exactly what the full pass over every
memory answered: the same memories, labels, counts, order, facts and open questions, for
case variants, tags and chat titles, edits, deletions, other owners, and memories stored
before tokens were kept (read the old way until the backfill fills them)."""

from __future__ import annotations

import asyncio
import copy
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from memlane.domain.facts.topics import TopicNotFound, summarise, topics_of
from memlane.domain.model import MemoryPatch, NewMemory, Owner, StoredMemory
from memlane.service.facts.topic_indexing import TopicIndexer
from memlane.service.facts.topics import TopicService
from tests.fakes.clock import START
from tests.fakes.memory_table import FakeMemoryTable
from tests.fakes.topic_index import FakeTopicIndex
from tests.fakes.topics import FakeTopics
from tests.fakes.world import FakeWorld, new_owner

NAMES = ["Garden", "garden", " GARDEN ", "Boat trip", "boat  trip", "Taxes", "Holiday plans"]
TITLES = [None, None, "Garden", "Holiday plans", "holiday PLANS"]
TEXTS = [
    "Should we plant tomatoes in May?", "We planted the tomatoes in May.",
    "I need to file my taxes by Friday.", "Where is the boat trip going?",
    "The boat trip goes to Lisbon in June.", "Remind me to water the garden.",
]


class FullPass(FakeTopics):
    """The store as the full pass saw it: every row without tokens, so all are opened."""

    def _newest_first(self, owner: Owner) -> list[StoredMemory]:
        return [replace(r, topic_tokens=None) for r in super()._newest_first(owner)]


def table_of(world: FakeWorld) -> FakeMemoryTable:
    assert isinstance(world.memories.topics, FakeTopics)
    return world.memories.topics._table


def full_pass_service(world: FakeWorld) -> TopicService:
    reference = copy.copy(world.service.topics)
    reference._topics = FullPass(table_of(world))
    return reference


def full_pass_listing(world: FakeWorld, owner: Owner, limit: int) -> tuple[list[Any], bool]:
    """What `listing` answered before the index: every memory opened, newest first (then
    by id, descending), `summarise`d."""
    sealer = world.service.topics._sealer
    pairs = []
    rows = table_of(world)._rows.get(owner, {}).values()
    for row in sorted(rows, key=lambda r: (r.created_at, r.id), reverse=True):
        attributes = sealer.readable_attributes(row)
        if attributes is not None:
            pairs.append((topics_of(attributes.tags, attributes.metadata), row.created_at))
    found = summarise(pairs)
    return found[:limit], len(found) > limit


async def view_or_missing(service: TopicService, owner: Owner, name: str) -> Any:
    try:
        return await service.topic(owner, name)
    except TopicNotFound:
        return "not found"


async def assert_same_answers(world: FakeWorld, owner: Owner) -> None:
    indexed, full = world.service.topics, full_pass_service(world)
    for name in [*NAMES, "nothing here", "   "]:
        assert await view_or_missing(indexed, owner, name) == await view_or_missing(
            full, owner, name), name
    for limit in (1, 2, 3, 100):
        assert await indexed.listing(owner, limit) == full_pass_listing(world, owner, limit)


writes = st.lists(
    st.tuples(
        st.sampled_from(["remember", "remember", "retag", "delete", "theirs"]),
        st.lists(st.sampled_from(NAMES), max_size=3),
        st.sampled_from(TITLES),
        st.sampled_from(TEXTS),
        st.integers(0, 6),  # minutes after START: equal times make ties
        st.integers(0, 20),  # which earlier memory an edit or deletion picks
    ),
    min_size=1, max_size=12,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(writes=writes, legacy=st.lists(st.booleans(), min_size=12, max_size=12))
def test_the_indexed_topics_answer_what_the_full_pass_answered(
    writes: list[tuple[str, list[str], str | None, str, int, int]], legacy: list[bool]
) -> None:
    async def scenario() -> None:
        world, owner = FakeWorld(), new_owner()
        theirs = Owner(owner.tenant, owner.user_id + "-other")
        ids = []
        for op, tags, title, text, minute, pick in writes:
            metadata = {} if title is None else {"conversation_title": title}
            at = START + timedelta(minutes=minute)
            if op == "retag" and ids:
                await world.service.update(owner, ids[pick % len(ids)], MemoryPatch(
                    tags=tuple(tags), metadata=metadata))
            elif op == "delete" and ids:
                await world.service.delete(owner, ids.pop(pick % len(ids)))
            else:
                who = theirs if op == "theirs" else owner
                written = await world.service.remember(who, NewMemory(
                    content=f"{text} ({len(ids)})", tags=tuple(tags), metadata=metadata,
                    created_at=at))
                if who == owner and written.memory.id not in ids:
                    ids.append(written.memory.id)
        rows = table_of(world)._rows[owner]
        for memory_id, old in zip(list(rows), legacy, strict=False):
            if old:  # stored before tokens were kept
                rows[memory_id] = replace(rows[memory_id], topic_tokens=None)
        await assert_same_answers(world, owner)
        indexer = TopicIndexer(FakeTopicIndex(table_of(world)), world.encryption)
        report = await indexer.fill(batch_rows=2)
        assert (report.remaining, await indexer.pending()) == (0, 0)
        assert all(r.topic_tokens is not None for r in rows.values())
        await assert_same_answers(world, owner)  # and once the backfill has filled them

    asyncio.run(scenario())


async def test_a_topic_is_read_only_through_its_token_once_every_memory_has_tokens() -> None:
    world, owner = FakeWorld(), new_owner()
    for minute, tags in enumerate((("Garden",), ("Taxes",), ("GARDEN", "Taxes"))):
        await world.service.remember(owner, NewMemory(
            content=f"About {tags}", tags=tags, created_at=START + timedelta(minutes=minute)))
    seen: list[int] = []
    topics = world.service.topics
    carrying = topics._topics.carrying

    async def counted(who: Owner, token: str) -> list[StoredMemory]:
        found = await carrying(who, token)
        seen.append(len(found))
        return found

    topics._topics.carrying = counted  # type: ignore[method-assign]
    view = await topics.topic(owner, "garden")
    assert (view.topic, view.count, seen) == ("GARDEN", 2, [2])  # the Taxes memory unread
    other = Owner(owner.tenant, owner.user_id + "-other")
    with pytest.raises(TopicNotFound):  # another owner's garden is not theirs
        await topics.topic(other, "garden")


async def test_the_list_names_a_topic_from_its_readable_memories_when_the_newest_is_damaged(
) -> None:
    world, owner = FakeWorld(), new_owner()
    for minute, tag in enumerate(("garden", "Garden", "GARDEN")):
        await world.service.remember(owner, NewMemory(
            content=f"Garden note {minute}", tags=(tag,),
            created_at=START + timedelta(minutes=minute)))
    rows = table_of(world)._rows[owner]
    newest = max(rows.values(), key=lambda r: r.created_at)
    rows[newest.id] = replace(newest, attributes=b"damaged")
    [summary], truncated = await world.service.topics.listing(owner)
    assert (summary.topic, summary.count, truncated) == ("Garden", 2, False)
    assert summary.last_activity == START + timedelta(minutes=1)
    assert ([summary], False) == full_pass_listing(world, owner, 100)


async def test_the_backfill_leaves_a_memory_whose_attributes_do_not_open_without_tokens() -> None:
    world, owner = FakeWorld(), new_owner()
    for tag in ("Garden", "Taxes", "Lake"):
        await world.service.remember(owner, NewMemory(content=f"A note on {tag}", tags=(tag,)))
    rows = table_of(world)._rows[owner]
    damaged, *fine = list(rows)
    rows[damaged] = replace(rows[damaged], attributes=b"damaged", topic_tokens=None)
    written = {memory_id: rows[memory_id].topic_tokens for memory_id in fine}
    for memory_id in fine:
        rows[memory_id] = replace(rows[memory_id], topic_tokens=None)
    indexer = TopicIndexer(FakeTopicIndex(table_of(world)), world.encryption)
    assert await indexer.pending() == 3

    progress: list[int] = []
    report = await indexer.fill(batch_rows=1, progress=progress.append)
    assert (report.filled, report.unreadable, report.remaining) == (2, 1, 1)
    assert progress[-1] == 2
    assert {memory_id: rows[memory_id].topic_tokens for memory_id in fine} == written
    assert rows[damaged].topic_tokens is None
    with pytest.raises(ValueError, match="batch_rows"):
        await indexer.fill(batch_rows=0)
