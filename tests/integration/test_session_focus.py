"""Session focus on the real stack (PostgreSQL, ONNX, XChaCha20): a conversation's contexts
feed its focus, a new conversation on the same topic resumes it, one on another topic does
not; hops from the focus are read in SQL; focus rows go with their memories."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from uuid import UUID, uuid4

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.memories.focus import PostgresFocusAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.composition.services import memory_service
from memlane.domain.graph import Edge, EdgeKind
from memlane.domain.model import ContextRole, NewMemory, Owner
from memlane.domain.policy import DetailTuning, MemoryPolicy
from memlane.domain.retrieval import ContextOptions, FocusQuery
from memlane.service.memory_service import MemoryService

pytestmark = pytest.mark.integration

KITCHEN = [
    "We are renovating the kitchen and chose oak cabinets with brass handles",
    "Marek the tiler starts on Monday at eight",  # the kitchen's, though it does not say so
    "The kitchen renovation budget is twelve thousand euros, the sink not included",
]
OTHER = [
    "Our cat Mochi hates the vacuum cleaner",
    "I run five kilometres along the river every Sunday morning",
    "The team offsite is planned for the second week of May",
    "My sister Lena plays the cello in a youth orchestra",
    "We watched a documentary about deep sea creatures",
]
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def focused(
    pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, policy: MemoryPolicy | None = None
) -> MemoryService:
    """The service with the graph and session focus (off by default), on a clock that stands
    still (reads compare exactly)."""
    return memory_service(
        postgres_memory_ports(pool, dimension=embedder.dimension), embedder,
        XChaChaEncryptionAdapter(os.urandom(32)), SnowballKeywordAdapter(),
        policy or MemoryPolicy(detail=DetailTuning(focus=True)), lambda: NOW,
        graph=PostgresGraphAdapter(pool),
    )


async def stored(service: MemoryService, owner: Owner) -> dict[str, UUID]:
    results = await service.remember_many(owner, [NewMemory(t) for t in KITCHEN + OTHER])
    return {t: r.memory.id for t, r in zip(KITCHEN + OTHER, results, strict=True)}


async def focus_rows(pool: asyncpg.Pool, owner: Owner) -> int:
    return int(await pool.fetchval(
        "SELECT count(*) FROM conversation_focus WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id))


async def test_a_new_conversation_resumes_the_focus_of_the_last_one_on_its_topic(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> None:
    service = focused(pg_pool, embedder)
    owner = Owner("default", f"focus-{uuid4()}")
    ids = await stored(service, owner)
    a = ContextOptions(conversation_id="conversation-a")
    for question in ("How is the kitchen renovation going?",
                     "When does Marek the tiler start?",
                     "What did the kitchen renovation cost us?"):
        await service.retrieve_context(owner, question, 3, a)
    kitchen = {ids[t] for t in KITCHEN}

    follow_up = "Any news on the kitchen renovation?"
    alone = {m.id for m in await service.retrieve_context(owner, follow_up, 5)}
    resumed = await service.retrieve_context(
        owner, follow_up, 5, ContextOptions(conversation_id="conversation-b"))

    marek = ids[KITCHEN[1]]
    assert marek not in alone  # the question alone does not reach the tiler
    assert kitchen <= {m.id for m in resumed}
    assert {m.role for m in resumed if m.id == marek} == {ContextRole.FOCUS}


async def test_a_new_conversation_on_another_topic_resumes_nothing(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> None:
    service = focused(pg_pool, embedder)
    owner = Owner("default", f"focus-{uuid4()}")
    ids = await stored(service, owner)
    a = ContextOptions(conversation_id="conversation-a")
    await service.retrieve_context(owner, "How is the kitchen renovation going?", 3, a)

    other = await service.retrieve_context(
        owner, "What does my sister play?", 3, ContextOptions(conversation_id="conversation-c"))

    assert ids[OTHER[3]] in {m.id for m in other}
    assert not {m.id for m in other} & {ids[t] for t in KITCHEN}
    assert ContextRole.FOCUS not in {m.role for m in other}


async def test_reads_leave_stored_importance_as_it_was(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> None:
    """The boost is read time only: the same reads at the same times leave every memory's
    stored heat (base importance, accesses) the same with the focus on as with it off."""
    heat = ("SELECT base_importance, access_count, accessed_at FROM memory_heat "
            "WHERE tenant = $1 AND user_id = $2 ORDER BY 1, 2, 3")
    seen = []
    for focus in (True, False):
        service = focused(pg_pool, embedder, MemoryPolicy(detail=DetailTuning(focus=focus)))
        owner = Owner("default", f"focus-{uuid4()}")
        await stored(service, owner)
        a = ContextOptions(conversation_id="conversation-a")
        for question in ("How is the kitchen renovation going?",
                         "What did the kitchen renovation cost us?",
                         "How is the kitchen renovation going?"):
            await service.retrieve_context(owner, question, 3, a)
        seen.append([tuple(r) for r in await pg_pool.fetch(heat, owner.tenant, owner.user_id)])
        assert (await focus_rows(pg_pool, owner) > 0) is focus
    assert seen[0] == seen[1]


async def test_hops_from_the_focus_are_read_over_the_edges(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> None:
    service = focused(pg_pool, embedder)
    owner = Owner("default", f"focus-{uuid4()}")
    ids = list((await stored(service, owner)).values())
    await pg_pool.execute(
        "DELETE FROM memory_edges WHERE tenant = $1 AND user_id = $2", owner.tenant, owner.user_id)
    focus, one, two, three = ids[5], ids[6], ids[7], ids[0]
    await PostgresGraphAdapter(pg_pool).add_edges(owner, [
        Edge(focus, one, EdgeKind.CAUSAL, 0.9, NOW, NOW),
        Edge(two, one, EdgeKind.CAUSAL, 0.9, NOW, NOW),  # reached against its direction
        Edge(two, three, EdgeKind.CAUSAL, 0.9, NOW, NOW),
    ], cap_per_node=20)
    port = PostgresFocusAdapter(pg_pool)
    await port.touch(owner, "token-a", [focus], NOW)

    view = await port.closeness(owner, "token-a", [one, two, three], None, FocusQuery(hops=2))

    assert view.focus == (focus,) and not view.resumed
    assert dict(view.hops) == {focus: 0, one: 1, two: 2}


async def test_focus_rows_go_with_their_memories(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> None:
    service = focused(pg_pool, embedder)
    owner = Owner("default", f"focus-{uuid4()}")
    ids = list((await stored(service, owner)).values())
    port = PostgresFocusAdapter(pg_pool)
    await port.touch(owner, "token-a", ids[:4], NOW)
    await port.touch(owner, "token-a", ids[:2], NOW)
    assert await focus_rows(pg_pool, owner) == 4

    await service.delete(owner, ids[0])
    assert await focus_rows(pg_pool, owner) == 3
    await postgres_memory_ports(pg_pool).store.delete_all(owner)  # erasure's first step
    assert await focus_rows(pg_pool, owner) == 0


async def test_deferred_touches_are_written_together_at_close(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> None:
    service = focused(pg_pool, embedder)
    owner = Owner("default", f"focus-{uuid4()}")
    ids = list((await stored(service, owner)).values())
    port = PostgresFocusAdapter(pg_pool, touch_flush_ms=60_000)
    await port.touch(owner, "token-a", ids[:2], NOW)
    await port.touch(owner, "token-a", ids[:1], NOW)
    assert await focus_rows(pg_pool, owner) == 0  # off the request path, not yet written
    await port.close()
    touches = await pg_pool.fetch(
        "SELECT memory_id, touches FROM conversation_focus WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id)
    assert {r["memory_id"]: r["touches"] for r in touches} == {ids[0]: 2, ids[1]: 1}
