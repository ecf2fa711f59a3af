"""KeyMigration: version-1 ciphertexts re-sealed under their owners' data keys, resumably."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from memlane.domain.entities import LABEL_FIELD
from memlane.domain.errors import DecryptionFailed
from memlane.domain.security import MigrationReport, SealedField, keyring as kr
from memlane.ports.encryption import EncryptionPort, FieldBinding
from memlane.ports.security import SealedFieldsPort
from memlane.service.security.keyring import KeyringService, owners_of
from memlane.service.security.sealing import CONTENT, SUMMARY

log = logging.getLogger(__name__)
DEFAULT_BATCH = 500
# The binding field each column's ciphertexts were sealed with (service/*_sealing.py).
BINDING_FIELDS = {
    kr.MEMORY_CONTENT: CONTENT,
    kr.MEMORY_SUMMARY: SUMMARY,
    kr.FACT_SUBJECT: "fact_subject",
    kr.FACT_OBJECT: "fact_object",
    kr.ENTITY_LABEL: LABEL_FIELD,
}


def _binding(field: SealedField) -> FieldBinding:
    return FieldBinding(field.owner.tenant, field.owner.user_id, field.row_id,
                        BINDING_FIELDS[field.column])


class KeyMigration:
    """Safe beside a running service: each batch is one compare-and-set statement, so a row
    edited meanwhile (already version 2) is left as it is, and a rerun finds only what is
    left. A ciphertext that does not open is counted and left for `memlane verify`."""

    def __init__(
        self, fields: SealedFieldsPort, encryption: EncryptionPort, keyring: KeyringService
    ) -> None:
        self._fields = fields
        self._encryption = encryption
        self._keyring = keyring

    async def pending(self) -> dict[str, int]:
        """The version-1 ciphertexts `run` would visit now, by column; read only (none
        without encryption: there are no data keys to re-seal under)."""
        if not self._keyring.enabled:
            return {}
        return {column: await self._fields.count_legacy(column) for column in self._fields.columns}

    async def run(
        self, *, batch: int = DEFAULT_BATCH, progress: Callable[[str, int], None] | None = None
    ) -> MigrationReport:
        if batch < 1:
            raise ValueError("batch must be at least 1")
        if not self._keyring.enabled:
            return MigrationReport({}, 0)
        resealed: dict[str, int] = {}
        unreadable = 0
        for column in self._fields.columns:
            done, after = 0, None
            while rows := await self._fields.legacy(column, after, batch):
                after = (rows[-1].owner, rows[-1].row_id)
                # Creates the keys of owners who have none yet (their first version-2 field).
                await self._keyring.ready_for_write(owners_of(rows))
                fresh, was = [], []
                for row in rows:
                    try:
                        plain = self._encryption.open(row.sealed, _binding(row))
                    except DecryptionFailed:
                        log.warning("%s of %s does not decrypt: left as it is", column,
                                    row.row_id)
                        unreadable += 1
                        continue
                    fresh.append(replace(row, sealed=self._encryption.seal(plain, _binding(row))))
                    was.append(row.sealed)
                done += await self._fields.replace(fresh, was)
                if progress is not None:
                    progress(column, done)
            resealed[column] = done
        return MigrationReport(resealed, unreadable)
