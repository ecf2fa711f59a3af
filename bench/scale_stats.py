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


Interval = tuple[float, float]


def union(intervals: Sequence[Interval]) -> list[Interval]:
    """The intervals merged where they overlap, in time order."""
    merged: list[Interval] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def covered_ms(intervals: Sequence[Interval], minus: Sequence[Interval] = ()) -> float:
    """Milliseconds covered by `intervals` and not by `minus`."""
    total = 0.0
    others = union(minus)
    for start, end in union(intervals):
        total += end - start
        for other_start, other_end in others:
            total -= max(0.0, min(end, other_end) - max(start, other_start))
    return total * 1000


class Stopwatch:
    """Records when each wrapped awaitable ran (reset per query), labelled by method."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, float, float]] = []

    def reset(self) -> None:
        self.calls = []

    @property
    def intervals(self) -> list[Interval]:
        return [(start, end) for _, start, end in self.calls]

    @property
    def busy_ms(self) -> float:
        """The calls' durations summed (overlapping calls counted each)."""
        return sum(end - start for _, start, end in self.calls) * 1000

    def by_label_ms(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        for label, start, end in self.calls:
            totals[label] = totals.get(label, 0.0) + (end - start) * 1000
        return totals


class TimedEmbedder:
    """Delegates to an EmbeddingPort and records each embed call on a stopwatch."""

    def __init__(self, inner: Any, watch: Stopwatch) -> None:
        self._inner = inner
        self._watch = watch

    async def embed(self, texts: Any, kind: Any = "document") -> Any:
        started = time.perf_counter()
        try:
            return await self._inner.embed(texts, kind=kind)
        finally:
            self._watch.calls.append(("embed", started, time.perf_counter()))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class TimedMemories:
    """Delegates to a storage port and records every coroutine method it awaits."""

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
                self._watch.calls.append((name, started, time.perf_counter()))

        return timed
