"""A memory's tiers sealed and opened like its content, and its traits as stored."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from memlane.domain.detail import Provenance, Tiers, Traits
from memlane.domain.memories import (
    CONFIDENCE,
    ROLES_KEY,
    SEGMENT_KEY,
    Role,
    build_tiers,
    domain_evidence,
)
from memlane.domain.model import Memory, Owner, StoredMemory
from memlane.ports.encryption import EncryptionPort, FieldBinding

ABSTRACT = "abstract"
OVERVIEW = "overview"


def tiers_of(memory: Memory) -> Tiers:
    """The memory's tiers: as stored, or derived from its content (the same rules)."""
    return memory.tiers if memory.tiers is not None else build_tiers(memory.content)


def seal_tiers(encryption: EncryptionPort, memory: Memory) -> tuple[bytes, bytes]:
    """The abstract and overview sealed, each bound to its row and field."""
    return _sealed(encryption, memory.owner, memory.id, tiers_of(memory))


def seal_tier_texts(
    encryption: EncryptionPort, owner: Owner, memory_id: UUID, content: str
) -> tuple[bytes, bytes]:
    """The tiers of `content`, built and sealed as a write seals them (the backfill)."""
    return _sealed(encryption, owner, memory_id, build_tiers(content))


def _sealed(
    encryption: EncryptionPort, owner: Owner, memory_id: UUID, tiers: Tiers
) -> tuple[bytes, bytes]:
    return (
        encryption.seal(tiers.abstract, FieldBinding(
            owner.tenant, owner.user_id, memory_id, ABSTRACT)),
        encryption.seal(tiers.overview, FieldBinding(
            owner.tenant, owner.user_id, memory_id, OVERVIEW)),
    )


def open_tiers(encryption: EncryptionPort, stored: StoredMemory) -> Tiers | None:
    """The stored tiers opened (DecryptionFailed on a bad ciphertext); None: not stored."""
    if stored.abstract is None or stored.overview is None:
        return None
    owner = stored.owner
    return Tiers(
        encryption.open(bytes(stored.abstract), FieldBinding(
            owner.tenant, owner.user_id, stored.id, ABSTRACT)),
        encryption.open(bytes(stored.overview), FieldBinding(
            owner.tenant, owner.user_id, stored.id, OVERVIEW)),
    )


def open_abstract(encryption: EncryptionPort, owner: Owner, stored: StoredMemory) -> str | None:
    if stored.abstract is None:
        return None
    return encryption.open(bytes(stored.abstract), FieldBinding(
        owner.tenant, owner.user_id, stored.id, ABSTRACT))


def traits_when_unknown(content: str, metadata: Mapping[str, Any]) -> Traits:
    """The traits of a memory stored before they were kept: a conversation's segment or
    turn was extracted (replied: the assistant's words alone), anything else stated; the
    domain from its words; affect unknown."""
    extracted = SEGMENT_KEY in metadata or bool(metadata.get("speaker"))
    roles = metadata.get(ROLES_KEY)
    replied = isinstance(roles, list) and Role.ASSISTANT in roles and Role.USER not in roles
    provenance = (
        Provenance.REPLIED if replied
        else Provenance.EXTRACTED if extracted else Provenance.STATED
    )
    return Traits(provenance, CONFIDENCE[provenance], None, domain_evidence(content)[0])
