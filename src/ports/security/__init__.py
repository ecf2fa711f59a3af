"""Ports of security: the audit log, data keys, API keys, integrity scans, sealed fields."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.ports.security.api_keys import (
        ApiKeyPort as ApiKeyPort,
    )
    from memlane.ports.security.audit import (
        AuditPort as AuditPort,
        AuditPorts as AuditPorts,
        TransactionPort as TransactionPort,
    )
    from memlane.ports.security.erasure_journal import (
        ErasureJournalPort as ErasureJournalPort,
        ReplayStorePort as ReplayStorePort,
    )
    from memlane.ports.security.integrity import (
        IntegrityPort as IntegrityPort,
    )
    from memlane.ports.security.keyring import (
        DataKeyPort as DataKeyPort,
        KeyringPort as KeyringPort,
    )
    from memlane.ports.security.sealed_fields import (
        FieldKey as FieldKey,
        SealedFieldsPort as SealedFieldsPort,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "ApiKeyPort": "api_keys",
    "AuditPort": "audit",
    "AuditPorts": "audit",
    "DataKeyPort": "keyring",
    "ErasureJournalPort": "erasure_journal",
    "FieldKey": "sealed_fields",
    "IntegrityPort": "integrity",
    "KeyringPort": "keyring",
    "ReplayStorePort": "erasure_journal",
    "SealedFieldsPort": "sealed_fields",
    "TransactionPort": "audit",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
