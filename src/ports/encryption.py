"""EncryptionPort: seal and open memory fields, and blind keyword terms."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID


@dataclass(frozen=True, slots=True)
class FieldBinding:
    """What a ciphertext belongs to; it is authenticated as associated data."""

    tenant: str
    user_id: str
    memory_id: UUID
    field: str

    def associated_data(self) -> bytes:
        parts = (self.tenant, self.user_id, str(self.memory_id), self.field)
        return b"\x1f".join(p.encode() for p in parts)


class EncryptionPort(ABC):
    """Synchronous on purpose: sealing a memory takes microseconds and does no I/O."""

    @property
    @abstractmethod
    def enabled(self) -> bool:
        """False for the no-op adapter (plaintext at rest)."""

    @abstractmethod
    def seal(self, plaintext: str, binding: FieldBinding) -> bytes:
        """Encrypt with a fresh nonce, bound to the row and field."""

    @abstractmethod
    def open(self, ciphertext: bytes, binding: FieldBinding) -> str:
        """Decrypt; raises DecryptionFailed, never returns ciphertext as text."""

    @abstractmethod
    def blind_terms(self, tenant: str, terms: Sequence[str]) -> list[str]:
        """Index terms as stored: keyed hashes per tenant, or the terms themselves when off."""
