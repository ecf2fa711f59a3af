"""The tiers backfill on the real stack (PostgreSQL, XChaCha20, VADER): memories stored
before migrations 0200/0201 read the same tiers meanwhile, and the `tiers` step of
`memlane upgrade` stores what a write would have, once."""

from __future__ import annotations

import os

import asyncpg
import pytest

from memlane.adapters.affect.vader import VaderAffectAdapter
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.memories.tier_fill import PostgresTierFillAdapter
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.detail import Tier
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.service.security import TierFiller

pytestmark = pytest.mark.integration

OWNER = Owner("tier-tenant", "ana")
ROWS = """
SELECT m.id, m.abstract, m.overview, h.provenance, h.confidence, h.valence, h.arousal, h.domain
FROM memories m JOIN memory_heat h USING (tenant, user_id, id)
WHERE m.tenant = $1 ORDER BY m.created_at, m.id
"""
FORGET = """
WITH t AS (UPDATE memories SET abstract = NULL, overview = NULL WHERE tenant = $1)
UPDATE memory_heat SET provenance = NULL, confidence = NULL, valence = NULL, arousal = NULL,
                       domain = NULL
WHERE tenant = $1
"""
TEXTS = (
    "I am thrilled: we finally moved into the new flat in Lisbon last weekend. The kitchen "
    "still needs work, and the movers broke a lamp, but the view over the river is amazing.",
    "The project deadline for the API migration is Friday; we decided to ship the v2 endpoints.",
)


async def test_the_tiers_step_stores_what_a_write_would_and_a_second_run_finds_nothing(
    fresh_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> None:
    key = os.urandom(32)
    service = build_memory_service(
        postgres_memory_ports(fresh_pool, dimension=embedder.dimension), embedder,
        XChaChaEncryptionAdapter(key), SnowballKeywordAdapter(), MemoryPolicy(),
        affect=VaderAffectAdapter(),
    )
    stored = [(await service.remember(OWNER, NewMemory(t))).memory for t in TEXTS]
    written = await fresh_pool.fetch(ROWS, OWNER.tenant)
    assert all(r["abstract"] is not None and r["provenance"] == "stated" for r in written)

    await fresh_pool.execute(FORGET, OWNER.tenant)  # as stored before migrations 0200/0201
    for memory in stored:  # reads derive the same tiers meanwhile
        again = await service.get(OWNER, memory.id)
        assert again.tiers == memory.tiers and again.content == memory.content
    filler = TierFiller(PostgresTierFillAdapter(fresh_pool), XChaChaEncryptionAdapter(key),
                        VaderAffectAdapter())
    assert await filler.pending() == 2
    report = await filler.fill(batch_rows=1)
    assert (report.filled, report.unreadable, report.remaining) == (2, 0, 0)

    filled = await fresh_pool.fetch(ROWS, OWNER.tenant)
    for before, after in zip(written, filled, strict=True):
        assert after["abstract"] is not None and after["abstract"] != before["abstract"]
        for column in ("provenance", "confidence", "valence", "arousal", "domain"):
            assert after[column] == pytest.approx(before[column]), column
    for memory in stored:
        again = await service.get(OWNER, memory.id)
        assert again.tiers == memory.tiers
        assert again.tiers is not None and again.tiers.text(Tier.L0, "") == memory.tiers.abstract
    assert (await filler.fill()).filled == 0  # idempotent: nothing left to visit
