"""Maintenance and operations as Calls: decay, cleanup, the sleep cycle, liveness, readiness,
metrics."""

from __future__ import annotations

import msgspec

from memlane.domain.memories import SleepReport

from . import wire
from .call import Call, query
from .types import Readiness


class _WireReadiness(msgspec.Struct):
    status: str
    checks: dict[str, bool] = msgspec.field(default_factory=dict)


def _readiness(raw: bytes) -> Readiness:
    answer = msgspec.json.decode(raw, type=_WireReadiness)
    return Readiness(ready=answer.status == "ready", checks=answer.checks)


def decay(*, user_id: str | None = None) -> Call[int]:
    """Materialise current importance now (idempotent); the number of memories changed.

    An admin key naming no user runs it for everyone."""
    return Call("POST", "/v1/memories/decay", wire.affected, params=query(user_id=user_id))


def cleanup(*, user_id: str | None = None) -> Call[int]:
    """Delete unpinned memories faded to min_importance; the number deleted."""
    return Call("POST", "/v1/memories/cleanup", wire.affected, params=query(user_id=user_id))


def _sleep_report(raw: bytes) -> SleepReport:
    # The report is a plain dataclass: msgspec fills it, `scope` and fields newer than this
    # client are passed over, fields an older server lacks keep their zero.
    return msgspec.json.decode(raw, type=SleepReport)


def consolidation_cycle(*, user_id: str | None = None) -> Call[SleepReport]:
    """The sleep cycle over what changed since the last one (merge near-duplicates, weave
    stories, prune faded links); what it did. An admin key naming no user runs it for its
    tenant."""
    return Call("POST", "/v1/memories/consolidate/cycle", _sleep_report,
                params=query(user_id=user_id))


def health() -> Call[bool]:
    """Liveness: the server process answers."""
    return Call("GET", "/healthz", lambda raw: True)


def ready() -> Call[Readiness]:
    """Readiness: database and embedder both answer (a 503 here is an answer, not retried)."""
    return Call("GET", "/readyz", _readiness, accept=frozenset({503}), retry=False)


def metrics() -> Call[str]:
    """The Prometheus text exposition of the server process."""
    return Call("GET", "/metrics", lambda raw: raw.decode())
