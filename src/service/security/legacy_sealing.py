"""`memlane seal-existing`: seal the tags, metadata and conversation ids stored in plaintext
before migration 0110, and facts' own relation names before 0111, in batches that each commit
(stop it any time, run it again)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from memlane.domain.portability import (
    LegacyRow,
    SealedRelation,
    SealedRow,
    SealPending,
    SealReport,
)
from memlane.domain.security import RowKey
from memlane.ports.encryption import EncryptionPort
from memlane.ports.portability import LegacyRowsPort
from memlane.service.facts import FactSealer
from memlane.service.security.attributes import Attributes, AttributeSealer
from memlane.service.security.keyring import KeyringService, owners_of

log = logging.getLogger(__name__)
DEFAULT_BATCH_ROWS = 500


class LegacySealer:
    """Walks the unsealed rows of every owner (live, then quarantined) and seals them."""

    def __init__(
        self, rows: LegacyRowsPort, encryption: EncryptionPort,
        keyring: KeyringService | None = None,
    ) -> None:
        self._rows = rows
        self._encryption = encryption
        self._keyring = keyring
        self._attributes = AttributeSealer(encryption)
        self._facts = FactSealer(encryption)

    async def seal_existing(
        self, *, batch_rows: int = DEFAULT_BATCH_ROWS, progress: Callable[[int], None] | None = None
    ) -> SealReport:
        """Seal every legacy row; `progress` hears the rows sealed so far. Reads keep working
        throughout: a row is either wholly plaintext or wholly sealed."""
        if batch_rows < 1:
            raise ValueError("batch_rows must be at least 1")
        sealed = await self._pass(batch_rows, False, progress, 0)
        quarantined = await self._pass(batch_rows, True, progress, sealed)
        relations = await self._relations(batch_rows)
        remaining = await self._rows.count_legacy()
        log.info("seal-existing: %d memories, %d quarantined rows and %d fact relations "
                 "sealed, %d memories left", sealed, quarantined, relations, remaining)
        return SealReport(sealed=sealed, quarantined_sealed=quarantined,
                          relations_sealed=relations, remaining=remaining)

    async def pending(self) -> SealPending:
        """What `seal_existing` would seal now, read only. Without encryption a fact's own
        relation name stays as written (there is nothing to seal it with)."""
        relations = await self._rows.count_legacy_relations() if self._encryption.enabled else 0
        return SealPending(await self._rows.count_legacy(), relations)

    async def _relations(self, batch_rows: int) -> int:
        """Facts whose relation is the caller's own name: its token and sealed name."""
        done = 0
        after: RowKey | None = None
        while batch := await self._rows.legacy_relations(after, batch_rows):
            await self._keys_for(batch)
            sealed = []
            for row in batch:
                token, name = self._facts.sealed_relation(row.owner, row.fact_id, row.relation)
                if name is not None:  # None: encryption is off, the name stays as it is
                    sealed.append(SealedRelation(row.owner, row.fact_id, row.relation, token, name))
            done += await self._rows.store_relations(sealed)
            last = batch[-1]
            after = (last.owner.tenant, last.owner.user_id, last.fact_id)
        return done

    async def _keys_for(self, batch: Sequence[Any]) -> None:
        # Rows older than data keys: their owners' keys are made (or loaded) to seal them.
        if self._keyring is not None:
            await self._keyring.ready_for_write(owners_of(batch))

    async def _pass(
        self, batch_rows: int, quarantined: bool, progress: Callable[[int], None] | None,
        done_before: int,
    ) -> int:
        done = 0
        after: RowKey | None = None
        while batch := await self._rows.legacy_batch(after, batch_rows, quarantined=quarantined):
            await self._keys_for(batch)
            done += await self._rows.store_sealed(
                [self._sealed(row) for row in batch], quarantined=quarantined
            )
            last = batch[-1]
            after = (last.owner.tenant, last.owner.user_id, last.memory_id)
            if progress is not None:
                progress(done_before + done)
        return done

    def _sealed(self, row: LegacyRow) -> SealedRow:
        columns = self._attributes.seal(
            row.owner, row.memory_id,
            Attributes(row.tags, dict(row.metadata), row.conversation_id),
        )
        return SealedRow(
            row.owner, row.memory_id, columns.sealed, columns.tag_tokens,
            columns.conversation_token,
        )
