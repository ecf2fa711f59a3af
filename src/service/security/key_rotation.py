"""MasterRotation: every wrapped data key rewrapped by a new master key, batch by batch."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from memlane.domain.errors import WrongEncryptionKey
from memlane.domain.security import RotationReport
from memlane.ports.clock import Clock, system_clock
from memlane.ports.installation import InstallationPort
from memlane.ports.security import DataKeyPort, KeyringPort

DEFAULT_BATCH = 500


class MasterRotation:
    """Online and resumable: rows name their wrapping master, so a rerun only meets the rows
    not yet rewrapped, and a process meeting a rewrapped key reads the new key file. No
    memory is touched: only the `data_keys` rows (one per owner, plus the root)."""

    def __init__(
        self,
        store: DataKeyPort,
        target: KeyringPort,
        installation: InstallationPort,
        install: Callable[[], None] | None = None,
        clock: Clock = system_clock,
    ) -> None:
        """`target` wraps by the new master and holds the old ones to unwrap with; `install`
        moves the new key file into place once the database records it."""
        self._install = install
        self._store = store
        self._target = target
        self._installation = installation
        self._clock = clock

    async def run(
        self,
        old_fingerprint: str,
        new_fingerprint: str,
        *,
        batch: int = DEFAULT_BATCH,
        max_batches: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> RotationReport:
        """Rewrap every key not yet under the new master; when a pass is whole, record the
        new master's fingerprint (the installation check accepts it from then on).
        `max_batches` stops early (an interrupted run, as a crash would leave it)."""
        if batch < 1:
            raise ValueError("batch must be at least 1")
        recorded = await self._installation.recorded_fingerprint()
        if recorded not in (old_fingerprint, new_fingerprint):
            raise WrongEncryptionKey(
                "the data's recorded master key is neither the key file in use nor the one "
                "being rotated to: rotate from the key the data was written with"
            )
        master = self._target.master_id
        done, batches, after = 0, 0, None
        while keys := await self._store.stale(master, after, batch):
            fresh = [self._target.rewrap(k) for k in keys]
            done += await self._store.rewrap(fresh, [k.master_id for k in keys], self._clock())
            after = keys[-1].owner
            batches += 1
            if progress is not None:
                progress(done)
            if max_batches is not None and batches >= max_batches:
                return RotationReport(master, done, await self._remaining(), finished=False)
        if recorded != new_fingerprint:
            await self._installation.replace_fingerprint(old_fingerprint, new_fingerprint)
        if self._install is not None:
            await asyncio.to_thread(self._install)
        return RotationReport(master, done, await self._remaining(), finished=True)

    async def _remaining(self) -> int:
        # Keys a process still on the old master wrapped behind this pass: the next run's.
        left, after = 0, None
        while keys := await self._store.stale(self._target.master_id, after, DEFAULT_BATCH):
            left += len(keys)
            after = keys[-1].owner
        return left


