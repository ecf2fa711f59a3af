"""Plain questions answered in every route (issue 29, item 4), on the real stack with each
local model: what a user told through the conversation route (user and assistant messages,
as POST /v1/conversations/{id}/messages stores them) or stored as memories (POST
/v1/memories), asked as a new user would, comes first in a five-memory context, ahead of
the talk that shares the question's words (a brother's job interview, a weather question
about Stockholm, a brother looking for a new Beruf)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from uuid import uuid4

import asyncpg
import pytest
import pytest_asyncio

from memlane.adapters.embedding.catalog import MINILM, MULTILINGUAL_E5, OnnxModel
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.entities.adapter import PostgresEntityAdapter
from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.composition.services import memory_service
from memlane.domain.memories import Message, Role
from memlane.domain.model import NewMemory, Owner
from memlane.ports.facts.store import FactPorts
from memlane.service.memory_service import MemoryService
from memlane.settings import load_settings
from tests.fixtures.plain_questions import QUESTIONS, USERS

pytestmark = pytest.mark.integration

MODELS = {MINILM.name: MINILM, MULTILINGUAL_E5.name: MULTILINGUAL_E5}


@pytest_asyncio.fixture(scope="module", params=list(MODELS))
async def model_embedder(request: pytest.FixtureRequest) -> AsyncIterator[OnnxEmbeddingAdapter]:
    model: OnnxModel = MODELS[request.param]
    adapter = OnnxEmbeddingAdapter(model)
    await adapter.warm_up()
    yield adapter
    await adapter.close()


def configured(pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter) -> MemoryService:
    """The service as a default installation composes it for this model: graph, names and
    facts on, the model's cosine lines."""
    policy = load_settings(memory={"embedding": {"model": embedder.model}}).policy()
    return memory_service(
        postgres_memory_ports(pool, dimension=embedder.dimension),
        embedder,
        XChaChaEncryptionAdapter(os.urandom(32)),
        SnowballKeywordAdapter(),
        policy,
        graph=PostgresGraphAdapter(pool),
        entities=PostgresEntityAdapter(pool),
        facts=FactPorts(PostgresFactAdapter(pool), HeuristicFactExtractor()),
    )


async def told_in_conversations(service: MemoryService, user: str) -> Owner:
    owner = Owner("default", f"conversations-{user}-{uuid4()}")
    for conversation_id, exchanges in USERS[user].items():
        messages = [
            message
            for said, reply in exchanges
            for message in (Message(Role.USER, said), Message(Role.ASSISTANT, reply))
        ]
        await service.add_messages(owner, conversation_id, messages)
    return owner


async def stored_as_memories(service: MemoryService, user: str) -> Owner:
    owner = Owner("default", f"memories-{user}-{uuid4()}")
    said = [NewMemory(content=said) for exchanges in USERS[user].values() for said, _ in exchanges]
    await service.remember_many(owner, said)
    return owner


@pytest.mark.parametrize("route", [told_in_conversations, stored_as_memories],
                         ids=["conversation route", "memory route"])
@pytest.mark.parametrize(("user", "question", "answer"), QUESTIONS,
                         ids=[q for _, q, _ in QUESTIONS])
async def test_a_plain_question_gets_the_memory_that_answers_it_first(
    pg_pool: asyncpg.Pool, model_embedder: OnnxEmbeddingAdapter, route, user: str,
    question: str, answer: str,
) -> None:
    service = configured(pg_pool, model_embedder)
    owner = await route(service, user)
    context = await service.retrieve_context(owner, question, 5)
    assert context, question
    assert answer in context[0].content, [m.content.splitlines()[0] for m in context]
