"""Liveness, readiness and Prometheus metrics: unauthenticated operational endpoints."""

from __future__ import annotations

import asyncio
from typing import Any

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.status_codes import HTTP_200_OK, HTTP_503_SERVICE_UNAVAILABLE

from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.api.metrics import ApiMetrics

# Litestar appends the charset (utf-8) to a text/* type itself: naming it here sent it twice.
PROMETHEUS_TEXT = "text/plain; version=0.0.4"


class HealthController(Controller):
    """Probes for orchestrators and scrapers; no token needed, no memory content shown."""

    path = "/"
    tags = ["operations"]

    @get("/healthz", operation_id="liveness", sync_to_thread=False)
    def healthz(self) -> dict[str, str]:
        """The process is up and serving."""
        return {"status": "ok"}

    @get("/readyz", operation_id="readiness")
    async def readyz(
        self, services: NamedDependency[ApiServices], config: NamedDependency[ApiConfig]
    ) -> Response[dict[str, Any]]:
        """Database and embedder both answer: 200; otherwise 503 naming what is down."""
        try:
            checks = await asyncio.wait_for(
                services.readiness(), timeout=config.readiness_timeout_ms / 1000
            )
        except Exception:  # a probe that times out or raises means "not ready"
            checks = {"database": False, "embedder": False}
        ready = bool(checks) and all(checks.values())
        body = {"status": "ready" if ready else "unavailable", "checks": checks}
        if ready:
            return Response(body, status_code=HTTP_200_OK)
        return Response(
            body,
            status_code=HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(config.retry_after_s)},
        )

    @get("/metrics", operation_id="metrics", media_type=PROMETHEUS_TEXT, sync_to_thread=False)
    def metrics(self, metrics: NamedDependency[ApiMetrics]) -> Response[bytes]:
        """Prometheus text exposition of this process's metrics."""
        return Response(metrics.exposition(), media_type=PROMETHEUS_TEXT)
