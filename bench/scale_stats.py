"""Small statistics and timing helpers shared by the benchmarks."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


class Stopwatch:
    """Accumulates the time spent inside wrapped awaitables (one running total per query)."""

    def __init__(self) -> None:
        self.ms = 0.0

    def reset(self) -> None:
        self.ms = 0.0


class TimedEmbedder:
    """Delegates to an EmbeddingPort and adds each embed call's wall time to a stopwatch."""

    def __init__(self, inner: Any, watch: Stopwatch) -> None:
        self._inner = inner
        self._watch = watch

    async def embed(self, texts: Any, kind: Any = "document") -> Any:
        started = time.perf_counter()
        try:
            return await self._inner.embed(texts, kind=kind)
        finally:
            self._watch.ms += (time.perf_counter() - started) * 1000

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class TimedMemories:
    """Delegates to a MemoryPort and times every coroutine method it awaits."""

    def __init__(self, inner: Any, watch: Stopwatch) -> None:
        self._inner = inner
        self._watch = watch

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._inner, name)
        if not callable(attribute) or name in {"write_session", "export"}:
            return attribute

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await attribute(*args, **kwargs)
            finally:
                self._watch.ms += (time.perf_counter() - started) * 1000

        return timed
