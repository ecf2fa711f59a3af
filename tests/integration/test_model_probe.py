"""The optional model probe on the real stack (PostgreSQL, ONNX, XChaCha20) against a stub of
Ollama's POST /api/chat: a fired segment's patch is stored through the graph, entity and fact
paths after the write; a bad answer, a timeout or a server that is down leave the
heuristics' result, counted by reason; a silent segment asks nothing."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import AsyncIterator
from uuid import uuid4

import asyncpg
import pytest
import pytest_asyncio

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.facts.ollama_probe import OllamaProbe
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.entities import PostgresEntityAdapter
from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.api.metrics import ApiMetrics
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.facts import Fact, FactFilter
from memlane.domain.graph import EdgeKind
from memlane.domain.memories import GATE_KEY, Message, Role
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.ports.facts.store import FactPorts
from memlane.service.memories import Prober
from memlane.service.memory_service import MemoryService
from tests.stubs.ollama_chat import StubOllamaChat, content, free_port_url, patch, stall

pytestmark = pytest.mark.integration

SISTER = "I live in Porto. My sister Anna lives there too."
MOVED = "Anna helped me carry the boxes into my new flat, Bruno lent us his van."


@pytest_asyncio.fixture
async def stack(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> AsyncIterator[dict[str, object]]:
    """Builds a service whose probe asks `url`; closes every probe it made."""
    made: list[OllamaProbe] = []

    def build(url: str, timeout_ms: int = 3_000) -> MemoryService:
        probe = OllamaProbe("llama3.2", url, timeout_ms)
        made.append(probe)
        return build_memory_service(
            postgres_memory_ports(pg_pool, dimension=embedder.dimension), embedder,
            XChaChaEncryptionAdapter(os.urandom(32)), SnowballKeywordAdapter(), MemoryPolicy(),
            graph=PostgresGraphAdapter(pg_pool), entities=PostgresEntityAdapter(pg_pool),
            facts=FactPorts(PostgresFactAdapter(pg_pool), HeuristicFactExtractor()),
            probe=probe,
        )
    yield {"build": build}
    for probe in made:
        await probe.close()


def prober_of(service: MemoryService) -> Prober:
    assert service.probing is not None
    return service.probing


async def lives_in(
    service: MemoryService, owner: Owner, filters: FactFilter | None = None
) -> list[Fact]:
    page = await service.facts.list(owner, filters)
    return [f for f in page.items if f.relation == "lives_in"]


def new_owner() -> Owner:
    return Owner("probe", f"user-{uuid4()}")


async def test_a_valid_patch_is_stored_through_the_graph_entity_and_fact_paths(
    stack: dict[str, object], ollama_chat: StubOllamaChat
) -> None:
    service = stack["build"](ollama_chat.url)  # type: ignore[operator]
    owner = new_owner()
    first = await service.remember(owner, NewMemory(content=SISTER))
    await prober_of(service).drain()  # the first memory's own probe: an empty patch
    ollama_chat.script = [patch(
        nodes=[{"name": "Bruno", "kind": "person"}, {"name": "Zoe", "kind": "person"}],
        edges=[{"to": "Anna", "kind": "causal", "change": "add", "strength": 0.7}],
        facts=[{"relation": "lives_in", "object": "Lisbon"}],
    )]
    added = await service.add_messages(owner, "moving", [
        Message(Role.USER, MOVED), Message(Role.ASSISTANT, "That was kind of them."),
    ])
    await prober_of(service).drain()
    segment = added.memories[0]
    assert segment.metadata[GATE_KEY]["fired"] is True
    asked = ollama_chat.chats()[-1]
    assert asked["format"]["required"] == ["nodes", "edges", "facts"]
    assert "Anna" in asked["messages"][-1]["content"]  # a known name, given as context
    view = await service.neighbourhood(owner, segment.id, 1)
    causal = [e for e in view.edges if e.kind is EdgeKind.CAUSAL and e.source == segment.id]
    assert [(e.target, round(e.weight, 2)) for e in causal] == [(first.memory.id, 0.7)]
    # Bruno is said in the segment; Zoe is not, so the model's guess is left out.
    labels = {e.label for e in view.entities}
    assert "Bruno" in labels and "Zoe" not in labels
    homes = await lives_in(service, owner)
    assert [f.object for f in homes] == ["Lisbon"]  # Porto ended: one truth per relation
    ended = await lives_in(service, owner, FactFilter(current=False))
    assert [f.object for f in ended] == ["Porto"] and ended[0].valid_until is not None
    assert prober_of(service).counts.applied == 1


async def test_edges_already_there_are_strengthened_and_weakened(
    stack: dict[str, object], ollama_chat: StubOllamaChat
) -> None:
    service = stack["build"](ollama_chat.url, timeout_ms=30_000)  # type: ignore[operator]
    owner = new_owner()
    first = await service.remember(owner, NewMemory(content=SISTER))
    await prober_of(service).drain()
    released = asyncio.Event()
    ollama_chat.script = [stall(released, patch(edges=[
        {"to": "Anna", "kind": "narrative", "change": "strengthen", "strength": 0.9},
        {"to": "Anna", "kind": "causal", "change": "weaken", "strength": 0.3},
        {"to": "Anna", "kind": "temporal", "change": "weaken", "strength": 0.0},
    ]))]
    try:
        second = await service.remember(
            owner, NewMemory(content="Anna and I walked along the river at dusk."))
        # Edges stated while the model thinks: the patch changes them when it answers.
        for kind, weight in (("narrative", 0.5), ("causal", 0.8), ("temporal", 0.6)):
            await service.connect(owner, second.memory.id, first.memory.id, EdgeKind(kind),
                                  weight)
    finally:
        released.set()
    await prober_of(service).drain()
    view = await service.neighbourhood(owner, second.memory.id, 1)
    weights = {e.kind.value: round(e.weight, 2) for e in view.edges
               if (e.source, e.target) == (second.memory.id, first.memory.id)}
    assert {k: w for k, w in weights.items() if k in ("narrative", "causal", "temporal")} == {
        "narrative": 0.9, "causal": 0.3}  # temporal weakened to 0: gone


@pytest.mark.parametrize("answer", [
    content("this is not json"),
    patch(edges=[{"to": "Anna", "kind": "supersedes", "change": "add", "strength": 0.9}]),
    patch(edges=[{"to": "Anna", "kind": "causal", "change": "add", "strength": 1.5}]),
    content(json.dumps({"nodes": [], "edges": [], "facts": [], "mood": "happy"})),
])
async def test_an_invalid_answer_leaves_the_heuristics_result_and_is_counted(
    stack: dict[str, object], ollama_chat: StubOllamaChat, answer: object,
    caplog: pytest.LogCaptureFixture,
) -> None:
    service = stack["build"](ollama_chat.url)  # type: ignore[operator]
    metrics = ApiMetrics()
    metrics.watch_probe(service.probing)
    owner = new_owner()
    ollama_chat.script = [answer]  # type: ignore[list-item]
    with caplog.at_level(logging.WARNING):
        result = await service.remember(owner, NewMemory(content=SISTER))
        await prober_of(service).drain()
    assert (await service.get(owner, result.memory.id)).content == SISTER
    assert [f.object for f in await lives_in(service, owner)] == ["Porto"]
    assert dict(prober_of(service).counts.fallbacks) == {"invalid": 1}
    text = metrics.exposition().decode()
    assert 'memlane_probe_fallbacks_total{reason="invalid"} 1.0' in text
    assert "memlane_probe_seconds_count 1.0" in text
    assert "invalid" in caplog.text and "Porto" not in caplog.text and "Anna" not in caplog.text


async def test_a_model_slower_than_the_timeout_is_given_up_and_the_write_stands(
    stack: dict[str, object], ollama_chat: StubOllamaChat
) -> None:
    service = stack["build"](ollama_chat.url, timeout_ms=300)  # type: ignore[operator]
    released = asyncio.Event()
    ollama_chat.script = [stall(released)]
    owner = new_owner()
    try:
        result = await service.remember(owner, NewMemory(content=SISTER))
        # The write has returned and reads back while the model still holds its answer.
        assert (await service.get(owner, result.memory.id)).content == SISTER
        await prober_of(service).drain()  # ends at the timeout: the stub never answered
        assert not released.is_set()
    finally:
        released.set()
    assert dict(prober_of(service).counts.fallbacks) == {"timeout": 1}
    assert [f.object for f in await lives_in(service, owner)] == ["Porto"]


async def test_a_server_that_is_down_leaves_the_heuristics_result(
    stack: dict[str, object],
) -> None:
    service = stack["build"](free_port_url())  # type: ignore[operator]
    owner = new_owner()
    result = await service.remember(owner, NewMemory(content=SISTER))
    await prober_of(service).drain()
    assert (await service.get(owner, result.memory.id)).content == SISTER
    assert dict(prober_of(service).counts.fallbacks) == {"unreachable": 1}
    view = await service.neighbourhood(owner, result.memory.id, 1)
    assert "Anna" in {e.label for e in view.entities}  # the heuristics' entity stands


async def test_a_segment_the_gate_does_not_fire_on_asks_the_model_nothing(
    stack: dict[str, object], ollama_chat: StubOllamaChat
) -> None:
    service = stack["build"](ollama_chat.url)  # type: ignore[operator]
    owner = new_owner()
    opened = await service.add_messages(owner, "chat", [
        Message(Role.USER, "Hello there, how are you today?"),
        Message(Role.ASSISTANT, "Fine, thanks."),
    ])
    quiet = await service.add_messages(owner, "chat", [
        Message(Role.USER, "Yes, that sounds fine to me."),
        Message(Role.ASSISTANT, "Good."),
    ])
    await prober_of(service).drain()
    assert opened.memories[0].metadata[GATE_KEY]["fired"] is True
    assert quiet.memories[0].metadata[GATE_KEY]["fired"] is False
    assert [c["messages"][-1]["content"].endswith("Fine, thanks.") for c in ollama_chat.chats()] \
        == [True]
    assert prober_of(service).counts.calls == 1
