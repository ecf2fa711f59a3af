"""Levels-of-detail figures of the scale benchmark (`bench/scale.py --detail`): what tiers,
traits and the heuristic gate add to a write, the tiers backfill's rate on the loaded user
(its rows are loaded without tiers, as an older memlane stored them), and the prompt block's
latency and size by level of detail against whole lines, with the graph read.

Write costs are measured on the bench's own memory texts, one text at a time, in process:
tiers (build_tiers), sealing them (two XChaCha20 seals), the lexicon (VADER) and the gate's
own reading (cue words, domain; the new-name lookup is a database read of the entity
linking it gates, not counted here)."""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace
from typing import Any
from uuid import uuid4

from bench import scale_data as data
from bench.scale_graph import EDGES_PER_MEMORY, LONG_S, SYNTHETIC_EDGES
from bench.scale_stats import percentile

from memlane.adapters.affect.vader import VaderAffectAdapter
from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.memories.tier_fill import PostgresTierFillAdapter
from memlane.composition.services import memory_service as build_memory_service
from memlane.container import Memlane
from memlane.domain.memories import GateInput, build_tiers, decide, domain_evidence
from memlane.domain.model import Owner
from memlane.domain.retrieval import ContextOptions
from memlane.service.security import TierFiller
from memlane.service.security.tier_sealing import seal_tier_texts
from memlane.settings import Settings

WRITE_SAMPLES = 2000


def _log(message: str) -> None:
    print(f"[scale-detail] {message}", file=sys.stderr, flush=True)


def _us(samples: list[float]) -> dict[str, float]:
    return {"p50_us": round(percentile(samples, 50), 1),
            "p99_us": round(percentile(samples, 99), 1),
            "mean_us": round(sum(samples) / len(samples), 1)}


def measure_writes(settings: Settings) -> dict[str, Any]:
    """Per write, in microseconds: each step on one text."""
    rng = random.Random(11)
    texts = [data.memory_text(rng.randrange(data.topic_count()), rng)
             for _ in range(WRITE_SAMPLES)]
    encryption = XChaChaEncryptionAdapter(load_or_create_key(settings.memory.encryption_key_path))
    affect = VaderAffectAdapter()
    owner = Owner("bench", "writes")
    steps: dict[str, list[float]] = {"tiers": [], "seal_tiers": [], "affect": [], "gate": []}
    previous = None
    for text in texts:
        started = time.perf_counter()
        build_tiers(text)
        steps["tiers"].append(time.perf_counter() - started)
        started = time.perf_counter()
        seal_tier_texts(encryption, owner, uuid4(), text)
        steps["seal_tiers"].append(time.perf_counter() - started)
        started = time.perf_counter()
        affect.affect([text])
        steps["affect"].append(time.perf_counter() - started)
        started = time.perf_counter()
        found, evidence = domain_evidence(text)
        decision = decide(GateInput(
            text=text, new_names=0, domain=found if evidence else None,
            previous_domain=None if previous is None else previous.domain,
            silent_before=0 if previous is None else previous.silent, opening=previous is None,
        ), settings.memory.detail.silent_limit)
        steps["gate"].append(time.perf_counter() - started)
        previous = decision
    return {
        "texts": len(texts),
        "avg_chars": round(sum(map(len, texts)) / len(texts), 1),
        **{step: _us([s * 1e6 for s in samples]) for step, samples in steps.items()},
    }


async def measure(
    memlane: Memlane, settings: Settings, owner: Owner, queries: int
) -> dict[str, Any]:
    result: dict[str, Any] = {"writes": measure_writes(settings)}
    _log(f"writes: {result['writes']}")
    encryption = XChaChaEncryptionAdapter(load_or_create_key(settings.memory.encryption_key_path))
    pool = memlane.database.pool
    filler = TierFiller(PostgresTierFillAdapter(pool), encryption, VaderAffectAdapter())
    pending = await filler.pending()
    started = time.perf_counter()
    report = await filler.fill(batch_rows=1000)
    seconds = time.perf_counter() - started
    result["backfill"] = {"memories": pending, "filled": report.filled, "s": round(seconds, 1),
                          "per_s": round(report.filled / seconds) if report.filled else None}
    _log(f"backfill: {result['backfill']}")
    edges = await pool.fetchval(
        "SELECT count(*) FROM memory_edges WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id)
    if not edges:
        await pool.execute(SYNTHETIC_EDGES, owner.tenant, owner.user_id, EDGES_PER_MEMORY,
                           timeout=LONG_S)
        await pool.execute("VACUUM ANALYZE memory_edges", timeout=LONG_S)
    policy = settings.memory.policy()
    graph = PostgresGraphAdapter(pool)
    services = {
        name: build_memory_service(
            memories=memlane.memories, embedder=memlane.embedder, encryption=encryption,
            keywords=SnowballKeywordAdapter(), graph=graph,
            policy=replace(policy, detail=replace(policy.detail, level_of_detail=on)),
        )
        for name, on in (("lines", False), ("level_of_detail", True))
    }
    rng = random.Random(5)
    texts = [data.query_text(rng.randrange(data.topic_count()), rng) for _ in range(queries)]
    options = ContextOptions(include_profile=False)
    for name, service in services.items():
        for text in texts[:20]:  # warm plans, caches and the model
            await service.prompt_context(owner, text, options=options)
        totals, tokens, shown = [], [], []
        for text in texts:
            started = time.perf_counter()
            prompt = await service.prompt_context(owner, text, options=options)
            totals.append((time.perf_counter() - started) * 1000)
            counted = await memlane.embedder.count_tokens([prompt.text])
            tokens.append(counted[0] if counted else 0)
            shown.append(len(prompt.levels) if prompt.levels else len(prompt.memories))
        result[name] = {
            "queries": len(texts),
            "p50_ms": round(percentile(totals, 50), 2),
            "p95_ms": round(percentile(totals, 95), 2),
            "tokens_p50": percentile(tokens, 50), "tokens_max": max(tokens),
            "memories_shown_avg": round(sum(shown) / len(shown), 2),
        }
        _log(f"{name}: {result[name]}")
    result["token_budget"] = policy.detail.token_budget
    return result
