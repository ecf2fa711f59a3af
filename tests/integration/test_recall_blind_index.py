"""Recall with encryption on: the blind keyword index finds rare words and stores no plaintext."""

from __future__ import annotations

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.noop import NoopEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.service.memory_service import MemoryService

pytestmark = pytest.mark.integration

RARE = "xylophonist"
DIARY = [
    "I walked the dog along the river this morning.",
    "We had pasta with friends on Saturday evening.",
    f"My cousin Theodora is a professional {RARE} in Vienna.",
    "The garden needs watering twice a week in summer.",
    "Work has been busy with the quarterly planning.",
]


async def test_keyword_search_finds_an_exact_rare_word_with_encryption_on(
    service: MemoryService, owner: Owner
) -> None:
    await service.remember_many(owner, [NewMemory(text) for text in DIARY])
    hits = await service.search(owner, f"who plays the {RARE}?", limit=1)
    assert hits and RARE in hits[0].memory.content


async def test_the_table_holds_no_plaintext_token_of_content_or_speaker(
    service: MemoryService, owner: Owner, pg_pool: asyncpg.Pool
) -> None:
    items = [NewMemory(text, metadata={"speaker": "Theodora"}) for text in DIARY]
    await service.remember_many(owner, items)
    rows = await pg_pool.fetch(
        "SELECT content, summary, keywords::text AS keywords FROM memories"
        " WHERE tenant = $1 AND user_id = $2",
        owner.tenant,
        owner.user_id,
    )
    assert len(rows) == len(DIARY)
    words = {"xylophon", RARE, "theodora", "vienna", "cousin", "garden", "pasta", "river"}
    for row in rows:
        stored = (bytes(row["content"]) + bytes(row["summary"])).lower()
        assert not any(word.encode() in stored for word in words)
        assert not any(word in row["keywords"].lower() for word in words)
        assert row["keywords"]  # the index is there, just blinded


async def test_with_encryption_off_the_index_is_a_plain_tsvector_of_stems(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, owner: Owner
) -> None:
    plain = build_memory_service(
        postgres_memory_ports(pg_pool, dimension=embedder.dimension),
        embedder,
        NoopEncryptionAdapter(),
        SnowballKeywordAdapter(),
        MemoryPolicy(),
    )
    await plain.remember_many(owner, [NewMemory(DIARY[2])])
    keywords = await pg_pool.fetchval(
        "SELECT keywords::text FROM memories WHERE tenant = $1 AND user_id = $2",
        owner.tenant,
        owner.user_id,
    )
    assert "'theodora'" in keywords and "'xylophonist'" in keywords and "'cousin'" in keywords
    hits = await plain.search(owner, f"{RARE}s", limit=1)
    assert hits and RARE in hits[0].memory.content
