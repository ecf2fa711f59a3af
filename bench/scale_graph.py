"""Graph figures of the scale benchmark (`bench/scale.py --graph`): context latency with the
graph read (supersession, recall by entity) and with spreading activation, against no graph,
on the loaded user; and what edge and entity building adds to a write at that size.

Edges are synthetic (each memory links to 20 others, weights 0.35-0.9, as the write-time
cap allows); entities are the real recogniser's on the loaded memories, stored through the
real EntityLinker (blind name indexes, sealed labels)."""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace
from typing import Any
from uuid import UUID

from bench import scale_data as data
from bench.scale_stats import percentile

from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.entities.adapter import PostgresEntityAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.composition.resources import ACCESS_FLUSH_MS
from memlane.composition.services import memory_service as build_memory_service
from memlane.container import Memlane
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import GraphTuning, MemoryPolicy
from memlane.service.entities.linking import EntityLinker, Named
from memlane.service.memory_service import MemoryService
from memlane.service.security.sealing import Sealer
from memlane.settings import Settings

EDGES_PER_MEMORY = 20
NAME_BATCH = 2000
WRITE_BATCH = 64
WRITE_ROUNDS = 6
LONG_S = data.LONG_S
ACTIVATION_SEEDS = 5  # measured even while the default leaves activation off

SYNTHETIC_EDGES = """
WITH ranked AS (
    SELECT id, row_number() OVER (ORDER BY id) - 1 AS place, count(*) OVER () AS total
    FROM memories WHERE tenant = $1 AND user_id = $2
)
INSERT INTO memory_edges (tenant, user_id, source, target, kind, weight, created_at,
                          activated_at)
SELECT $1, $2, a.id, b.id, 'semantic', 0.35 + 0.55 * random(), now(), now()
FROM ranked AS a
CROSS JOIN generate_series(1, $3) AS k
JOIN ranked AS b ON b.place = (a.place + k * 7919) % a.total
WHERE a.id <> b.id
ON CONFLICT DO NOTHING
"""


def _log(message: str) -> None:
    print(f"[scale-graph] {message}", file=sys.stderr, flush=True)


def _services(
    memlane: Memlane, settings: Settings, graph: PostgresGraphAdapter
) -> dict[str, MemoryService]:
    """off: no graph; on: the graph read (replacements, recall by entity) without expansion;
    lateral: each of the best 3 entries' 3 strongest links (one hop, PMG's lateral
    expansion); activation: spreading activation as configured (seeds, two hops, fan-out)."""
    encryption = XChaChaEncryptionAdapter(load_or_create_key(settings.memory.encryption_key_path))
    policy = settings.memory.policy()
    pool = memlane.database.pool

    def build(on: bool, policy: MemoryPolicy) -> MemoryService:
        return build_memory_service(
            memories=memlane.memories, embedder=memlane.embedder, encryption=encryption,
            keywords=SnowballKeywordAdapter(), policy=policy,
            graph=graph if on else None,
            entities=PostgresEntityAdapter(pool) if on else None,
        )

    tuning = policy.graph
    seeds = tuning.expansion_seeds or GraphTuning().expansion_seeds or ACTIVATION_SEEDS
    lateral = replace(tuning, expansion_seeds=3, expansion_hops=1, expansion_fan_out=3)
    return {
        "off": build(False, policy),
        "on": build(True, replace(policy, graph=replace(tuning, expansion_seeds=0))),
        "lateral": build(True, replace(policy, graph=lateral)),
        "activation": build(True, replace(
            policy, graph=replace(tuning, expansion_seeds=seeds)
        )),
    }


async def load_graph(memlane: Memlane, settings: Settings, owner: Owner) -> dict[str, Any]:
    """Edges and entities for the loaded user (kept in a reused data dir)."""
    pool = memlane.database.pool
    have = int(await pool.fetchval(
        "SELECT count(*) FROM memory_edges WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id,
    ))
    if not have:
        started = time.perf_counter()
        await pool.execute(SYNTHETIC_EDGES, owner.tenant, owner.user_id, EDGES_PER_MEMORY,
                           timeout=LONG_S)
        _log(f"edges in {time.perf_counter() - started:.1f}s")
        started = time.perf_counter()
        encryption = XChaChaEncryptionAdapter(
            load_or_create_key(settings.memory.encryption_key_path)
        )
        sealer = Sealer(encryption, SnowballKeywordAdapter(), settings.memory.policy().base_rate)
        linker = EntityLinker(PostgresEntityAdapter(pool), encryption)
        batch: list[Named] = []
        async for stored in memlane.memories.store.export(owner):
            memory = sealer.open(stored, stored.updated_at)
            batch.append(Named(memory.id, memory.content))
            if len(batch) >= NAME_BATCH:
                await linker.link(owner, batch, stored.updated_at)
                batch = []
        if batch:
            await linker.link(owner, batch, data.unit_now())
        _log(f"entities in {time.perf_counter() - started:.1f}s")
    # What autovacuum does some time after a bulk load: statistics, and the visibility map
    # the index-only reads of edges rely on (cheap when nothing changed since).
    for table in ("memory_edges", "memory_mentions", "memory_entities"):
        await pool.execute(f"VACUUM (ANALYZE) {table}", timeout=LONG_S)
    counts = {}
    for table in ("memory_edges", "memory_entities", "memory_mentions"):
        counts[table.removeprefix("memory_")] = int(await pool.fetchval(
            f"SELECT count(*) FROM {table} WHERE tenant = $1 AND user_id = $2",
            owner.tenant, owner.user_id,
        ))
    return counts


async def measure_context(
    services: dict[str, MemoryService], owner: Owner, queries: int
) -> dict[str, Any]:
    """The same questions through each service, interleaved (the machine's load falls on
    all alike); half of them name a person, as "What did Anna say about ...?"."""
    rng = random.Random(11)
    texts = []
    for n in range(queries):
        topic = rng.randrange(data.topic_count())
        if n % 2:
            texts.append(f"What did {rng.choice(data._NAMES)} say about {data.topic_text(topic)}?")
        else:
            texts.append(data.query_text(topic, rng))
    for text in texts[:20]:
        for service in services.values():
            await service.retrieve_context(owner, text)
    times: dict[str, list[float]] = {name: [] for name in services}
    order = list(services.items())
    for n, text in enumerate(texts):
        for name, service in order[n % len(order):] + order[: n % len(order)]:
            started = time.perf_counter()
            await service.retrieve_context(owner, text)
            times[name].append((time.perf_counter() - started) * 1000)
    result: dict[str, Any] = {"queries": queries}
    for name, values in times.items():
        result[f"{name}_p50_ms"] = round(percentile(values, 50), 2)
        result[f"{name}_p95_ms"] = round(percentile(values, 95), 2)
    # Paired: the same question's time against the graph read without expansion, taken
    # moments apart; the median of these differences shrugs off the machine's load swings.
    for name in ("lateral", "activation"):
        extra = [mine - on for mine, on in zip(times[name], times["on"], strict=True)]
        result[f"{name}_over_on_p50_ms"] = round(percentile(extra, 50), 2)
    return result


async def measure_writes(
    services: dict[str, MemoryService], owner: Owner
) -> dict[str, Any]:
    """Batches of new memories through the write path with the graph on and off, taken in
    turns; the memories written are deleted again (the loaded user stays as it was)."""
    rng = random.Random(23)
    per_memory: dict[str, list[float]] = {"on": [], "off": []}
    written: list[UUID] = []
    for round_ in range(WRITE_ROUNDS * 2):
        name = ("on", "off")[round_ % 2]
        items = [
            NewMemory(data.memory_text(rng.randrange(data.topic_count()), rng))
            for _ in range(WRITE_BATCH)
        ]
        started = time.perf_counter()
        results = await services[name].remember_many(owner, items)
        per_memory[name].append((time.perf_counter() - started) * 1000 / WRITE_BATCH)
        written += [r.memory.id for r in results if not r.merged]
    for memory_id in dict.fromkeys(written):
        await services["off"].delete(owner, memory_id)
    on, off = (percentile(per_memory[n], 50) for n in ("on", "off"))
    return {
        "batch": WRITE_BATCH,
        "rounds": WRITE_ROUNDS,
        "on_ms_per_memory_p50": round(on, 2),
        "off_ms_per_memory_p50": round(off, 2),
        "graph_ms_per_memory": round(on - off, 2),
    }


async def measure(
    memlane: Memlane, settings: Settings, owner: Owner, queries: int
) -> dict[str, Any]:
    result: dict[str, Any] = {"stored": await load_graph(memlane, settings, owner)}
    # As the container builds it: edge uses deferred off the request.
    graph = PostgresGraphAdapter(memlane.database.pool, use_flush_ms=ACCESS_FLUSH_MS)
    try:
        services = _services(memlane, settings, graph)
        result["context"] = await measure_context(services, owner, queries)
        _log(f"context: {result['context']}")
        result["write"] = await measure_writes(services, owner)
        _log(f"write: {result['write']}")
    finally:
        await graph.close()
    return result
