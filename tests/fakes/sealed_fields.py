"""FakeSealedFields: SealedFieldsPort over in-memory columns of ciphertexts."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from memlane.domain.model import Owner
from memlane.domain.security import keyring as kr
from memlane.domain.security.keyring import SealedField
from memlane.ports.security.sealed_fields import FieldKey, SealedFieldsPort

V1 = 1  # the first byte of a version-1 envelope, as the adapter's scan tests it


def _order(key: FieldKey) -> tuple[str, str, UUID]:
    return (key[0].tenant, key[0].user_id, key[1])


class FakeSealedFields(SealedFieldsPort):
    """Each column maps (owner, row id) to its stored bytes; `put` seeds a row."""

    def __init__(self) -> None:
        self.stored: dict[str, dict[FieldKey, bytes]] = {c: {} for c in self.columns}

    @property
    def columns(self) -> tuple[str, ...]:
        return (kr.MEMORY_CONTENT, kr.MEMORY_SUMMARY, kr.FACT_SUBJECT, kr.FACT_OBJECT,
                kr.ENTITY_LABEL)

    def put(self, column: str, owner: Owner, row_id: UUID, sealed: bytes) -> None:
        self.stored[column][(owner, row_id)] = sealed

    def _legacy(self, column: str) -> list[FieldKey]:
        found = [k for k, v in self.stored[column].items() if v[:1] == bytes([V1])]
        return sorted(found, key=_order)

    async def legacy(self, column: str, after: FieldKey | None, limit: int) -> list[SealedField]:
        keys = [k for k in self._legacy(column) if after is None or _order(k) > _order(after)]
        return [SealedField(column, o, i, self.stored[column][(o, i)]) for o, i in keys[:limit]]

    async def replace(self, fields: Sequence[SealedField], was: Sequence[bytes]) -> int:
        changed = 0
        for field, old in zip(fields, was, strict=True):
            column = self.stored[field.column]
            if column.get((field.owner, field.row_id)) == old:
                column[(field.owner, field.row_id)] = field.sealed
                changed += 1
        return changed

    async def count_legacy(self, column: str) -> int:
        return len(self._legacy(column))
