"""Tiers and traits filled in for memories stored before they were kept (the `tiers` step of
`memlane upgrade`), in batches that each commit: stop it any time, run it again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from memlane.domain.errors import DecryptionFailed
from memlane.domain.model import StoredMemory
from memlane.domain.security import RowKey
from memlane.ports.affect import AffectPort
from memlane.ports.encryption import EncryptionPort
from memlane.ports.memories import FilledTiers, TierFillPort
from memlane.service.security.attributes import AttributeSealer
from memlane.service.security.keyring import KeyringService, owners_of
from memlane.service.security.sealing import CONTENT, binding
from memlane.service.security.tier_sealing import seal_tier_texts, traits_when_unknown

log = logging.getLogger(__name__)
DEFAULT_BATCH_ROWS = 500


@dataclass(frozen=True, slots=True)
class TierFillReport:
    """A backfill run: memories given their tiers, those whose content did not open (left
    without; reads skip them as before), and how many are still without."""

    filled: int = 0
    unreadable: int = 0
    remaining: int = 0


class TierFiller:
    """Walks every owner's memories without tiers, opens their content and stores the tiers
    and traits a write would have given them (the same deterministic rules). Reads stay
    right throughout: a memory without stored tiers derives them from its content."""

    def __init__(
        self, rows: TierFillPort, encryption: EncryptionPort,
        affect: AffectPort | None = None, keyring: KeyringService | None = None,
    ) -> None:
        self._rows = rows
        self._encryption = encryption
        self._attributes = AttributeSealer(encryption)
        self._affect = affect
        self._keyring = keyring

    async def pending(self) -> int:
        """How many memories `fill` would visit now, read only."""
        return await self._rows.count_untiered()

    async def fill(
        self, *, batch_rows: int = DEFAULT_BATCH_ROWS, progress: Callable[[int], None] | None = None
    ) -> TierFillReport:
        """Tiers for every memory without them; `progress` hears how many were filled so
        far. A memory whose content does not open keeps none and is counted."""
        if batch_rows < 1:
            raise ValueError("batch_rows must be at least 1")
        filled = unreadable = 0
        after: RowKey | None = None
        while batch := await self._rows.untiered_batch(after, batch_rows):
            if self._keyring is not None:
                await self._keyring.ready(owners_of(batch))
            rows = await self._filled(batch)
            unreadable += len(batch) - len(rows)
            filled += await self._rows.store_tiers(rows)
            last = batch[-1]
            after = (last.owner.tenant, last.owner.user_id, last.id)
            if progress is not None:
                progress(filled)
        remaining = await self._rows.count_untiered()
        log.info("tiers: %d memories filled, %d unreadable, %d left", filled, unreadable, remaining)
        return TierFillReport(filled=filled, unreadable=unreadable, remaining=remaining)

    async def _filled(self, batch: list[StoredMemory]) -> list[FilledTiers]:
        opened: list[tuple[StoredMemory, str, FilledTiers]] = []
        for row in batch:
            try:
                content = self._encryption.open(
                    bytes(row.content), binding(row.owner, row.id, CONTENT))
                metadata = self._attributes.open(row).metadata
            except DecryptionFailed:
                continue
            abstract, overview = seal_tier_texts(self._encryption, row.owner, row.id, content)
            traits = row.traits or traits_when_unknown(content, metadata)
            opened.append((row, content, FilledTiers(
                row.owner, row.id, abstract, overview, traits)))
        if self._affect is None or not opened:
            return [filled for _, _, filled in opened]
        affects = await asyncio.to_thread(self._affect.affect, [c for _, c, _ in opened])
        return [
            filled if row.traits is not None else replace(
                filled, traits=replace(filled.traits, affect=affect))
            for (row, _, filled), affect in zip(opened, affects, strict=True)
        ]
