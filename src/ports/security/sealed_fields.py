"""SealedFieldsPort: the sealed columns read and rewritten in batches (`memlane keys migrate`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from uuid import UUID

from memlane.domain.model import Owner
from memlane.domain.security import SealedField

FieldKey = tuple[Owner, UUID]


class SealedFieldsPort(ABC):
    """Version-1 ciphertexts (sealed with the master key itself), column by column."""

    @property
    @abstractmethod
    def columns(self) -> tuple[str, ...]:
        """The sealed columns it reads (names from domain.keyring)."""

    @abstractmethod
    async def legacy(self, column: str, after: FieldKey | None, limit: int) -> list[SealedField]:
        """Up to `limit` version-1 ciphertexts of `column` after `after`, in key order."""

    @abstractmethod
    async def replace(self, fields: Sequence[SealedField], was: Sequence[bytes]) -> int:
        """Write each field where its column still holds `was[i]` (a concurrent edit wins);
        how many changed. All fields are of one column."""

    @abstractmethod
    async def count_legacy(self, column: str) -> int:
        """How many version-1 ciphertexts `column` still holds (`memlane upgrade --dry-run`)."""
