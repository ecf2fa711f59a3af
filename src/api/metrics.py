"""Prometheus metrics: one registry per app, request latency by route template, and more."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, SummaryMetricFamily
from prometheus_client.registry import Collector

from memlane.api.proxy_metrics import ProxyCollector
from memlane.ports.embedding import EmbeddingPort
from memlane.service.memories import DecayWorker, GateCounts, Prober
from memlane.service.proxy import ChatProxy

_LATENCY_BUCKETS_S = (0.002, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)


class _WorkerCollector(Collector):
    """Reads the background worker's counters at scrape time."""

    def __init__(self) -> None:
        self.worker: DecayWorker | None = None

    def collect(self) -> Iterator[CounterMetricFamily]:
        runs = CounterMetricFamily(
            "memlane_worker_decay_runs", "Background decay runs, by outcome", labels=["outcome"]
        )
        worker = self.worker
        if worker is not None:
            runs.add_metric(["ran"], worker.runs)
            runs.add_metric(["skipped_not_leader"], worker.skipped)
            runs.add_metric(["failed"], worker.failures)
        yield runs


class _GateCollector(Collector):
    """Reads the heuristic gate's counts at scrape time (docs/levels.md)."""

    def __init__(self) -> None:
        self.counts: GateCounts | None = None

    def collect(self) -> Iterator[CounterMetricFamily]:
        segments = CounterMetricFamily(
            "memlane_gate_segments", "Conversation segments the heuristic gate read, by outcome",
            labels=["outcome"])
        triggers = CounterMetricFamily(
            "memlane_gate_triggers", "Why the heuristic gate fired, by trigger",
            labels=["trigger"])
        seconds = CounterMetricFamily(
            "memlane_gate_seconds", "Time the heuristic gate spent reading segments")
        counts = self.counts
        if counts is not None:
            segments.add_metric(["fired"], counts.fired)
            segments.add_metric(["silent"], counts.segments - counts.fired)
            for trigger, count in sorted(counts.triggers.items()):
                triggers.add_metric([trigger], count)
            seconds.add_metric([], counts.seconds)
        yield segments
        yield triggers
        yield seconds


class _EmbeddingCollector(Collector):
    """Reads at scrape time how many texts the embedder cut to its window."""

    def __init__(self) -> None:
        self.embedder: EmbeddingPort | None = None

    def collect(self) -> Iterator[CounterMetricFamily]:
        cut = CounterMetricFamily(
            "memlane_embedding_texts_cut",
            "Texts longer than the model's window: only their first window was embedded")
        count = None if self.embedder is None else self.embedder.texts_cut
        if count is not None:
            cut.add_metric([], count)
        yield cut


class _ProbeCollector(Collector):
    """Reads the optional model probe's counts at scrape time (docs/levels.md)."""

    def __init__(self) -> None:
        self.prober: Prober | None = None

    def collect(self) -> Iterator[CounterMetricFamily | SummaryMetricFamily]:
        seconds = SummaryMetricFamily(
            "memlane_probe_seconds", "Model probe calls on fired segments and their time")
        fallbacks = CounterMetricFamily(
            "memlane_probe_fallbacks",
            "Fired segments the model probe left to the heuristics, by reason", labels=["reason"])
        applied = CounterMetricFamily(
            "memlane_probe_patches", "Graph patches of the model probe stored")
        if self.prober is not None:
            counts = self.prober.counts
            seconds.add_metric([], count_value=counts.calls, sum_value=counts.seconds)
            for reason, count in sorted(counts.fallbacks.items()):
                fallbacks.add_metric([reason], count)
            applied.add_metric([], counts.applied)
        yield seconds
        yield fallbacks
        yield applied


class ApiMetrics:
    """The app's instruments. A fresh registry per instance, so apps and tests never clash."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry(auto_describe=True)
        self.request_seconds = Histogram(
            "memlane_http_request_duration_seconds",
            "HTTP request latency by method, route template and status",
            ["method", "route", "status"],
            buckets=_LATENCY_BUCKETS_S,
            registry=self.registry,
        )
        self.embedding_seconds = Histogram(
            "memlane_embedding_duration_seconds",
            "Embedding call latency by kind",
            ["kind"],
            buckets=_LATENCY_BUCKETS_S,
            registry=self.registry,
        )
        self.memories_stored = Counter(
            "memlane_memories_stored",
            "Memories written through the API, by outcome (new or merged)",
            ["outcome"],
            registry=self.registry,
        )
        self.unreadable_memories = Counter(
            "memlane_memories_unreadable",
            "Memories left out of a read (or refused by id) because they do not decrypt",
            registry=self.registry,
        )
        self.unreadable_records = Counter(
            "memlane_records_unreadable",
            "Facts and audit events left out of a read (or refused by id): they do not decrypt",
            ["kind"],
            registry=self.registry,
        )
        self.decay_runs = Counter(
            "memlane_decay_runs",
            "Decay runs requested through the API",
            registry=self.registry,
        )
        self._worker = _WorkerCollector()
        self.registry.register(self._worker)
        self._proxy = ProxyCollector()
        self.registry.register(self._proxy)
        self._gate = _GateCollector()
        self.registry.register(self._gate)
        self._probe = _ProbeCollector()
        self.registry.register(self._probe)
        self._embedding = _EmbeddingCollector()
        self.registry.register(self._embedding)

    def watch_probe(self, prober: Prober | None) -> None:
        self._probe.prober = prober

    def watch_embedder(self, embedder: EmbeddingPort | None) -> None:
        self._embedding.embedder = embedder

    def watch_gate(self, counts: GateCounts | None) -> None:
        self._gate.counts = counts

    def watch_worker(self, worker: DecayWorker | None) -> None:
        self._worker.worker = worker

    def watch_proxy(self, proxy: ChatProxy | None) -> None:
        self._proxy.proxy = proxy

    def unreadable(self, record_id: object, kind: str = "memory") -> None:
        """The service's report of a record that does not decrypt (counted by kind, never
        labelled by id: the warning in the log names it)."""
        if kind == "memory":
            self.unreadable_memories.inc()
        else:
            self.unreadable_records.labels(kind).inc()

    def stored(self, merged: bool) -> None:
        self.memories_stored.labels("merged" if merged else "new").inc()

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    def middleware(self, app: Any) -> Any:
        """ASGI middleware timing each HTTP request under its route template (not its path,
        which would explode label cardinality with ids)."""
        histogram = self.request_seconds

        async def timed(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            started = time.perf_counter()
            status = [500]

            async def send_wrapper(message: Any) -> None:
                if message["type"] == "http.response.start":
                    status[0] = message["status"]
                await send(message)

            try:
                await app(scope, receive, send_wrapper)
            finally:
                route = scope.get("path_template") or "unmatched"
                histogram.labels(scope["method"], route, str(status[0])).observe(
                    time.perf_counter() - started
                )

        return timed

