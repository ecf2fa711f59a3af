"""TimedEmbeddingAdapter: an EmbeddingPort decorator that records call latency in a histogram."""

from __future__ import annotations

import time
from collections.abc import Sequence

from prometheus_client import Histogram

from memlane.adapters.embedding.delegating import DelegatingEmbedder
from memlane.domain.model import Vector
from memlane.ports.embedding import EmbeddingPort, EmbedKind


class TimedEmbeddingAdapter(DelegatingEmbedder):
    """Delegates to `inner`; each embed call is observed under its kind (query, document)."""

    def __init__(self, inner: EmbeddingPort, histogram: Histogram) -> None:
        super().__init__(inner)
        self._histogram = histogram

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        started = time.perf_counter()
        try:
            return await self._inner.embed(texts, kind)
        finally:
            self._histogram.labels(kind).observe(time.perf_counter() - started)
