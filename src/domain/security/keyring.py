"""Data keys: one per owner, stored wrapped by a master key; the root key of an installation."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from memlane.domain.model import Owner

# The owner no one can be (blank ids are refused everywhere): its key is the installation's
# root, from which the per-tenant blind-index keys derive and which opens version-1 envelopes.
ROOT = Owner("", "")


@dataclass(frozen=True, slots=True)
class WrappedKey:
    """A data key as stored: sealed by the master key `master_id` (hex), bound to its owner."""

    owner: Owner
    id: UUID
    master_id: str
    envelope: bytes


class KeyringNotReady(RuntimeError):
    """A seal or open for an owner whose key was never made ready: a bug, never a fallback."""

    def __init__(self, owner: Owner) -> None:
        super().__init__(
            f"the data key of {owner.tenant}/{owner.user_id} was not made ready before use "
            "(KeyringService.ready); refusing to seal or open without it"
        )


class UnknownMasterKey(RuntimeError):
    """A wrapped key names a master key this process does not hold."""

    def __init__(self, master_id: str) -> None:
        super().__init__(
            f"a data key is wrapped by master key {master_id}, which this process does not "
            "hold: finish the rotation (`memlane keys rotate-master`) and restart with the "
            "key file it installed"
        )


@dataclass(frozen=True, slots=True)
class RotationReport:
    """What a master-key rotation did: rows rewrapped now, rows left under another key."""

    master_id: str
    rewrapped: int
    remaining: int
    finished: bool


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What `memlane keys migrate` did: version-1 ciphertexts re-sealed, by column."""

    resealed: dict[str, int]
    unreadable: int

    @property
    def total(self) -> int:
        return sum(self.resealed.values())


# The columns sealed through the EncryptionPort, as `memlane keys migrate` names them.
MEMORY_CONTENT = "memory_content"
MEMORY_SUMMARY = "memory_summary"
FACT_SUBJECT = "fact_subject"
FACT_OBJECT = "fact_object"
ENTITY_LABEL = "entity_label"


@dataclass(frozen=True, slots=True)
class SealedField:
    """One ciphertext of a sealed column, with what its binding needs."""

    column: str
    owner: Owner
    row_id: UUID
    sealed: bytes
