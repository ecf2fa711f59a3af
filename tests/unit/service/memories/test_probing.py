"""The Prober's bounds: probes run in the background, a bounded number at once; what fails
in one is logged by its type and never reaches the write."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from uuid import uuid4

import pytest

from memlane.domain.model import Owner
from memlane.ports.facts import ProbeAnswer, ProbePort, ProbeRequest
from memlane.service.memories.probing import CONCURRENT_CALLS, MAX_PENDING, Probed, Prober

NOW = datetime(2030, 6, 1, tzinfo=UTC)
OWNER = Owner("t", "u")


class HeldProbe(ProbePort):
    """Answers an empty patch once released; counts the calls running at once."""

    def __init__(self) -> None:
        self.released = asyncio.Event()
        self.running = 0
        self.most = 0

    async def probe(self, request: ProbeRequest) -> ProbeAnswer:
        self.running += 1
        self.most = max(self.most, self.running)
        await self.released.wait()
        self.running -= 1
        return ProbeAnswer()

    async def close(self) -> None:
        """Nothing held."""


class BrokenProbe(HeldProbe):
    async def probe(self, request: ProbeRequest) -> ProbeAnswer:
        raise RuntimeError("secret words")


def items(count: int) -> list[Probed]:
    return [Probed(uuid4(), "Anna came over.", True, NOW) for _ in range(count)]


async def test_beyond_the_pending_bound_a_write_keeps_the_heuristics_result(
    caplog: pytest.LogCaptureFixture,
) -> None:
    probe = HeldProbe()
    prober = Prober(probe, lambda: NOW)
    with caplog.at_level(logging.WARNING):
        prober.schedule(OWNER, items(MAX_PENDING + 6))  # returns at once
    assert prober.counts.fallbacks["busy"] == 6
    assert caplog.text.count("model probe skipped") == 1
    for _ in range(5):
        await asyncio.sleep(0)
    probe.released.set()
    await prober.drain()
    assert prober.counts.calls == MAX_PENDING and probe.most <= CONCURRENT_CALLS


async def test_a_probe_that_raises_is_logged_by_its_type_only(
    caplog: pytest.LogCaptureFixture,
) -> None:
    prober = Prober(BrokenProbe(), lambda: NOW)
    with caplog.at_level(logging.WARNING):
        prober.schedule(OWNER, items(1))
        await prober.drain()
    assert "RuntimeError" in caplog.text and "secret" not in caplog.text


async def test_closing_abandons_the_probes_still_waiting() -> None:
    probe = HeldProbe()
    prober = Prober(probe, lambda: NOW)
    prober.schedule(OWNER, items(3))
    await asyncio.sleep(0)
    await prober.close()
    assert prober.counts.calls == 0
