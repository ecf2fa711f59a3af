"""Maintenance jobs: materialise decay, clean up faded memories, backfill missing embeddings."""

from __future__ import annotations

import asyncio
import logging
from uuid import UUID

from memlane.domain.errors import DecryptionFailed
from memlane.domain.model import Owner
from memlane.domain.policy import MemoryPolicy
from memlane.domain.reach import Reach
from memlane.domain.security import SYSTEM_DECAY
from memlane.ports.clock import Clock
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.memories import FadedMemoriesPort, MaintenancePort
from memlane.service.memories import audit as memory_audit
from memlane.service.security import AuditTrail, Sealer, acting_as, document_text, owners_of

log = logging.getLogger(__name__)

# Owners cleaned up side by side, each in its own transaction on its own connection: their
# round trips, trigger work and commits overlap (one at a time, 1,000 owners' transactions
# were most of a cleanup's time).
OWNERS_AT_ONCE = 4


class Maintenance:
    """The scheduled side of the service (CLI commands, background worker, admin API). With
    `trail`, each memory cleanup deletes is recorded (as `system:decay`); without `faded`,
    one statement deletes for everyone."""

    def __init__(
        self,
        maintenance: MaintenancePort,
        embedder: EmbeddingPort,
        sealer: Sealer,
        policy: MemoryPolicy,
        clock: Clock,
        trail: AuditTrail | None = None,
        faded: FadedMemoriesPort | None = None,
    ) -> None:
        self._maintenance = maintenance
        self._embedder = embedder
        self._sealer = sealer
        self._policy = policy
        self._clock = clock
        self._trail = trail
        self._faded = faded

    async def decay(self, owner: Reach) -> int:
        """Write importance(now) into the stored column; rows whose value changed."""
        now = self._clock()
        return await self._maintenance.materialise_decay(owner, now, self._policy.base_rate)

    async def cleanup(self, owner: Reach) -> int:
        """Delete the memories the cleanup rule lets go now (domain/memories/cleanup.py):
        unpinned, importance now <= min_importance, past the grace period after they were
        written or imported, and imported history only when it carries no fact and no name.

        Judged by the importance now (computed from the heat in the delete), so a memory that
        faded since the last decay run goes without decay being materialised first.

        With the audit trail on, it goes owner by owner: each owner's delete and its
        `deleted` events (actor `system:decay`) commit together under the owner's lock, which
        the per-owner hash chain needs. Without it, one statement deletes for everyone.
        """
        now, threshold, rate = self._clock(), self._policy.cleanup, self._policy.base_rate
        trail, faded = self._trail, self._faded
        if trail is None or not trail.enabled or faded is None:
            return await self._maintenance.cleanup(owner, threshold, now, rate)
        with acting_as(SYSTEM_DECAY):
            owners = await faded.owners(owner, threshold, now, rate)
            pending = iter(owners)

            async def clean() -> int:
                done = 0
                for each in pending:  # shared: each owner is taken by one of the workers
                    async with trail.change(each) as changes:
                        # One statement deletes the owner's faded rows; one appends their
                        # events.
                        ids = await faded.delete(each, threshold, now, rate)
                        changes.add(*(memory_audit.deleted(i) for i in ids))
                    done += len(ids)
                return done

            async with asyncio.TaskGroup() as group:
                workers = [group.create_task(clean())
                           for _ in range(min(OWNERS_AT_ONCE, len(owners)))]
        return sum(w.result() for w in workers)

    async def backfill(self, batch_size: int) -> int:
        """Embed memories stored while the embedder was down, batch by batch; rows embedded.

        Raises EmbeddingUnavailable if the embedder is still down (progress so far is kept).
        A row that cannot be decrypted is skipped and logged by id, never retried in this run.
        """
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        done = 0
        skipped: set[UUID] = set()
        while True:
            # Ask for enough rows to get past the ones this run already had to skip.
            rows = await self._maintenance.missing_embeddings(batch_size + len(skipped))
            rows = [r for r in rows if r.id not in skipped][:batch_size]
            if not rows:
                return done
            if self._trail is not None and self._trail.keyring is not None:
                await self._trail.keyring.ready(owners_of(rows))
            items: list[tuple[Owner, UUID, str]] = []
            for row in rows:
                try:
                    memory = self._sealer.open(row, self._clock())
                    items.append((row.owner, row.id, document_text(memory)))
                except DecryptionFailed:
                    log.error("backfill skips memory %s: its content does not decrypt", row.id)
                    skipped.add(row.id)
            if not items:
                continue
            vectors = await self._embedder.embed([text for _, _, text in items], kind="document")
            written = await self._maintenance.set_embeddings(
                [(o, i, v) for (o, i, _), v in zip(items, vectors, strict=True)],
                self._embedder.model,
            )
            done += written
            if written == 0:
                # Rows vanished between read and write (deleted concurrently): do not spin.
                skipped.update(memory_id for _, memory_id, _ in items)
