"""Who may act and what proves it: API keys, data keys, the audit chain, integrity."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.domain.security import keyring as keyring
    from memlane.domain.security.audit import (
        API_WITHOUT_AUTH as API_WITHOUT_AUTH,
        CLI as CLI,
        IN_PROCESS as IN_PROCESS,
        OWNER_SUBJECT as OWNER_SUBJECT,
        SYSTEM_CONSOLIDATION as SYSTEM_CONSOLIDATION,
        SYSTEM_DECAY as SYSTEM_DECAY,
        SYSTEM_ERASURE_REPLAY as SYSTEM_ERASURE_REPLAY,
        SYSTEM_IMPORT as SYSTEM_IMPORT,
        AuditEntry as AuditEntry,
        AuditEvent as AuditEvent,
        ChainHead as ChainHead,
        EventKind as EventKind,
        SubjectKind as SubjectKind,
        chain as chain,
        is_actor as is_actor,
        key_actor as key_actor,
    )
    from memlane.domain.security.audit_chain import (
        ChainReport as ChainReport,
        ChainVerifier as ChainVerifier,
    )
    from memlane.domain.security.auth import (
        AmbiguousKeyPrefix as AmbiguousKeyPrefix,
        ApiKey as ApiKey,
        KeyPrefixError as KeyPrefixError,
        Principal as Principal,
        Scope as Scope,
        key_by_prefix as key_by_prefix,
    )
    from memlane.domain.security.erasure import (
        ERASURE_REPLAY_ACTOR as ERASURE_REPLAY_ACTOR,
        JournalContents as JournalContents,
        KeyRef as KeyRef,
        ReplayReport as ReplayReport,
        erasure_digest as erasure_digest,
        journal_key_id as journal_key_id,
        journal_line as journal_line,
        parse_journal as parse_journal,
        to_erase_again as to_erase_again,
    )
    from memlane.domain.security.integrity import (
        RowKey as RowKey,
        UnreadableRow as UnreadableRow,
        VerifyReport as VerifyReport,
    )
    from memlane.domain.security.keyring import (
        ROOT as ROOT,
        KeyringNotReady as KeyringNotReady,
        MigrationReport as MigrationReport,
        RotationReport as RotationReport,
        SealedField as SealedField,
        UnknownMasterKey as UnknownMasterKey,
        WrappedKey as WrappedKey,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "API_WITHOUT_AUTH": "audit",
    "AmbiguousKeyPrefix": "auth",
    "ApiKey": "auth",
    "AuditEntry": "audit",
    "AuditEvent": "audit",
    "CLI": "audit",
    "ChainHead": "audit",
    "ChainReport": "audit_chain",
    "ChainVerifier": "audit_chain",
    "ERASURE_REPLAY_ACTOR": "erasure",
    "EventKind": "audit",
    "IN_PROCESS": "audit",
    "JournalContents": "erasure",
    "KeyPrefixError": "auth",
    "KeyRef": "erasure",
    "KeyringNotReady": "keyring",
    "MigrationReport": "keyring",
    "OWNER_SUBJECT": "audit",
    "Principal": "auth",
    "ROOT": "keyring",
    "ReplayReport": "erasure",
    "RotationReport": "keyring",
    "RowKey": "integrity",
    "SYSTEM_CONSOLIDATION": "audit",
    "SYSTEM_DECAY": "audit",
    "SYSTEM_ERASURE_REPLAY": "audit",
    "SYSTEM_IMPORT": "audit",
    "Scope": "auth",
    "SealedField": "keyring",
    "SubjectKind": "audit",
    "UnknownMasterKey": "keyring",
    "UnreadableRow": "integrity",
    "VerifyReport": "integrity",
    "WrappedKey": "keyring",
    "chain": "audit",
    "erasure_digest": "erasure",
    "is_actor": "audit",
    "journal_key_id": "erasure",
    "journal_line": "erasure",
    "key_actor": "audit",
    "key_by_prefix": "auth",
    "parse_journal": "erasure",
    "to_erase_again": "erasure",
}, submodules=("keyring",))


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
