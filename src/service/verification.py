"""`memlane verify`: open every sealed memory, report the ones that fail, quarantine them."""

from __future__ import annotations

import logging
from collections.abc import Callable

from memlane.domain.integrity import RowKey, UnreadableRow, VerifyReport
from memlane.ports.clock import Clock, system_clock
from memlane.ports.integrity import IntegrityPort
from memlane.service.keyring import KeyringService, owners_of
from memlane.service.sealing import Sealer

log = logging.getLogger(__name__)
DEFAULT_BATCH_ROWS = 500


class Verifier:
    """Streams every memory of every owner in batches and checks each sealed field."""

    def __init__(
        self, integrity: IntegrityPort, sealer: Sealer, clock: Clock = system_clock,
        keyring: KeyringService | None = None,
    ):
        self._keyring = keyring
        self._integrity = integrity
        self._sealer = sealer
        self._clock = clock

    async def verify(
        self,
        *,
        batch_rows: int = DEFAULT_BATCH_ROWS,
        quarantine: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> VerifyReport:
        """Check every ciphertext; with `quarantine`, move each bad row out of the live
        tables as its batch is done. `progress` hears the rows checked so far."""
        if batch_rows < 1:
            raise ValueError("batch_rows must be at least 1")
        checked, moved = 0, 0
        bad: list[UnreadableRow] = []
        after: RowKey | None = None
        while batch := await self._integrity.sealed_batch(after, batch_rows):
            if self._keyring is not None:
                await self._keyring.ready(owners_of(batch))
            found = [
                UnreadableRow(row.owner, row.id, fields)
                for row in batch
                if (fields := self._sealer.unreadable_fields(row))
            ]
            for row in found:
                # Ids and field names only: nothing of the content is known, nor logged.
                log.warning("memory %s of %s/%s: %s does not decrypt", row.memory_id,
                            row.owner.tenant, row.owner.user_id, ",".join(row.fields))
            if quarantine and found:
                moved += await self._integrity.quarantine(found, self._clock())
            bad.extend(found)
            checked += len(batch)
            last = batch[-1]
            after = (last.owner.tenant, last.owner.user_id, last.id)
            if progress is not None:
                progress(checked)
        return VerifyReport(checked=checked, unreadable=tuple(bad), quarantined=moved)
