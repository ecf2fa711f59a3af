"""AsyncMemlaneClient round-trips every REST route through the real app, with memlane's
types coming back."""

from __future__ import annotations

from uuid import uuid4

import pytest
from litestar import Litestar

from memlane.client import (
    AddedMessages,
    Consolidated,
    GraphEdge,
    MemoryPage,
    Neighbourhood,
    Readiness,
)
from memlane.domain.errors import MemoryNotFound
from memlane.domain.graph.edges import EdgeKind
from memlane.domain.memories.segments import Message, Role
from memlane.domain.model import (
    Memory,
    MemoryFilter,
    MemoryStats,
    MemoryType,
    NewMemory,
    PromptContext,
    RememberResult,
    ScoredMemory,
)
from tests.api.conftest import TenantKeys
from tests.client.conftest import remote

pytestmark = pytest.mark.integration

CHAT = [
    Message(Role.USER, "My sister Priya is visiting from Toronto next week"),
    Message(Role.ASSISTANT, "How nice! Will you show her around?"),
    {"role": "user", "content": "Yes, we will hike in the Alps together"},
    {"role": "assistant", "content": "Pack good boots for the hike."},
]


def token_of(headers: dict[str, str]) -> str:
    return headers["Authorization"].removeprefix("Bearer ")


async def test_operations_routes_answer_health_readiness_and_metrics(
    app: Litestar, tenant: TenantKeys
) -> None:
    async with remote(app, token_of(tenant.alice)) as client:
        assert await client.health() is True
        readiness = await client.ready()
        metrics = await client.metrics()
    assert isinstance(readiness, Readiness) and readiness.ready
    assert readiness.checks == {"database": True, "embedder": True}
    assert "memlane_" in metrics


async def test_writes_reads_edits_and_deletes_round_trip_as_domain_types(
    app: Litestar, tenant: TenantKeys
) -> None:
    async with remote(app, token_of(tenant.alice)) as client:
        stored = await client.remember(
            content="I live in Lisbon near the river", memory_type="fact",
            tags=["home"], metadata={"source": "chat"}, conversation_id="c1",
        )
        batch = await client.remember_many(memories=[
            NewMemory("I prefer green tea over coffee", tags=("drinks",)),
            NewMemory("My dentist appointment is on Friday", memory_type=MemoryType.CONTEXT),
        ])
        learned = await client.learn(
            question="What is the name of your dog?", answer="My dog is called Pixel the greyhound",
        )
        skipped = await client.learn(question="Hi", answer="Hello")
        fetched = await client.get(memory_id=stored.id)
        edited = await client.update(memory_id=stored.id, pinned=True, tags=["home", "city"])
        hits = await client.search(query="where do I live?", limit=3)
        page = await client.list(filters=MemoryFilter(tag="home"), limit=10)
        stats = await client.stats()
        await client.delete(memory_id=batch[1].memory.id)
        with pytest.raises(MemoryNotFound) as missing:
            await client.get(memory_id=batch[1].memory.id)
    assert isinstance(stored, Memory) and stored.memory_type is MemoryType.FACT
    assert stored.owner.user_id == "alice" and stored.tags == ("home",)
    assert dict(stored.metadata) == {"source": "chat"} and stored.conversation_id == "c1"
    assert all(isinstance(r, RememberResult) and not r.merged for r in batch)
    assert batch[1].memory.memory_type is MemoryType.CONTEXT
    assert isinstance(learned, RememberResult) and "Pixel" in learned.memory.content
    assert skipped is None
    assert (fetched.id, fetched.content, fetched.heat) == (stored.id, stored.content, stored.heat)
    assert edited.pinned and edited.tags == ("home", "city")
    assert isinstance(hits[0], ScoredMemory) and hits[0].memory.id == stored.id
    assert isinstance(page, MemoryPage) and [m.id for m in page.items] == [stored.id]
    assert isinstance(stats, MemoryStats) and stats.total == 4
    assert missing.value.memory_id == str(batch[1].memory.id)


async def test_listing_pages_through_every_memory_with_the_cursor(
    app: Litestar, tenant: TenantKeys
) -> None:
    texts = [f"Note number {i}: the {word} is on the shelf" for i, word in
             enumerate(["atlas", "banjo", "compass", "drum", "easel"])]
    async with remote(app, token_of(tenant.writer)) as client:
        await client.remember_many(user_id="carol", memories=[NewMemory(t) for t in texts])
        pages = [p async for p in client.pages(user_id="carol", limit=2)]
    assert [len(p.items) for p in pages] == [2, 2, 1]
    assert pages[-1].next_cursor is None
    assert sorted(m.content for p in pages for m in p.items) == sorted(texts)


async def test_context_conversations_and_the_graph_round_trip(
    app: Litestar, tenant: TenantKeys
) -> None:
    async with remote(app, token_of(tenant.alice)) as client:
        added = await client.add_messages(conversation_id="visit", messages=CHAT)
        first, second = (m.id for m in added.memories)
        prompt = await client.prompt_context(None, "Who is visiting me?", 3)
        same = await client.get_context(None, "Who is visiting me?", 3, order="timeline")
        memories = await client.retrieve_context(
            None, "Who is visiting me?", conversation_id="visit", include_current=True,
            active_context=["nothing like it"], include_superseded=True,
        )
        graph = await client.neighbourhood(memory_id=first, depth=2, kinds=[EdgeKind.CHAIN])
        edge = await client.connect(memory_id=first, target=second, kind="causal", weight=0.5)
        await client.disconnect(memory_id=first, target=second, kind=EdgeKind.CAUSAL)
        with pytest.raises(MemoryNotFound):
            await client.disconnect(memory_id=first, target=second, kind="causal")
    assert isinstance(added, AddedMessages) and len(added.memories) == 2
    assert all(isinstance(e, GraphEdge) for e in added.edges)
    assert isinstance(prompt, PromptContext) and "Priya" in prompt.text
    assert [m.id for m in same.memories] and same.text
    assert any("Priya" in m.content for m in memories)
    assert isinstance(graph, Neighbourhood) and {n.id for n in graph.nodes} == {first, second}
    assert {e.kind for e in graph.edges} == {EdgeKind.CHAIN}
    assert (edge.source, edge.target, edge.kind) == (first, second, EdgeKind.CAUSAL)


async def test_consolidating_through_the_client_returns_the_new_memory_and_its_edges(
    app: Litestar, tenant: TenantKeys
) -> None:
    async with remote(app, token_of(tenant.alice)) as client:
        first = await client.remember(content="The dentist is on Tuesday at ten")
        second = await client.remember(content="Bring the insurance card to the dentist")
        done = await client.consolidate(sources=[first.id, second.id], memory_type="fact")
        events = await client.history(memory_id=done.memory.id)
        with pytest.raises(MemoryNotFound):
            await client.consolidate(sources=[first.id, uuid4()])
    assert isinstance(done, Consolidated) and done.sources == (first.id, second.id)
    assert done.memory.memory_type is MemoryType.FACT and not done.sources_deleted
    assert {(e.target, e.kind) for e in done.edges} == {
        (s, k) for s in (first.id, second.id) for k in (EdgeKind.NARRATIVE, EdgeKind.SUPERSEDES)}
    assert [e.kind for e in events if e.subject_id == done.memory.id] == [
        "created", "consolidated"]


async def test_export_maintenance_and_erasure_round_trip(
    app: Litestar, tenant: TenantKeys
) -> None:
    user = f"u-{uuid4().hex[:8]}"
    async with remote(app, token_of(tenant.writer)) as client:
        await client.remember_many(user_id=user, memories=[
            NewMemory("I am allergic to peanuts"), NewMemory("I play the cello on Sundays"),
        ])
        await client.add_messages(user_id=user, conversation_id="visit", messages=CHAT)
        exported = [m async for m in client.export(user_id=user)]
        records = [r async for r in client.export_records(user_id=user)]
        decayed = await client.decay(user_id=user)
        cleaned = await client.cleanup(user_id=user)
        slept = await client.consolidation_cycle(user_id=user)
        erased = await client.delete_all(user_id=user)
        after = await client.stats(user_id=user)
        nothing = [m async for m in client.export(user_id=user)]
    assert len(exported) == 4 and all(isinstance(m, Memory) for m in exported)
    assert {"I am allergic to peanuts", "I play the cello on Sundays"} <= {
        m.content for m in exported}
    assert all(m.owner.user_id == user for m in exported)
    assert [r["id"] for r in records[:4]] == [str(m.id) for m in exported]
    assert {r.get("record") for r in records[4:]} >= {"edge"}
    assert decayed >= 0 and cleaned == 0
    assert slept.scanned == 4 and slept.merged == 0  # the two memories, the two turns
    assert erased == 4 and after.total == 0 and nothing == []
