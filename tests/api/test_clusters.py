"""Clusters as nodes on the real stack (PostgreSQL, ONNX, XChaCha): the sleep cycle groups
memories about one name into a summary node linked to its members; a second cycle changes
nothing, an edit refreshes the summary, a deleted member takes it with it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta
from uuid import UUID, uuid4

import asyncpg
import pytest

from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.entities.adapter import PostgresEntityAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.graph.clusters import PostgresClusterAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.memories.sleep import PostgresSleepAdapter
from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.composition.services import memory_service
from memlane.domain.detail import Provenance
from memlane.domain.model import MemoryFilter, MemoryPatch, NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.ports.embedding import EmbeddingPort
from memlane.service.memory_service import MemoryService
from tests.api.conftest import API_KEY
from tests.fakes.clock import FakeClock

pytestmark = pytest.mark.integration
MARCO = (
    "I play tennis with Marco at the club.",
    "My friend Marco won the club's tennis tournament.",
    "Yesterday Marco showed me his new tennis racket.",
    "The tennis coach of Marco is called Dana.",
)
OTHER = ("The boiler needs a service in May.", "Buy oat milk and bread.")


def clustering(pool: asyncpg.Pool, embedder: EmbeddingPort, clock: FakeClock,
               on: bool = True, skip: tuple[str, ...] = ()) -> MemoryService:
    """The service with clusters on (or off); `skip`: retrieval stages left out."""
    policy = MemoryPolicy()
    ports = replace(postgres_memory_ports(pool), sleep=PostgresSleepAdapter(pool))
    return memory_service(
        ports, embedder, API_KEY, SnowballKeywordAdapter(),
        replace(policy, graph=replace(policy.graph, clusters=on),
                recall=replace(policy.recall, skip_stages=skip)), clock,
        graph=PostgresGraphAdapter(pool), audit=postgres_audit_ports(pool),
        entities=PostgresEntityAdapter(pool), clusters=PostgresClusterAdapter(pool),
    )


def someone() -> Owner:
    return Owner(f"tenant-{uuid4().hex[:10]}", "ana")


async def clusters(pool: asyncpg.Pool, owner: Owner) -> dict[UUID, tuple[UUID, ...]]:
    rows = await pool.fetch(
        "SELECT id, members FROM memory_clusters WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id)
    return {r["id"]: tuple(r["members"]) for r in rows}


async def member_links(pool: asyncpg.Pool, owner: Owner, summary: UUID) -> set[UUID]:
    rows = await pool.fetch(
        "SELECT target FROM memory_edges WHERE tenant = $1 AND user_id = $2 AND source = $3"
        " AND kind = 'narrative'", owner.tenant, owner.user_id, summary)
    return {r["target"] for r in rows}


async def remembered(service: MemoryService, owner: Owner, clock: FakeClock) -> list[UUID]:
    ids = [(await service.remember(owner, NewMemory(t))).memory.id for t in (*MARCO, *OTHER)]
    clock.advance(timedelta(minutes=1))  # a cycle reads what was written before it began
    return ids[: len(MARCO)]


@dataclass
class Clustered:
    """Marco's memories remembered and grouped by one cycle into one summary."""

    clock: FakeClock
    owner: Owner
    service: MemoryService
    marco: list[UUID]
    summary_id: UUID


async def clustered(pool: asyncpg.Pool, embedder: EmbeddingPort) -> Clustered:
    clock, owner = FakeClock(), someone()
    service = clustering(pool, embedder, clock)
    marco = await remembered(service, owner, clock)
    await service.sleep.run(owner)
    [summary_id] = await clusters(pool, owner)
    return Clustered(clock, owner, service, marco, summary_id)


async def test_a_cycle_makes_a_summary_node_linked_to_its_members_and_a_second_changes_nothing(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    clock, owner = FakeClock(), someone()
    service = clustering(pg_pool, embedder, clock)
    marco = await remembered(service, owner, clock)

    done = await service.sleep.run(owner)
    assert done.clusters == 1
    [(summary_id, members)] = (await clusters(pg_pool, owner)).items()
    assert set(members) == set(marco)
    assert await member_links(pg_pool, owner, summary_id) == set(marco)
    summary = await service.get(owner, summary_id)
    assert summary.traits.cluster and summary.traits.provenance is Provenance.CONSOLIDATED
    assert all(text[:20] in summary.content for text in MARCO)
    assert summary.tiers is not None and len(summary.tiers.abstract) <= 120
    raw = await pg_pool.fetchrow(
        "SELECT content, embedding FROM memories WHERE tenant = $1 AND user_id = $2 AND id = $3",
        owner.tenant, owner.user_id, summary_id)
    assert b"Marco" not in bytes(raw["content"]) and raw["embedding"] is None  # sealed

    clock.advance(timedelta(minutes=1))
    again = await service.sleep.run(owner)
    assert again.clusters == 0
    assert await clusters(pg_pool, owner) == {summary_id: members}
    found = await service.search(owner, "Marco tennis at the club", limit=20)
    assert summary_id not in {s.memory.id for s in found}  # never an ordinary candidate
    exported = [m.id async for m in service.export(owner)]
    assert summary_id not in exported and set(marco) <= set(exported)
    backfill = await postgres_memory_ports(pg_pool).maintenance.missing_embeddings(1000)
    assert summary_id not in {m.id for m in backfill}  # its vector is the cluster's


async def test_an_edited_member_refreshes_its_summary_in_place(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    c = await clustered(pg_pool, embedder)
    clock, owner, service, marco, summary_id = c.clock, c.owner, c.service, c.marco, c.summary_id
    clock.advance(timedelta(minutes=5))
    await service.update(owner, marco[0], MemoryPatch(
        content="Now I play tennis with Marco at the club every Saturday evening."))
    clock.advance(timedelta(minutes=1))
    assert (await service.sleep.run(owner)).clusters == 1
    assert list(await clusters(pg_pool, owner)) == [summary_id]  # refreshed, not a second
    assert "Saturday evening" in (await service.get(owner, summary_id)).content


async def test_deleting_a_member_removes_its_summary_at_once_and_the_next_cycle_regroups(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    c = await clustered(pg_pool, embedder)
    clock, owner, service, marco, summary_id = c.clock, c.owner, c.service, c.marco, c.summary_id
    await service.delete(owner, marco[0])
    assert await clusters(pg_pool, owner) == {summary_id: ()}  # emptied: no summary quotes it
    page = await service.list(owner, MemoryFilter(), None, 20)
    assert summary_id not in {m.id for m in page.items}
    clock.advance(timedelta(minutes=1))
    assert (await service.sleep.run(owner)).clusters == 1
    [(regrouped, members)] = (await clusters(pg_pool, owner)).items()
    assert set(members) == set(marco[1:]) and regrouped != summary_id

    await service.delete_all(owner)
    assert await clusters(pg_pool, owner) == {}
    marks = await pg_pool.fetchval(
        "SELECT count(*) FROM memory_cluster_marks WHERE tenant = $1", owner.tenant)
    assert marks == 0


async def test_with_clusters_off_the_cycle_makes_none(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    clock, owner = FakeClock(), someone()
    service = clustering(pg_pool, embedder, clock, on=False)
    await remembered(service, owner, clock)
    assert (await service.sleep.run(owner)).clusters == 0
    assert await clusters(pg_pool, owner) == {}



async def test_only_the_names_a_change_mentions_are_grouped_again(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    clock, owner = FakeClock(), someone()
    service = clustering(pg_pool, embedder, clock)
    await remembered(service, owner, clock)
    lena = [(await service.remember(owner, NewMemory(t))).memory.id for t in (
        "I visited my sister Lena in Hamburg last spring.",
        "My sister Lena is studying medicine in Hamburg.",
        "Lena sent me a postcard from the Hamburg harbour.",
    )]
    clock.advance(timedelta(minutes=1))
    assert (await service.sleep.run(owner)).clusters == 2
    before = await clusters(pg_pool, owner)

    clock.advance(timedelta(hours=1))
    await service.remember(owner, NewMemory("My sister Lena has a new bike in Hamburg."))
    clock.advance(timedelta(minutes=1))
    assert (await service.sleep.run(owner)).clusters == 1  # Lena's, not Marco's
    after = await clusters(pg_pool, owner)
    assert len(after) == 2 and len(set(after.items()) & set(before.items())) == 1
    assert any(len(set(lena) & set(members)) >= 2 for members in after.values())


async def test_an_aggregation_question_reaches_the_members_of_its_nearest_summary(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    clock, owner = FakeClock(), someone()
    service = clustering(pg_pool, embedder, clock)
    marco = await remembered(service, owner, clock)
    for text in ("The club's courts get new nets in April.", "Rackets are on sale this week.",
                 "The tennis final is on television tonight.", "I need new running shoes.",
                 "Our club changed its opening hours.", "The weather is good for sport."):
        await service.remember(owner, NewMemory(text))
    clock.advance(timedelta(minutes=1))
    await service.sleep.run(owner)
    question = "What do I do with Marco?"

    without = clustering(pg_pool, embedder, clock, skip=("cluster_recall",))
    plain = {s.memory.id: s.score for s in await without.search(owner, question, limit=20)}
    boosted = {s.memory.id: s.score for s in await service.search(owner, question, limit=20)}
    raised = [m for m in marco if boosted.get(m, 0.0) > plain.get(m, 0.0)]
    assert len(raised) == 3  # the summary's three members nearest the question
    assert set(boosted) - set(plain) <= set(marco)  # it brings members, never a summary
