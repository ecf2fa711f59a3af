"""The optional model probe: a fired segment is read after its write, the patch applied apart."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from memlane.domain.facts import EdgeChange, GraphPatch, PatchEdge, Statement, grounded
from memlane.domain.graph import Edge, EdgeKind
from memlane.domain.model import Owner
from memlane.ports.clock import Clock
from memlane.ports.facts import ProbePort, ProbeRequest
from memlane.ports.graph import GraphPort
from memlane.service.entities import EntityLinker
from memlane.service.facts import FactRecorder

log = logging.getLogger(__name__)

# Probes waiting or running at once; beyond, a segment keeps the heuristics' result ("busy"):
# a slow model must not pile up tasks without bound under a stream of writes.
MAX_PENDING = 64
# A local model answers few requests in parallel: more at once would only time out together.
CONCURRENT_CALLS = 2
# A node a model names makes an entity (MIN_SALIENCE is 0.5) but ranks below a cue's.
MODEL_SALIENCE = 0.6
# The memories an edge to a name reaches: the most salient mentions of it.
TARGETS_PER_NAME = 3


@dataclass
class ProbeCounts:
    """The probe's calls since start, its fallbacks by reason, its time, for /metrics."""

    calls: int = 0
    fallbacks: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    applied: int = 0  # patches stored (a fallback stores none)


@dataclass(frozen=True, slots=True)
class Probed:
    """A memory to probe: its id, its text, whether the text is the user's own words (a
    transcript's is someone else's "I": its facts are not the user's), when it was said."""

    memory_id: UUID
    text: str
    users_words: bool
    said_at: datetime


class Prober:
    """Runs the probe in the background after a write's commit, so a write never waits for
    the model; applies each patch in its own steps through the graph, entity and fact paths
    (a fact the model reads meets the same one-truth and supersession rules)."""

    def __init__(
        self,
        probe: ProbePort,
        clock: Clock,
        graph: GraphPort | None = None,
        names: EntityLinker | None = None,
        facts: FactRecorder | None = None,
        cap_per_node: int = 20,
    ) -> None:
        self._probe = probe
        self._clock = clock
        self._graph = graph
        self._names = names
        self._facts = facts
        self._cap = cap_per_node
        self._tasks: set[asyncio.Task[None]] = set()
        self._calls: asyncio.Semaphore | None = None  # made in the loop that runs the probes
        self.counts = ProbeCounts()

    def schedule(self, owner: Owner, probed: Sequence[Probed]) -> None:
        """Probe each memory in the background; returns at once."""
        busy = 0
        for item in probed:
            if len(self._tasks) >= MAX_PENDING:
                busy += 1
                continue
            task = asyncio.get_running_loop().create_task(self._run(owner, item))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if busy:  # one line per write, not per segment (an import writes hundreds)
            self.counts.fallbacks["busy"] += busy
            log.warning("model probe skipped for %d memories: %d pending", busy, MAX_PENDING)

    async def drain(self) -> None:
        """Wait for every probe scheduled so far (a test, an orderly stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Abandon the probes still running: their writes have committed already."""
        for task in list(self._tasks):
            task.cancel()
        await self.drain()

    async def _run(self, owner: Owner, item: Probed) -> None:
        try:
            known = await self._known(owner, item.memory_id)
            if self._calls is None:
                self._calls = asyncio.Semaphore(CONCURRENT_CALLS)
            async with self._calls:
                started = time.perf_counter()
                answer = await self._probe.probe(ProbeRequest(item.text, tuple(known)))
                self.counts.calls += 1
                self.counts.seconds += time.perf_counter() - started
            if answer.fallback is not None:
                self.counts.fallbacks[answer.fallback] += 1
                return
            patch = grounded(answer.patch, item.text, known)
            if not item.users_words:
                patch = GraphPatch(patch.nodes, patch.edges)
            await self._apply(owner, item, patch)
            self.counts.applied += 0 if patch.empty else 1
        except Exception as error:  # the write stands; the type only, never what was said
            log.warning("model probe of a memory not applied: %s", type(error).__name__)

    async def _known(self, owner: Owner, memory_id: UUID) -> list[str]:
        """The names the memory and the memories linked to it mention (its context)."""
        if self._names is None:
            return []
        around = [memory_id]
        if self._graph is not None:
            edges = await self._graph.edges_of(owner, [memory_id])
            around += list(dict.fromkeys(
                e.target if e.source == memory_id else e.source for e in edges))
        return await self._names.names_of(owner, around)

    async def _apply(self, owner: Owner, item: Probed, patch: GraphPatch) -> None:
        now = self._clock()
        if patch.nodes and self._names is not None:
            await self._names.restore(owner, [
                (item.memory_id, n.name, n.kind, MODEL_SALIENCE) for n in patch.nodes
            ], now)
        if patch.edges and self._names is not None and self._graph is not None:
            await self._edges(owner, item.memory_id, patch.edges, now)
        if patch.facts and self._facts is not None:
            await self._facts.apply(owner, [
                Statement(fact, item.memory_id, item.said_at) for fact in patch.facts
            ])

    async def _edges(
        self, owner: Owner, memory_id: UUID, asked: Sequence[PatchEdge], now: datetime
    ) -> None:
        assert self._names is not None and self._graph is not None
        named = await self._names.naming(
            owner, list(dict.fromkeys(e.to for e in asked)), TARGETS_PER_NAME + 1)
        # The edges between the memory and another, of a kind, whichever way they point.
        existing: dict[tuple[UUID, EdgeKind], list[Edge]] = {}
        for e in await self._graph.edges_of(owner, [memory_id]):
            other = e.target if e.source == memory_id else e.source
            existing.setdefault((other, e.kind), []).append(e)
        stored: list[Edge] = []
        for change in asked:
            targets = [t for t in named.get(change.to, []) if t != memory_id][:TARGETS_PER_NAME]
            for target in targets:
                if change.change is EdgeChange.ADD and change.strength > 0:
                    stored.append(Edge(memory_id, target, change.kind, change.strength, now, now))
                for old in existing.get((target, change.kind), []):
                    stored += await self._changed(owner, old, change, now)
        if stored:
            await self._graph.add_edges(owner, stored, cap_per_node=self._cap)

    async def _changed(
        self, owner: Owner, old: Edge, change: PatchEdge, now: datetime
    ) -> list[Edge]:
        """An existing edge as `strengthen` or `weaken` leaves it: to store again, or none."""
        assert self._graph is not None
        again = Edge(old.source, old.target, old.kind, change.strength, old.created_at, now)
        if change.change is EdgeChange.STRENGTHEN and old.weight < change.strength:
            return [again]  # storing keeps the stronger weight
        if change.change is EdgeChange.WEAKEN and old.weight > change.strength:
            # Storing keeps the stronger weight: the edge goes, then comes back weaker.
            await self._graph.remove_edge(owner, old.source, old.target, old.kind)
            return [again] if change.strength > 0 else []
        return []
