"""The memory proxy in /metrics: requests forwarded, memory degraded, learning's queue."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from memlane.service.proxy import ChatProxy


class ProxyCollector(Collector):
    """Reads the proxy's and its learning queue's counters at scrape time."""

    def __init__(self) -> None:
        self.proxy: ChatProxy | None = None

    def collect(self) -> Iterator[Metric]:
        requests = CounterMetricFamily(
            "memlane_proxy_requests",
            "Chat completions forwarded upstream; degraded: without memory because memory "
            "failed; task: Open WebUI background tasks (no memory)",
            labels=["kind"],
        )
        learning = CounterMetricFamily(
            "memlane_proxy_learning",
            "Exchanges of proxied chats, by outcome: queued, stored, failed, dropped (queue "
            "full, or left at shutdown)",
            labels=["outcome"],
        )
        depth = GaugeMetricFamily(
            "memlane_proxy_learning_queue_depth", "Exchanges waiting to be learned"
        )
        proxy = self.proxy
        if proxy is not None:
            requests.add_metric(["forwarded"], proxy.forwarded)
            requests.add_metric(["degraded"], proxy.degraded)
            requests.add_metric(["task"], proxy.tasks)
            queue = proxy.learning
            for outcome in ("queued", "stored", "failed", "dropped"):
                learning.add_metric([outcome], getattr(queue, outcome))
            depth.add_metric([], queue.depth)
        yield requests
        yield learning
        yield depth
