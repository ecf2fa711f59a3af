"""The sleep cycle on the real stack (PostgreSQL, ONNX, XChaCha): fragment merge, narrative
weaving, edge pruning, counts; idempotent, resumable, scoped like decay."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import httpx
import pytest

from memlane.adapters.embedding.delegating import DelegatingEmbedder
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.entities.adapter import PostgresEntityAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.memories.sleep import PostgresSleepAdapter
from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.composition.services import memory_service
from memlane.domain.detail import Provenance
from memlane.domain.memories import MERGE_COST, Message, Role, SleepReport
from memlane.domain.model import MemoryFilter, MemoryPatch, NewMemory, Owner, Vector
from memlane.domain.policy import MemoryPolicy
from memlane.ports.embedding import EmbeddingPort, EmbedKind
from memlane.service.memory_service import MemoryService
from tests.api.conftest import API_KEY, TenantKeys
from tests.fakes.clock import FakeClock

pytestmark = pytest.mark.integration
TENNIS = "I play tennis with Marco every Sunday morning at the club."
TENNIS_AGAIN = "Every Sunday morning I play tennis with Marco at the club."
# What a pair's second member says before it is edited: far from everything else, and from
# each other (two random hex strings can be near-duplicates and merge at write).
PLACEHOLDERS = ("The boiler service is booked for October.",
                "Quantum dots glow in many colours under ultraviolet light.")
PAIRS = ((TENNIS, TENNIS_AGAIN), ("My sister Lena lives in Hamburg near the harbour.",
                                  "Lena, my sister, lives near the harbour in Hamburg."))


class Stopped(Exception):
    pass


class CountingPrunes(PostgresSleepAdapter):
    """The real adapter, counting the pruning statements."""

    prunes = 0

    async def prune(self, *args: Any, **kwargs: Any) -> int:
        self.prunes += 1
        return await super().prune(*args, **kwargs)


class CountingEmbedder(DelegatingEmbedder):
    """The real embedder, counting how many documents each call embeds."""

    def __init__(self, inner: EmbeddingPort) -> None:
        super().__init__(inner)
        self.calls: list[int] = []

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        self.calls.append(len(texts))
        return await super().embed(texts, kind)


def service_at(
    pool: asyncpg.Pool, embedder: EmbeddingPort, clock: FakeClock, scan_once_max: int = 5000,
    policy: MemoryPolicy | None = None, sleep: PostgresSleepAdapter | None = None,
) -> MemoryService:
    ports = replace(postgres_memory_ports(pool),
                    sleep=sleep or PostgresSleepAdapter(pool, scan_once_max))
    return memory_service(
        ports, embedder, API_KEY, SnowballKeywordAdapter(),
        policy or MemoryPolicy(), clock, graph=PostgresGraphAdapter(pool),
        audit=postgres_audit_ports(pool), entities=PostgresEntityAdapter(pool),
    )


def someone() -> Owner:
    return Owner(f"tenant-{uuid4().hex[:10]}", "ana")


async def edges(pool: asyncpg.Pool, owner: Owner) -> set[tuple[UUID, UUID, str]]:
    rows = await pool.fetch(
        "SELECT source, target, kind FROM memory_edges WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id)
    return {(r["source"], r["target"], r["kind"]) for r in rows}


@pytest.mark.parametrize("scan_once_max", [5000, 0])  # scanned with others; its own statement
async def test_near_duplicates_made_by_an_edit_merge_once_and_a_second_cycle_changes_nothing(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort, scan_once_max: int
) -> None:
    clock, owner = FakeClock(), someone()
    service = service_at(pg_pool, embedder, clock, scan_once_max)
    first = (await service.remember(owner, NewMemory(TENNIS))).memory
    other = (await service.remember(owner, NewMemory("The boiler needs a service in May."))).memory
    clock.advance(timedelta(minutes=5))
    await service.update(owner, other.id, MemoryPatch(content=TENNIS_AGAIN))  # no dedup here
    clock.advance(timedelta(minutes=1))  # a cycle reads what was written before it began

    done = await service.sleep.run(owner)
    assert (done.merged, done.sources, done.skipped) == (1, 2, 0)
    assert done.scanned == 2
    page = await service.list(owner, MemoryFilter(), None, 10)
    current = [m for m in page.items if m.superseded_by is None]
    assert len(page.items) == 3 and len(current) == 1  # the originals stay, as history
    merged = current[0]
    assert merged.traits.provenance is Provenance.CONSOLIDATED
    assert "tennis" in merged.content and merged.content.count("Additional context") <= 1
    assert {m.id for m in page.items if m.superseded_by == merged.id} == {first.id, other.id}
    links = await edges(pg_pool, owner)

    again = await service.sleep.run(owner)
    assert (again.merged, again.sources, again.woven, again.pruned) == (0, 0, 0, 0)
    assert len((await service.list(owner, MemoryFilter(), None, 10)).items) == 3
    assert await edges(pg_pool, owner) == links
    assert await service.sleep.pending(owner) == 0


async def test_conversation_memories_about_one_name_are_woven_in_time_order(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    clock, owner = FakeClock(), someone()
    service = service_at(pg_pool, embedder, clock)
    said = []
    for day, text in enumerate((
        "Yesterday I met Marco at the climbing gym downtown.",
        "Marco's sister Lena is getting married in June.",
        "Marco lent me his tent for the camping weekend.",
    )):
        clock.advance(timedelta(days=day + 1))
        added = await service.add_messages(owner, f"chat-{day}", [Message(Role.USER, text)])
        said.append(added.memories[0].id)
    clock.advance(timedelta(minutes=1))

    done = await service.sleep.run(owner)
    assert done.woven == 2 and done.merged == 0
    narrative = {(s, t) for s, t, k in await edges(pg_pool, owner) if k == "narrative"}
    assert narrative == {(said[0], said[1]), (said[1], said[2])}
    assert (await service.sleep.run(owner)).woven == 0


async def test_faded_links_are_pruned_and_links_that_never_fade_stay(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    clock, owner = FakeClock(), someone()
    service = service_at(pg_pool, embedder, clock)
    a, b = [(await service.remember(owner, NewMemory(t))).memory.id
            for t in ("The dentist is on Elm Street.", "My bike has a flat tyre.")]
    await pg_pool.execute(
        "INSERT INTO memory_edges (tenant, user_id, source, target, kind, weight, created_at,"
        " activated_at) VALUES ($1, $2, $3, $4, 'causal', 0.4, $5, $5),"
        " ($1, $2, $4, $3, 'chain', 1.0, $5, $5)", owner.tenant, owner.user_id, a, b, clock())
    before = await edges(pg_pool, owner)
    assert (await service.sleep.run(owner)).pruned == 0  # 0.4 now: strong enough
    clock.advance(timedelta(days=3 * 90 + 1))  # past three half-lives: 0.4 -> 0.0496 < 0.05
    assert (await service.sleep.run(owner)).pruned == 1
    assert await edges(pg_pool, owner) == before - {(a, b, "causal")}
    assert (b, a, "chain") in before  # a chain never fades: it stays


async def test_an_interrupted_cycle_goes_on_from_its_last_finished_batch(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    clock, owner = FakeClock(), someone()
    service = service_at(pg_pool, embedder, clock)
    texts = ("Oslo trip in March.", "Buy oat milk.", "Piano lesson moved to Thursday.")
    await service.remember_many(owner, [NewMemory(t) for t in texts])
    clock.advance(timedelta(minutes=1))
    assert await service.sleep.pending(owner) == 3

    def stop_after_one(count: int) -> None:
        raise Stopped  # the process stopped after its first batch was kept

    with pytest.raises(Stopped):
        await service.sleep.run(owner, stop_after_one, batch_size=1)
    assert await service.sleep.pending(owner) == 2
    rest = await service.sleep.run(owner, batch_size=1)
    assert rest.scanned == 2 and await service.sleep.pending(owner) == 0


async def test_a_run_reads_at_most_its_budget_and_says_what_is_left_for_the_next(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    clock, owner, counting = FakeClock(), someone(), CountingPrunes(pg_pool)
    policy = MemoryPolicy()
    service = service_at(pg_pool, embedder, clock, sleep=counting, policy=replace(
        policy, graph=replace(policy.graph, sleep_budget=3)))
    texts = ("Oslo trip in March.", "Buy oat milk.", "Piano lesson moved to Thursday.",
             "The cat's vaccination is due.", "Dentist on the 4th.")
    await service.remember_many(owner, [NewMemory(t) for t in texts])
    clock.advance(timedelta(minutes=1))
    first = await service.sleep.bounded(owner)  # as the worker and the route run it
    assert (first.scanned, first.left) == (3, 2)
    assert counting.prunes == 0  # pruning (and the steps) wait for the run that finishes
    rest = await service.sleep.run(owner, batch_size=1, budget=5)
    assert (rest.scanned, rest.left) == (2, 0) and await service.sleep.pending(owner) == 0
    assert counting.prunes == 1
    with pytest.raises(ValueError):
        await service.sleep.run(owner, budget=0)


async def test_the_merges_of_a_batch_embed_in_one_call(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    clock, owner, counting = FakeClock(), someone(), CountingEmbedder(embedder)
    service = service_at(pg_pool, counting, clock)
    for (kept, edited), placeholder in zip(PAIRS, PLACEHOLDERS, strict=True):
        await service.remember(owner, NewMemory(kept))
        other = (await service.remember(owner, NewMemory(placeholder))).memory
        clock.advance(timedelta(minutes=5))
        await service.update(owner, other.id, MemoryPatch(content=edited))
    clock.advance(timedelta(minutes=1))
    counting.calls.clear()
    done = await service.sleep.run(owner)
    assert (done.merged, done.sources) == (2, 4)
    assert counting.calls == [2]  # one call, two merged texts


async def test_a_batch_that_stops_merging_at_the_budget_loses_no_group(
    pg_pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    clock, owner = FakeClock(), someone()
    service = service_at(pg_pool, embedder, clock)
    plain = ("Oslo trip in March.", "Buy oat milk.", "Piano lesson moved to Thursday.",
             "The cat's vaccination is due.")
    await service.remember_many(owner, [NewMemory(t) for t in plain])
    clock.advance(timedelta(minutes=1))
    others = []
    for (kept, _), placeholder in zip(PAIRS, PLACEHOLDERS, strict=True):
        await service.remember(owner, NewMemory(kept))
        other = await service.remember(owner, NewMemory(placeholder))
        others.append(other.memory)
    clock.advance(timedelta(minutes=1))
    for other, (_, edited) in zip(others, PAIRS, strict=True):
        await service.update(owner, other.id, MemoryPatch(content=edited))  # both pairs, later
    clock.advance(timedelta(minutes=1))
    # The plain memories make a first batch with nothing to merge; the next holds both pairs
    # with room in the budget for one merge: the other pair's members, behind the cut, are
    # read again and merged, not left behind the watermark.
    done = await service.sleep.run(owner, budget=4 * (1 + MERGE_COST // 2))
    assert (done.merged, done.sources) == (2, 4)
    current = [m for m in (await service.list(owner, MemoryFilter(), None, 20)).items
               if m.superseded_by is None]
    assert len(current) == len(plain) + 2


async def test_the_cycle_route_is_scoped_like_decay_and_answers_its_counts(
    client: httpx.AsyncClient, tenant: TenantKeys, pg_pool: asyncpg.Pool
) -> None:
    for text in ("I keep bees in the garden.", "The car needs new tyres."):
        stored = await client.post("/v1/memories", json={"content": text}, headers=tenant.alice)
        assert stored.status_code == 201, stored.text
    mine = await _cycle(client, tenant.bob)
    assert mine == {**_zero(), "scope": "user"}  # bob has nothing: alice's are not his
    whole = await _cycle(client, tenant.admin)
    assert whole["scope"] == "tenant" and whole["scanned"] == 2
    assert await _cycle(client, tenant.admin) == {**_zero(), "scope": "tenant"}
    marks = await pg_pool.fetchval(
        "SELECT count(*) FROM memory_sleep_watermarks WHERE tenant = $1", tenant.tenant)
    assert marks == 1  # alice's watermark; bob has no memories


async def _cycle(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    response = await client.post("/v1/memories/consolidate/cycle", headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _zero() -> dict[str, int]:
    return SleepReport().as_dict()

