"""OllamaEmbeddingAdapter against a local stub that speaks Ollama's POST /api/embed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import numpy as np
import pytest
import pytest_asyncio

from memlane.adapters.embedding.ollama import OllamaEmbeddingAdapter
from memlane.domain.errors import EmbeddingDimensionMismatch, EmbeddingUnavailable
from tests.stubs.ollama_server import (
    Reply,
    StubOllamaServer,
    free_port_url,
    hang_up,
    send,
    status,
)

DIMENSION = 4


def fake_vector(text: str, dimension: int = DIMENSION) -> list[float]:
    # Deterministic and deliberately not unit length, to show the adapter normalises.
    return [float(len(text) + 1)] + [float(i + 1) for i in range(dimension - 1)]


def ok(dimension: int = DIMENSION) -> Reply:
    async def reply(writer: asyncio.StreamWriter, request: dict[str, Any]) -> None:
        vectors = [fake_vector(t, dimension) for t in request["input"]]
        await send(writer, 200, {"model": request["model"], "embeddings": vectors})

    return reply


def slow(seconds: float) -> Reply:
    async def reply(writer: asyncio.StreamWriter, request: dict[str, Any]) -> None:
        await asyncio.sleep(seconds)
        await ok()(writer, request)

    return reply


class StubOllama(StubOllamaServer):
    """The embed server: answers `ok()` when its script is empty."""

    def __init__(self) -> None:
        super().__init__(ok())


@pytest_asyncio.fixture
async def stub() -> AsyncIterator[StubOllama]:
    server = StubOllama()
    await server.start()
    yield server
    await server.stop()


@pytest_asyncio.fixture
async def adapter_for() -> AsyncIterator[Callable[..., OllamaEmbeddingAdapter]]:
    made: list[OllamaEmbeddingAdapter] = []

    def make(url: str, **overrides: Any) -> OllamaEmbeddingAdapter:
        options: dict[str, Any] = {
            "model": "all-minilm",
            "dimension": DIMENSION,
            "timeout_ms": 2_000,
            "max_retries": 2,
            "backoff_ms": 10,
        }
        options.update(overrides)
        adapter = OllamaEmbeddingAdapter(url=url, **options)
        made.append(adapter)
        return adapter

    yield make
    for adapter in made:
        await adapter.close()


async def test_texts_roundtrip_through_the_embed_protocol_as_unit_vectors(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    adapter = adapter_for(stub.url)
    vectors = await adapter.embed(["hi", "hello there"])
    assert stub.requests == [
        ("POST", "/api/embed", {"model": "all-minilm", "input": ["hi", "hello there"]})
    ]
    for text, vector in zip(["hi", "hello there"], vectors, strict=True):
        expected = np.asarray(fake_vector(text), dtype=np.float32)
        np.testing.assert_allclose(vector, expected / np.linalg.norm(expected), rtol=1e-6)
        assert abs(float(np.linalg.norm(np.asarray(vector))) - 1.0) < 1e-6
    assert adapter.model == "all-minilm" and adapter.dimension == DIMENSION


async def test_large_inputs_are_sent_in_batches_and_come_back_in_order(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    texts = ["a", "bb", "ccc", "dddd", "eeeee"]
    vectors = await adapter_for(stub.url, batch_size=2).embed(texts)
    assert [r[2]["input"] for r in stub.requests] == [["a", "bb"], ["ccc", "dddd"], ["eeeee"]]
    for text, vector in zip(texts, vectors, strict=True):
        expected = np.asarray(fake_vector(text), dtype=np.float32)
        np.testing.assert_allclose(vector, expected / np.linalg.norm(expected), rtol=1e-6)


async def test_configured_task_prefixes_are_sent_for_queries_and_documents(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    adapter = adapter_for(
        stub.url, query_prefix="search_query: ", document_prefix="search_document: "
    )
    await adapter.embed(["where do I live?"], kind="query")
    await adapter.embed(["I live in Lisbon"])
    assert [r[2]["input"] for r in stub.requests] == [
        ["search_query: where do I live?"],
        ["search_document: I live in Lisbon"],
    ]


async def test_an_empty_list_sends_no_request(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    assert await adapter_for(stub.url).embed([]) == []
    assert stub.requests == []


async def test_a_server_slower_than_the_timeout_is_reported_as_a_timeout(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    stub.script = [slow(5.0)]
    adapter = adapter_for(stub.url, timeout_ms=200, max_retries=0)
    started = time.monotonic()
    with pytest.raises(EmbeddingUnavailable, match="did not answer within 200 ms"):
        await adapter.embed(["hi"])
    assert time.monotonic() - started < 2.0


async def test_a_server_that_is_down_gets_a_clear_message_after_bounded_retries(
    adapter_for: Callable[..., OllamaEmbeddingAdapter],
) -> None:
    url = free_port_url()
    adapter = adapter_for(url, max_retries=2)
    with pytest.raises(EmbeddingUnavailable, match=f"is Ollama running at {url}") as caught:
        await adapter.embed(["hi"])
    assert "after 3 attempts" in str(caught.value)
    assert await adapter.ready() is False


async def test_a_model_that_is_not_pulled_says_how_to_pull_it_without_retrying(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    stub.script = [status(404, 'model "nomic-embed-text" not found, try pulling it first')]
    adapter = adapter_for(stub.url, model="nomic-embed-text")
    with pytest.raises(EmbeddingUnavailable, match="run `ollama pull nomic-embed-text`"):
        await adapter.embed(["hi"])
    assert len(stub.requests) == 1


async def test_transient_failures_are_retried_until_the_server_answers(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    stub.script = [status(503, "server busy"), hang_up]
    vectors = await adapter_for(stub.url, max_retries=2).embed(["hi"])
    assert len(vectors) == 1 and len(stub.requests) == 3


async def test_retries_stop_at_the_configured_bound(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    stub.script = [status(503, "server busy")] * 5
    with pytest.raises(EmbeddingUnavailable, match="after 2 attempts"):
        await adapter_for(stub.url, max_retries=1).embed(["hi"])
    assert len(stub.requests) == 2


async def test_a_client_error_is_not_retried(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    stub.script = [status(400, "invalid input")]
    with pytest.raises(EmbeddingUnavailable, match=r"refused the embedding request \(400\)"):
        await adapter_for(stub.url).embed(["hi"])
    assert len(stub.requests) == 1


async def test_vectors_of_another_dimension_point_to_reembed(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    stub.script = [ok(dimension=3)]
    with pytest.raises(EmbeddingDimensionMismatch, match="memlane reembed") as caught:
        await adapter_for(stub.url).embed(["hi"])
    assert "3-dimensional" in str(caught.value)


async def test_a_wrong_number_of_embeddings_is_refused(
    stub: StubOllama, adapter_for: Callable[..., OllamaEmbeddingAdapter]
) -> None:
    async def one_short(writer: asyncio.StreamWriter, request: dict[str, Any]) -> None:
        await send(writer, 200, {"model": "all-minilm", "embeddings": [fake_vector("x")]})

    stub.script = [one_short]
    with pytest.raises(EmbeddingUnavailable, match="1 embeddings for 2 texts"):
        await adapter_for(stub.url).embed(["a", "b"])
