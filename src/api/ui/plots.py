"""The statistics page's plots as SVG geometry: forgetting curves per type, the embedding gap."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from memlane.domain.memories import TYPE_DECAY, importance_at
from memlane.domain.model import Heat, Memory, MemoryStats, MemoryType

WIDTH, HEIGHT = 760, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 20, 44  # margins: the legend sits on the right
CURVE_DAYS = 120
CURVE_STEP_DAYS = 2


@dataclass(frozen=True, slots=True)
class Curve:
    memory_type: str
    points: str  # "x,y x,y …" for an SVG polyline
    floor_y: float
    label_y: float


@dataclass(frozen=True, slots=True)
class Dot:
    x: float
    y: float
    memory_type: str
    title: str


@dataclass(frozen=True, slots=True)
class LinePlot:
    width: int
    height: int
    left: int
    top: int
    right_edge: float
    bottom_edge: float
    curves: tuple[Curve, ...]
    dots: tuple[Dot, ...]
    x_ticks: tuple[tuple[float, str], ...]
    y_ticks: tuple[tuple[float, str], ...]


def _x(days: float) -> float:
    return round(LEFT + (WIDTH - LEFT - RIGHT) * min(days, CURVE_DAYS) / CURVE_DAYS, 1)


def _y(importance: float) -> float:
    return round(TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - importance), 1)


def forgetting_curves(
    base_rate: float, now: datetime, memories: Iterable[Memory] = ()
) -> LinePlot:
    """Importance over days since the last use for each type, from `importance_at` (a memory
    stored at importance 1 and never read again), and the user's memories as dots at their
    age and current importance (older than the axis: on its right edge)."""
    start = now - timedelta(days=CURVE_DAYS)
    fresh = Heat(base_importance=1.0, access_count=0, accessed_at=start)
    # Legend rows on the right in the order the floors stack (highest first).
    order = sorted(MemoryType, key=lambda t: -TYPE_DECAY[t].floor)
    curves = tuple(
        Curve(
            memory_type.value,
            " ".join(
                f"{_x(day)},"
                f"{_y(importance_at(fresh, memory_type, start + timedelta(days=day), base_rate))}"
                for day in range(0, CURVE_DAYS + 1, CURVE_STEP_DAYS)
            ),
            floor_y=_y(TYPE_DECAY[memory_type].floor),
            label_y=TOP + 14 + 18 * row,
        )
        for row, memory_type in enumerate(order)
    )
    dots = tuple(
        Dot(
            _x((now - m.created_at).total_seconds() / 86_400), _y(m.importance),
            m.memory_type.value, f"{m.memory_type.value}, importance {m.importance:.2f}",
        )
        for m in memories
    )
    return LinePlot(
        WIDTH, HEIGHT, LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM, curves, dots,
        x_ticks=tuple((_x(d), str(d)) for d in range(0, CURVE_DAYS + 1, 20)),
        y_ticks=tuple((_y(v / 10), f"{v / 10:.1f}") for v in range(0, 11, 2)),
    )


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    count: int
    y: float
    width: float
    css: str


@dataclass(frozen=True, slots=True)
class BarChart:
    width: int
    height: int
    left: int
    bars: tuple[Bar, ...]


def count_bars(stats: MemoryStats) -> BarChart:
    """Memories with an embedding, those waiting for one, and the count of each type."""
    rows = [
        ("embedded", stats.with_embeddings, "embedded"),
        ("waiting for an embedding", waiting_for_embedding(stats), "waiting"),
        *((t.value, stats.by_type.get(t.value, 0), f"type-{t.value}") for t in MemoryType),
    ]
    left, span, row_height = 190, WIDTH - 190 - 80, 26
    largest = max([1, *(count for _, count, _ in rows)])
    bars = tuple(
        Bar(label, count, 10 + row_height * index, round(span * count / largest, 1), css)
        for index, (label, count, css) in enumerate(rows)
    )
    return BarChart(WIDTH, 20 + row_height * len(rows), left, bars)


def waiting_for_embedding(stats: MemoryStats) -> int:
    """Stored without a vector (the embedder was down): `memlane backfill` embeds them."""
    return max(0, stats.total - stats.with_embeddings)
