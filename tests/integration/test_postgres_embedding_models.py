"""The stored vectors' model against the configured one, and reembed moving an installation over
(real PostgreSQL, both real models, a database of its own per test)."""

from __future__ import annotations

import logging
import os
from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.embedding.ollama import OllamaEmbeddingAdapter
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.postgres.installation import PostgresInstallationAdapter
from memlane.composition.served_model import served_settings
from memlane.domain.errors import EmbeddingModelMismatch
from memlane.domain.model import NewMemory, Owner
from memlane.domain.similarity import SCALES
from memlane.settings import load_settings
from tests.integration.conftest import build_service

pytestmark = pytest.mark.integration

MINILM_NAME, E5_NAME = "all-MiniLM-L6-v2", "multilingual-e5-small"
QUARANTINE_WITH_VECTOR = """
INSERT INTO memory_quarantine (tenant, user_id, id, unreadable, quarantined_at, memory_type,
    content, summary, tags, metadata, pinned, embedding, embedding_model, created_at, updated_at)
VALUES ($1, $2, $3, ARRAY['content'], now(), 'fact', '\\x00', '\\x00', ARRAY[]::text[], '{}',
        false, $4, $5, now(), now())
"""
MODELS = "SELECT embedding_model, count(*) FROM memories GROUP BY 1 ORDER BY 1 NULLS FIRST"


async def test_memories_of_another_model_are_refused_until_reembedded(
    fresh_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, e5: OnnxEmbeddingAdapter
) -> None:
    owner, key = Owner("default", f"u-{uuid4().hex[:8]}"), os.urandom(32)
    written = build_service(fresh_pool, embedder, key)
    await written.remember(owner, NewMemory("Ich arbeite als Krankenpfleger im Krankenhaus."))
    await written.remember(owner, NewMemory("My favourite colour is green."))
    installation = PostgresInstallationAdapter(fresh_pool)
    await installation.check_embedding_model(MINILM_NAME, embedder.same_space_models)
    # Ollama's all-minilm is the same model in another build: one space, no refusal.
    ollama = OllamaEmbeddingAdapter("all-minilm", 384)
    await installation.check_embedding_model("all-minilm", ollama.same_space_models)

    with pytest.raises(EmbeddingModelMismatch) as refused:
        await installation.check_embedding_model(E5_NAME, e5.same_space_models)
    message = str(refused.value)
    assert f"'{MINILM_NAME}' (2 memories)" in message and "`memlane reembed`" in message
    assert f"memory.embedding.model is '{E5_NAME}'" in message

    # `memlane reembed`: every vector dropped, the quarantined ones too, then embedded anew.
    await fresh_pool.execute(QUARANTINE_WITH_VECTOR, owner.tenant, owner.user_id, uuid4(),
                             [0.1] * 384, MINILM_NAME)
    await installation.reset_embeddings(e5.dimension)
    assert [tuple(r) for r in await fresh_pool.fetch(MODELS)] == [(None, 2)]
    assert await fresh_pool.fetchval(
        "SELECT count(*) FROM memory_quarantine WHERE embedding IS NOT NULL "
        "OR embedding_model IS NOT NULL") == 0
    moved = build_service(fresh_pool, e5, key)
    assert await moved.backfill(64) == 2

    assert [tuple(r) for r in await fresh_pool.fetch(MODELS)] == [(E5_NAME, 2)]
    await installation.check_embedding_model(E5_NAME, e5.same_space_models)
    with pytest.raises(EmbeddingModelMismatch, match=f"'{E5_NAME}' \\(2 memories\\)"):
        await installation.check_embedding_model(MINILM_NAME, embedder.same_space_models)
    (hit, *_) = await moved.search(owner, "Was ist mein Beruf?", limit=2)
    assert "Krankenpfleger" in hit.memory.content


async def test_memories_not_yet_embedded_are_no_mismatch(
    fresh_pool: asyncpg.Pool, e5: OnnxEmbeddingAdapter
) -> None:
    installation = PostgresInstallationAdapter(fresh_pool)
    await installation.check_embedding_model(E5_NAME, e5.same_space_models)  # empty
    owner = Owner("default", "nobody-yet")
    await build_service(fresh_pool, e5, os.urandom(32)).remember(
        owner, NewMemory("Ich mag Katzen."))
    await fresh_pool.execute("UPDATE memories SET embedding = NULL, embedding_model = NULL")
    # A memory waiting for `memlane backfill` has no vector to mix with any model's.
    assert [tuple(r) for r in await fresh_pool.fetch(MODELS)] == [(None, 1)]
    await installation.check_embedding_model(MINILM_NAME, frozenset({MINILM_NAME}))


async def test_an_installation_that_never_chose_its_model_keeps_serving_its_own(
    fresh_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.delenv("MEMLANE_MEMORY__EMBEDDING__MODEL", raising=False)
    installation = PostgresInstallationAdapter(fresh_pool)
    unset = load_settings()
    assert unset.memory.embedding.model == E5_NAME and not unset.memory.embedding.model_chosen()
    # A new installation: no vector yet, so the default is served.
    assert await installation.embedding_models() == []
    assert await served_settings(unset, installation) is unset

    owner = Owner("default", f"u-{uuid4().hex[:8]}")
    await build_service(fresh_pool, embedder, os.urandom(32)).remember(
        owner, NewMemory("I keep bees on the roof."))
    assert await installation.embedding_models() == [MINILM_NAME]
    with caplog.at_level(logging.WARNING, logger="memlane.composition.served_model"):
        served = await served_settings(unset, installation)
    assert served.memory.embedding.model == MINILM_NAME
    # The owner is told, once, what is served, what the default is and how to move.
    (notice,) = [r.getMessage() for r in caplog.records]
    assert MINILM_NAME in notice and E5_NAME in notice and "`memlane reembed`" in notice
    assert "bees" not in notice
    # The cosine lines follow the model served, not the default's.
    assert served.policy().rag_threshold == SCALES[MINILM_NAME].rag_threshold
    # A model that was set is served as set (and refused by the check, as before).
    chosen = load_settings(memory={"embedding": {"model": E5_NAME}})
    assert await served_settings(chosen, installation) is chosen
    # Vectors of two models: nothing to keep; the check refuses at start.
    await fresh_pool.execute("UPDATE memories SET embedding_model = $1", E5_NAME)
    await build_service(fresh_pool, embedder, os.urandom(32)).remember(
        owner, NewMemory("My favourite colour is green."))
    assert set(await installation.embedding_models()) == {MINILM_NAME, E5_NAME}
    assert await served_settings(unset, installation) is unset
