"""TimedEmbeddingAdapter: an EmbeddingPort decorator that records call latency in a histogram."""

from __future__ import annotations

import time
from collections.abc import Sequence

from prometheus_client import Histogram

from memlane.domain.model import Vector
from memlane.ports.embedding import EmbeddingPort, EmbedKind


class TimedEmbeddingAdapter(EmbeddingPort):
    """Delegates to `inner`; each embed call is observed under its kind (query, document)."""

    def __init__(self, inner: EmbeddingPort, histogram: Histogram) -> None:
        self._inner = inner
        self._histogram = histogram

    @property
    def model(self) -> str:
        return self._inner.model

    @property
    def dimension(self) -> int:
        return self._inner.dimension

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        started = time.perf_counter()
        try:
            return await self._inner.embed(texts, kind)
        finally:
            self._histogram.labels(kind).observe(time.perf_counter() - started)

    @property
    def same_space_models(self) -> frozenset[str]:
        return self._inner.same_space_models

    @property
    def window_tokens(self) -> int | None:
        return self._inner.window_tokens

    async def count_tokens(
        self, texts: Sequence[str], kind: EmbedKind = "document"
    ) -> list[int] | None:
        return await self._inner.count_tokens(texts, kind)

    async def ready(self) -> bool:
        return await self._inner.ready()

    async def close(self) -> None:
        await self._inner.close()
