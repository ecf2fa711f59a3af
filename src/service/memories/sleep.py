"""The sleep cycle: merge near-duplicates, weave stories, prune faded links, from watermarks."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import reduce
from uuid import UUID

from memlane.domain.errors import InvalidMemory, MemoryNotFound, MemoryUnreadable
from memlane.domain.graph import HALF_LIFE_DAYS
from memlane.domain.memories import (
    DEFAULT_BATCH,
    MERGE_COST,
    NEAR_NEIGHBOURS,
    WEAVE_WEIGHT,
    Changed,
    Consolidation,
    NearPair,
    SleepReport,
    fragment_groups,
    in_time_order,
    merges_within,
    next_batch_size,
    watermarks,
)
from memlane.domain.model import Memory, Owner, Vector
from memlane.domain.policy import MemoryPolicy
from memlane.domain.reach import Reach
from memlane.domain.security import SYSTEM_CONSOLIDATION
from memlane.ports.clock import Clock
from memlane.ports.memories import MemoryStorePort, SleepPort, SleepStep
from memlane.service.memories.consolidation import Consolidator, Draft
from memlane.service.memories.drafting import kept_apart
from memlane.service.memories.merging import merged_content
from memlane.service.security import AuditTrail, Sealer, acting_as

log = logging.getLogger(__name__)

# Edge kinds that fade, with their half-lives in days: the only ones pruning looks at.
FADING = {kind.value: days for kind, days in HALF_LIFE_DAYS.items() if days is not None}


class SleepCycle:
    """One cycle over a reach (a user, a tenant, everyone), batch by batch from each owner's
    watermark to the cycle's start, then one pruning statement. Idempotent: what it merged
    is superseded (never merged again), a link it wove is there (never added again), a link
    it pruned is gone; a second cycle over the same memories changes nothing. Resumable: a
    batch moves its owners' watermarks when it is done, so a cycle stopped between two
    batches goes on from there, and one stopped inside a batch does that batch again.
    Bounded: a run given a budget reads at most that many memories, and says how many are
    left for the next (the first cycle after an upgrade reads every memory: a scheduled run
    must not hold the database for minutes). `steps` (the clusters) and pruning run after
    the batches, by the run that leaves nothing to read."""

    def __init__(
        self,
        port: SleepPort,
        store: MemoryStorePort,
        consolidator: Consolidator,
        sealer: Sealer,
        policy: MemoryPolicy,
        clock: Clock,
        trail: AuditTrail | None = None,
        steps: Sequence[SleepStep] = (),
    ) -> None:
        self._port = port
        self._store = store
        self._consolidator = consolidator
        self._sealer = sealer
        self._policy = policy
        self._clock = clock
        self._trail = trail
        self._steps = tuple(steps)

    async def pending(self, reach: Reach) -> int:
        """Memories the next cycle would read (for a progress bar's total)."""
        return await self._port.pending(reach, self._clock())

    async def bounded(self, reach: Reach) -> SleepReport:
        """A run within `graph.sleep_budget`: the worker's, and the API's."""
        return await self.run(reach, budget=self._policy.graph.sleep_budget)

    async def run(
        self,
        reach: Reach,
        progress: Callable[[int], object] | None = None,
        batch_size: int = DEFAULT_BATCH,
        budget: int | None = None,
    ) -> SleepReport:
        """The cycle; `progress` hears each batch's size as it is done. With a `budget` it
        stops starting batches once the memories read, and its merges at MERGE_COST each,
        reach it (None: every memory pending)."""
        if batch_size < 1 or (budget is not None and budget < 1):
            raise ValueError("batch_size and budget must be at least 1")
        now = self._clock()
        report = SleepReport()
        # What the cycle merges is recorded as the background job's, not a person's.
        with acting_as(SYSTEM_CONSOLIDATION):
            while (size := next_batch_size(batch_size, budget, report)) and (
                    batch := await self._port.changed(reach, now, size)):
                # The merges this batch may make before the run's budget is spent.
                allowed = len(batch) if budget is None else (
                    budget - report.spent - len(batch)) // MERGE_COST
                done, count = await self._batch(batch, now, allowed)
                report = report.plus(done)
                await self._port.advance(watermarks(batch[:count]))
                if progress is not None:
                    progress(count)
            left = 0
            if budget is not None and report.spent >= budget:
                left = await self._port.pending(reach, now)
            # The rest of the cycle (steps, pruning) is over the whole reach: once, by the
            # run that finishes the backlog, not by each bounded run of it.
            report = report.plus(
                SleepReport(left=left) if left else await self._finish(reach, now))
        log.info("sleep cycle: %s", report.as_dict())
        return report

    async def _finish(self, reach: Reach, now: datetime) -> SleepReport:
        report = SleepReport()
        for step in self._steps:
            report = report.plus(await step(reach, now))
        pruned = await self._port.prune(
            reach, now, self._policy.graph.min_edge_strength, FADING)
        return report.plus(SleepReport(pruned=pruned))

    async def _batch(
        self, batch: Sequence[Changed], now: datetime, allowed: int
    ) -> tuple[SleepReport, int]:
        """What the batch did, and how many of its memories are done (merges beyond
        `allowed` wait for the next run, from the first memory they involve)."""
        pairs = await self._port.near_duplicates(
            batch, self._policy.merge_threshold, NEAR_NEIGHBOURS)
        merged, count = await self._merge(batch, pairs, allowed) if pairs else (
            SleepReport(), len(batch))
        woven = 0
        if self._policy.graph.enabled:  # a link woven twice is there once: idempotent
            woven = await self._port.weave(
                batch[:count], now, WEAVE_WEIGHT, self._policy.graph.entity_max_share)
        return merged.plus(SleepReport(scanned=count, woven=woven)), count

    async def _merge(
        self, batch: Sequence[Changed], pairs: Sequence[NearPair], allowed: int
    ) -> tuple[SleepReport, int]:
        """Each group of near-duplicates becomes one consolidated memory (the Consolidator's
        transaction: sources kept as superseded history, linked, recorded)."""
        ids: dict[Owner, set[UUID]] = {}
        for pair in pairs:
            ids.setdefault(pair.owner, set()).update((pair.first, pair.second))
        if self._trail is not None and self._trail.keyring is not None:
            await self._trail.keyring.ready(list(ids))
        opened: dict[UUID, Memory] = {}
        for owner, owned in ids.items():  # one read per owner that has a pair
            now = self._clock()
            for stored in await self._store.get_many(owner, list(owned), indexed=False):
                if (memory := self._sealer.readable(stored, now)) is not None:
                    opened[memory.id] = memory
        mergeable = {i: not kept_apart(m.metadata) for i, m in opened.items()}
        taken, count = merges_within(batch, fragment_groups(pairs, mergeable), allowed)
        drafts: list[Draft] = []
        report = SleepReport()
        for owner, group in taken:
            draft = await self._draft(owner, [opened[i] for i in group])
            if draft is None:
                report = report.plus(SleepReport(skipped=1))
            else:
                drafts.append(draft)
        if drafts:
            # Every merge of the batch embeds in one call: the model's cost is per call.
            vectors = await self._consolidator.vectors(drafts)
            for draft, vector in zip(drafts, vectors, strict=True):
                report = report.plus(await self._commit(draft, vector))
        return report, count

    async def _draft(self, owner: Owner, sources: list[Memory]) -> Draft | None:
        ordered = in_time_order(sources)
        # As a write folds a repeat in: what a later fragment adds is appended once.
        content = reduce(merged_content, (m.content for m in ordered[1:]), ordered[0].content)
        try:
            return await self._consolidator.draft(
                owner, Consolidation(tuple(m.id for m in ordered), content))
        except (InvalidMemory, MemoryNotFound, MemoryUnreadable) as error:
            _unmerged(len(sources), error)
            return None

    async def _commit(self, draft: Draft, vector: Vector | None) -> SleepReport:
        try:
            await self._consolidator.commit(draft, vector)
        except MemoryNotFound as error:
            _unmerged(len(draft.sources), error)
            return SleepReport(skipped=1)
        return SleepReport(merged=1, sources=len(draft.sources))


def _unmerged(count: int, error: Exception) -> None:
    # Too long to merge, or a source gone meanwhile: left as they are, counted as skipped.
    log.info("sleep cycle leaves %d memories unmerged: %s", count, type(error).__name__)
