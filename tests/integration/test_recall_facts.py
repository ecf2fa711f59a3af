"""Facts joining retrieval on the real stack (PostgreSQL, ONNX, XChaCha20): a question that
names a relation reaches the memory its fact came from, though cosine alone misses it."""

from __future__ import annotations

import os

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.facts.prompt_block import KEPT_HEADER, TOLD_HEADER
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.domain.retrieval.context import ContextOptions
from memlane.ports.facts.store import FactPorts
from memlane.service.memory_service import MemoryService
from tests.integration.conftest import build_service

pytestmark = pytest.mark.integration

JOB = "I work as a nurse at Santa Maria hospital"
# Memories that share the question's words ("job") and beat the answer on words and cosine.
JOB_TALK = [
    "My brother's job interview at the bank went well",
    "The job posting for the designer role closes on Friday",
    "Cleaning the garage was quite a job this weekend",
    "Tom asked what my dream job would be as a child",
    "Job boards are full of remote positions lately",
]
OTHERS = [
    *JOB_TALK,
    "Our cat Mochi hates the vacuum cleaner",
    "The team offsite is planned for the second week of May",
    "Remind me to water the tomatoes every evening",
    "Ich habe am 14. März Geburtstag",
    "We watched a documentary about deep sea creatures",
    "I moved to Porto last spring",
    "The printer on the third floor jams constantly",
]


def with_facts(pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter) -> MemoryService:
    return build_memory_service(
        postgres_memory_ports(pool, dimension=embedder.dimension),
        embedder,
        XChaChaEncryptionAdapter(os.urandom(32)),
        SnowballKeywordAdapter(),
        MemoryPolicy(),
        facts=FactPorts(PostgresFactAdapter(pool), HeuristicFactExtractor()),
    )


async def store(service: MemoryService, owner: Owner) -> dict[str, str]:
    results = await service.remember_many(owner, [NewMemory(content=t) for t in [JOB, *OTHERS]])
    return {r.memory.content: str(r.memory.id) for r in results}


async def test_what_is_my_job_misses_without_facts_and_reaches_the_memory_with_them(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, owner: Owner
) -> None:
    plain = build_service(pg_pool, embedder, os.urandom(32))
    blind = Owner(owner.tenant, owner.user_id + "-plain")
    await store(plain, blind)
    missed = await plain.retrieve_context(blind, "What is my job?", 3)
    assert JOB not in [m.content for m in missed]  # the job talk wins on words and cosine

    service = with_facts(pg_pool, embedder)
    await store(service, owner)
    found = await service.retrieve_context(owner, "What is my job?", 3)
    assert JOB in [m.content for m in found]
    hits = await service.search(owner, "What is my job?", limit=3)
    assert JOB in [h.memory.content for h in hits]
    prompt = await service.prompt_context(owner, "What is my job?")
    assert "- [identity] works as: nurse" in prompt.text
    # Five identity facts, three core: the job and the birthday say 0.9; home, workplace and
    # pet 0.85, written together, so home ranks before the workplace by what it says. The
    # workplace is not a profile line, so the memory line says it.
    assert "- [identity] works at: Santa Maria hospital" not in prompt.text
    assert JOB in prompt.text


@pytest.mark.parametrize(("question", "answer"), [
    ("Where do I work?", JOB),
    ("where do I live", "I moved to Porto last spring"),
    ("Wann habe ich Geburtstag?", "Ich habe am 14. März Geburtstag"),
])
async def test_relation_questions_reach_their_facts_source(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, owner: Owner,
    question: str, answer: str,
) -> None:
    service = with_facts(pg_pool, embedder)
    await store(service, owner)
    found = await service.retrieve_context(owner, question, 5)
    assert answer in [m.content for m in found]


async def test_the_prompt_block_opens_with_the_core_profile_unless_turned_off(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, owner: Owner
) -> None:
    service = with_facts(pg_pool, embedder)
    await store(service, owner)
    prompt = await service.prompt_context(owner, "Any plans for the garden?")
    lines = prompt.text.splitlines()
    assert lines[0] == TOLD_HEADER and KEPT_HEADER not in lines  # memlane read them all
    assert "- [identity] works as: nurse" in lines
    assert len(prompt.text) <= service.policy.context_char_budget
    bare = await service.prompt_context(
        owner, "Any plans for the garden?", options=ContextOptions(include_profile=False)
    )
    assert TOLD_HEADER not in bare.text
