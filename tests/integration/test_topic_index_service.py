"""The topic index on the real stack (PostgreSQL, XChaCha20, the ONNX model): tokens are
blind and per owner, the topic views are the same whether the memories hold tokens or were
stored before (read the old way), the backfill fills them, deletion leaves nothing."""

from __future__ import annotations

import os

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.adapters.postgres.facts.topic_index import PostgresTopicIndexAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.facts.topics import TopicNotFound
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.ports.facts.store import FactPorts
from memlane.service.facts.topic_indexing import TopicIndexer
from memlane.service.memory_service import MemoryService

pytestmark = pytest.mark.integration

OWNER = Owner("topic-tenant", "ana")
OTHER = Owner("topic-tenant", "rui")
TOKENS = """
SELECT user_id, id, tags, topic_tokens FROM memories WHERE tenant = $1 ORDER BY created_at, id
"""
FORGET_TOKENS = "UPDATE memories SET topic_tokens = NULL WHERE tenant = $1"


async def views(service: MemoryService, owner: Owner) -> tuple[object, ...]:
    topics = service.topics
    return (await topics.topic(owner, "GARDEN"), await topics.topic(owner, "holiday plans"),
            await topics.listing(owner, 1), await topics.listing(owner))


async def test_topic_tokens_are_blind_per_owner_and_the_views_hold_through_the_backfill(
    fresh_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> None:
    key = os.urandom(32)
    service = build_memory_service(
        postgres_memory_ports(fresh_pool, dimension=embedder.dimension), embedder,
        XChaChaEncryptionAdapter(key), SnowballKeywordAdapter(), MemoryPolicy(),
        facts=FactPorts(PostgresFactAdapter(fresh_pool), HeuristicFactExtractor()),
    )
    await service.remember(OWNER, NewMemory(
        "Should we plant tomatoes in the garden this May?", tags=("Garden",)))
    await service.remember(OWNER, NewMemory(
        "We booked the cabin by the lake for August.", tags=("garden", "Lake"),
        metadata={"conversation_title": "Holiday plans"}))
    await service.remember(OTHER, NewMemory("The garden needs a new fence.", tags=("garden",)))
    before = await views(service, OWNER)

    rows = await fresh_pool.fetch(TOKENS, OWNER.tenant)
    ana = [r for r in rows if r["user_id"] == "ana"]
    rui = [r for r in rows if r["user_id"] == "rui"]
    garden = set(ana[0]["topic_tokens"])
    assert len(garden) == 1 and garden < set(ana[1]["topic_tokens"])  # case-blind
    assert len(ana[1]["topic_tokens"]) == 3  # garden, lake, the chat's title
    assert not garden & set(rui[0]["topic_tokens"])  # another owner's garden is another token
    assert not garden & {t for r in rows for t in r["tags"]}  # no tag token equals it
    assert all(t.isalnum() and "garden" not in t for r in rows for t in r["topic_tokens"])

    await fresh_pool.execute(FORGET_TOKENS, OWNER.tenant)  # as stored before migration 0150
    assert await views(service, OWNER) == before  # read the old way meanwhile
    indexer = TopicIndexer(PostgresTopicIndexAdapter(fresh_pool), XChaChaEncryptionAdapter(key))
    assert await indexer.pending() == 3
    report = await indexer.fill(batch_rows=2)
    assert (report.filled, report.unreadable, report.remaining) == (3, 0, 0)
    assert [r["topic_tokens"] for r in await fresh_pool.fetch(TOKENS, OWNER.tenant)] == [
        r["topic_tokens"] for r in rows]  # the tokens a write would have given
    assert await views(service, OWNER) == before

    await service.delete(OWNER, ana[1]["id"])
    with pytest.raises(TopicNotFound):
        await service.topics.topic(OWNER, "Lake")
    assert (await service.topics.topic(OWNER, "garden")).count == 1
    await service.delete_all(OWNER)
    assert await fresh_pool.fetchval(
        "SELECT count(*) FROM memories WHERE tenant = $1 AND user_id = 'ana'", OWNER.tenant) == 0
    assert (await service.topics.listing(OWNER)) == ([], False)
    assert (await service.topics.topic(OTHER, "Garden")).count == 1
