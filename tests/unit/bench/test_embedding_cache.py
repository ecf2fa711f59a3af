"""The bench's embedding cache gives exactly the model's vectors, per model and kind, and
notices a model that changed under the same name."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from bench.embedding_cache import CachingEmbedder, EmbeddingCacheStore, StaleEmbeddingCache

from memlane.adapters.embedding.delegating import DelegatingEmbedder
from memlane.adapters.embedding.timed import TimedEmbeddingAdapter
from memlane.domain.model import Vector
from memlane.ports.embedding import EmbeddingPort, EmbedKind


class CountingEmbedder(EmbeddingPort):
    """Vectors from the text's bytes (float64, not float32-exact); queries differ from
    documents, like e5's prefixes; `shift` plays a re-quantised model under the same name."""

    def __init__(self, name: str = "m", shift: float = 0.0) -> None:
        self._name = name
        self.shift = shift
        self.asked: list[str] = []

    @property
    def model(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return 3

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        self.asked += texts
        bonus = 0.5 if kind == "query" else 0.0
        return [[len(t) / 7 + bonus + self.shift, sum(t.encode()) / 1e3, 0.1] for t in texts]


@pytest.fixture
def store(tmp_path: Path) -> EmbeddingCacheStore:
    return EmbeddingCacheStore(tmp_path / "cache.sqlite3")


async def test_a_cached_vector_is_exactly_what_the_model_gave(store: EmbeddingCacheStore) -> None:
    model = CountingEmbedder()
    expected = await model.embed(["one", "three"])
    cached = CachingEmbedder(CountingEmbedder(), store)
    await cached.embed(["one", "three"])
    again = CachingEmbedder(CountingEmbedder(), store)
    got = await again.embed(["three", "one"])
    assert again.hits == 2 and again.misses == 0
    assert [list(v) for v in got] == [expected[1], expected[0]]


async def test_only_missing_texts_reach_the_model_once_each(store: EmbeddingCacheStore) -> None:
    inner = CountingEmbedder()
    cached = CachingEmbedder(inner, store)
    await cached.embed(["a"])
    got = await cached.embed(["b", "a", "b"])
    assert inner.asked == ["a", "b"]
    assert np.array_equal(got[0], got[2])


async def test_kinds_and_models_are_kept_apart(store: EmbeddingCacheStore) -> None:
    await CachingEmbedder(CountingEmbedder("m"), store).embed(["x"], kind="document")
    query = await CachingEmbedder(CountingEmbedder("m"), store).embed(["x"], kind="query")
    other = CountingEmbedder("n")
    await CachingEmbedder(other, store).embed(["x"], kind="document")
    assert query[0][0] == pytest.approx(1 / 7 + 0.5)
    assert other.asked == ["x"]


async def test_float32_vectors_come_back_as_float32(store: EmbeddingCacheStore) -> None:
    class Float32Embedder(CountingEmbedder):
        async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
            return [np.asarray(v, dtype=np.float32) for v in await super().embed(texts, kind)]

    first = await CachingEmbedder(Float32Embedder(), store).embed(["x"])
    second = await CachingEmbedder(Float32Embedder(), store).embed(["x"])
    assert np.asarray(second[0]).dtype == np.float32
    assert np.array_equal(first[0], second[0])


async def test_a_model_that_changed_under_its_name_is_noticed(store: EmbeddingCacheStore) -> None:
    await CachingEmbedder(CountingEmbedder(), store).embed(["x", "y"])
    assert await CachingEmbedder(CountingEmbedder(), store).verify() == 2
    with pytest.raises(StaleEmbeddingCache):
        await CachingEmbedder(CountingEmbedder(shift=1e-3), store).verify()
    store.forget("m")
    assert store.get("m", "document", ["x", "y"]) == {}


async def test_the_token_window_and_counts_are_the_models(store: EmbeddingCacheStore) -> None:
    class WindowedEmbedder(CountingEmbedder):
        @property
        def window_tokens(self) -> int | None:
            return 512

        async def count_tokens(
            self, texts: Sequence[str], kind: EmbedKind = "document"
        ) -> list[int] | None:
            return [len(t.split()) for t in texts]

    cached = CachingEmbedder(WindowedEmbedder(), store)
    assert cached.window_tokens == 512
    assert await cached.count_tokens(["a b c"]) == [3]
    assert CachingEmbedder(CountingEmbedder(), store).window_tokens is None


def test_the_cache_and_the_timer_pass_on_every_member_of_the_port() -> None:
    # A member the port gains later (a token window, say) must be delegated, or a cached or
    # timed run would behave unlike a bare one.
    members = {n for n in vars(EmbeddingPort) if not n.startswith("_")}
    assert members <= set(vars(DelegatingEmbedder))
    assert issubclass(CachingEmbedder, DelegatingEmbedder)
    assert issubclass(TimedEmbeddingAdapter, DelegatingEmbedder)
