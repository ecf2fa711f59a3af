"""Two languages in one memory, on the real stack with multilingual-e5-small: a question in
one language finds the memory in the other that answers it before a memory in its own
language about something else, which the model rates higher for its language alone
(docs/recall.md, "Two languages"); with the language stage left out, it does not."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from uuid import uuid4

import asyncpg
import pytest
import pytest_asyncio

from memlane.adapters.embedding.catalog import MULTILINGUAL_E5
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.composition.services import memory_service
from memlane.domain.model import NewMemory, Owner
from memlane.service.memory_service import MemoryService
from memlane.settings import load_settings

pytestmark = pytest.mark.integration

MEMORIES = (
    "I go bouldering at the climbing hall every Tuesday evening.",
    "The quarterly review with my manager is on the 14th.",
    "My landlord wants to renovate the bathroom in spring.",
    "Am Donnerstag singe ich immer im Kirchenchor.",
    "Meine Schwester studiert Medizin in Leipzig.",
    "Ich trinke abends gern einen Kräutertee.",
)
# (question, the memory that answers it)
ASKED = (
    ("Wann gehe ich klettern?", MEMORIES[0]),
    ("Wann ist das Gespräch mit meinem Chef?", MEMORIES[1]),
    ("Was plant mein Vermieter?", MEMORIES[2]),
)


@pytest_asyncio.fixture(scope="module")
async def e5() -> AsyncIterator[OnnxEmbeddingAdapter]:
    adapter = OnnxEmbeddingAdapter(MULTILINGUAL_E5)
    await adapter.warm_up()
    yield adapter
    await adapter.close()


def _service(pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, skip: list[str]) -> MemoryService:
    settings = load_settings(memory={"embedding": {"model": embedder.model},
                                     "recall": {"skip_stages": skip}})
    return memory_service(
        postgres_memory_ports(pool, dimension=embedder.dimension), embedder,
        XChaChaEncryptionAdapter(os.urandom(32)), SnowballKeywordAdapter(),
        settings.memory.policy(),
    )


async def _firsts(pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, skip: list[str]
                  ) -> list[str]:
    service = _service(pool, embedder, skip)
    owner = Owner("default", f"bilingual-{uuid4()}")
    await service.remember_many(owner, [NewMemory(content=text) for text in MEMORIES])
    return [(await service.search(owner, question, limit=3))[0].memory.content
            for question, _ in ASKED]


async def test_a_german_question_finds_the_english_memory_that_answers_it(
    pg_pool: asyncpg.Pool, e5: OnnxEmbeddingAdapter
) -> None:
    assert await _firsts(pg_pool, e5, []) == [answer for _, answer in ASKED]


async def test_without_the_stage_german_memories_about_other_things_come_first(
    pg_pool: asyncpg.Pool, e5: OnnxEmbeddingAdapter
) -> None:
    firsts = await _firsts(pg_pool, e5, ["language"])
    assert any(first in MEMORIES[3:] for first in firsts), firsts
