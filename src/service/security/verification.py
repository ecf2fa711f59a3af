"""`memlane verify`: open every sealed memory, fact and audit payload, report the ones that
fail, quarantine the memories."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from memlane.domain.security import AuditEvent, RowKey, UnreadableRow, VerifyReport
from memlane.ports.clock import Clock, system_clock
from memlane.ports.encryption import EncryptionPort
from memlane.ports.facts import FactScanPort
from memlane.ports.security import AuditPort, IntegrityPort
from memlane.service.facts import FactSealer
from memlane.service.security.audit_trail import PAYLOAD_FIELD, payload_opens
from memlane.service.security.keyring import KeyringService, owners_of
from memlane.service.security.sealing import Sealer

log = logging.getLogger(__name__)
DEFAULT_BATCH_ROWS = 500


class Verifier:
    """Streams every memory of every owner in batches and checks each sealed field; then,
    when given their ports, every fact and every audit event the same way."""

    def __init__(
        self,
        integrity: IntegrityPort,
        sealer: Sealer,
        clock: Clock = system_clock,
        *,
        encryption: EncryptionPort | None = None,
        facts: FactScanPort | None = None,
        audit: AuditPort | None = None,
        keyring: KeyringService | None = None,
    ) -> None:
        """`facts` and `audit` are checked only with the `encryption` that sealed them;
        the `keyring` makes each batch's owners' data keys ready first."""
        self._keyring = keyring
        self._integrity = integrity
        self._sealer = sealer
        self._clock = clock
        self._encryption = encryption
        self._facts = facts
        self._audit = audit

    async def verify(
        self,
        *,
        batch_rows: int = DEFAULT_BATCH_ROWS,
        quarantine: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> VerifyReport:
        """Check every ciphertext; with `quarantine`, move each bad memory out of the live
        tables as its batch is done. `progress` hears the memories checked so far."""
        if batch_rows < 1:
            raise ValueError("batch_rows must be at least 1")
        moved = 0

        async def quarantined(found: list[UnreadableRow]) -> None:
            nonlocal moved
            if quarantine:
                moved += await self._integrity.quarantine(found, self._clock())

        checked, bad = await self._walk(
            "memory", self._integrity.sealed_batch, self._sealer.unreadable_fields,
            batch_rows, quarantined, progress,
        )
        report = VerifyReport(checked=checked, unreadable=tuple(bad), quarantined=moved)
        report = await self._verify_facts(report, batch_rows)
        return await self._verify_events(report, batch_rows)

    async def _walk(
        self,
        kind: str,
        batch_after: Callable[[RowKey | None, int], Awaitable[Sequence[Any]]],
        unreadable_fields: Callable[[Any], tuple[str, ...]],
        batch_rows: int,
        on_found: Callable[[list[UnreadableRow]], Awaitable[None]] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> tuple[int, list[UnreadableRow]]:
        """Every row of every owner in (tenant, user_id, id) batches, each checked field by
        field: how many were checked, and the ones that do not open."""
        checked, bad = 0, []
        after: RowKey | None = None
        while batch := await batch_after(after, batch_rows):
            await self._ready(batch)
            found = [
                UnreadableRow(row.owner, row.id, fields)
                for row in batch
                if (fields := unreadable_fields(row))
            ]
            _warn(kind, found)
            if found and on_found is not None:
                await on_found(found)
            bad.extend(found)
            checked += len(batch)
            last = batch[-1]
            after = (last.owner.tenant, last.owner.user_id, last.id)
            if progress is not None:
                progress(checked)
        return checked, bad

    async def _ready(self, rows: Sequence[Any]) -> None:
        if self._keyring is not None:
            await self._keyring.ready(owners_of(rows))

    async def _unopenable(
        self, encryption: EncryptionPort, events: list[AuditEvent]
    ) -> list[UnreadableRow]:
        await self._ready(events)
        return [
            UnreadableRow(event.owner, event.entry.id, (PAYLOAD_FIELD,))
            for event in events
            if not payload_opens(encryption, event)
        ]

    async def _verify_facts(self, report: VerifyReport, batch_rows: int) -> VerifyReport:
        if self._facts is None or self._encryption is None:
            return report
        checked, bad = await self._walk(
            "fact", self._facts.fact_batch, FactSealer(self._encryption).unreadable_fields,
            batch_rows,
        )
        return replace(report, facts_checked=checked, unreadable_facts=tuple(bad))

    async def _verify_events(self, report: VerifyReport, batch_rows: int) -> VerifyReport:
        encryption = self._encryption
        if self._audit is None or encryption is None:
            return report
        checked, bad = 0, []
        chunk: list[AuditEvent] = []
        async for event in self._audit.events(None, None):
            chunk.append(event)
            if len(chunk) >= batch_rows:
                bad += await self._unopenable(encryption, chunk)
                checked += len(chunk)
                chunk = []
        bad += await self._unopenable(encryption, chunk)
        checked += len(chunk)
        _warn("audit event", bad)
        return replace(report, events_checked=checked, unreadable_events=tuple(bad))


def _warn(kind: str, rows: list[UnreadableRow]) -> None:
    for row in rows:
        # Ids and field names only: nothing of the content is known, nor logged.
        log.warning("%s %s of %s/%s: %s does not decrypt", kind, row.memory_id,
                    row.owner.tenant, row.owner.user_id, ",".join(row.fields))
