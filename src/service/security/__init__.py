"""Security use cases: sealing, data keys, API keys, the audit trail, verification."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.service.security.actors import (
        acting_as as acting_as,
        become as become,
        current_actor as current_actor,
    )
    from memlane.service.security.api_keys import (
        KeyService as KeyService,
    )
    from memlane.service.security.attributes import (
        AttributeSealer as AttributeSealer,
    )
    from memlane.service.security.audit_trail import (
        AuditTrail as AuditTrail,
        Change as Change,
        Changes as Changes,
        HistoryEvent as HistoryEvent,
        change_of as change_of,
        verify_chains as verify_chains,
    )
    from memlane.service.security.erasure import (
        ErasureReplay as ErasureReplay,
        erase_owner as erase_owner,
    )
    from memlane.service.security.histories import (
        AuditService as AuditService,
    )
    from memlane.service.security.key_migration import (
        KeyMigration as KeyMigration,
    )
    from memlane.service.security.key_rotation import (
        MasterRotation as MasterRotation,
    )
    from memlane.service.security.keyring import (
        KeyringService as KeyringService,
        keyed as keyed,
        keyed_stream as keyed_stream,
        owners_of as owners_of,
    )
    from memlane.service.security.legacy_sealing import (
        LegacySealer as LegacySealer,
    )
    from memlane.service.security.sealing import (
        OnUnreadable as OnUnreadable,
        Sealer as Sealer,
        document_text as document_text,
        is_turn as is_turn,
        of_kind as of_kind,
        speaker_of as speaker_of,
        speakers_of as speakers_of,
    )
    from memlane.service.security.tier_filling import (
        TierFiller as TierFiller,
        TierFillReport as TierFillReport,
    )
    from memlane.service.security.tier_sealing import (
        tiers_of as tiers_of,
    )
    from memlane.service.security.verification import (
        Verifier as Verifier,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "AttributeSealer": "attributes",
    "AuditService": "histories",
    "AuditTrail": "audit_trail",
    "Change": "audit_trail",
    "Changes": "audit_trail",
    "ErasureReplay": "erasure",
    "HistoryEvent": "audit_trail",
    "KeyMigration": "key_migration",
    "KeyService": "api_keys",
    "KeyringService": "keyring",
    "LegacySealer": "legacy_sealing",
    "MasterRotation": "key_rotation",
    "OnUnreadable": "sealing",
    "Sealer": "sealing",
    "Verifier": "verification",
    "acting_as": "actors",
    "become": "actors",
    "change_of": "audit_trail",
    "current_actor": "actors",
    "document_text": "sealing",
    "erase_owner": "erasure",
    "tiers_of": "tier_sealing",
    "TierFiller": "tier_filling",
    "TierFillReport": "tier_filling",
    "is_turn": "sealing",
    "keyed": "keyring",
    "keyed_stream": "keyring",
    "of_kind": "sealing",
    "owners_of": "keyring",
    "speaker_of": "sealing",
    "speakers_of": "sealing",
    "verify_chains": "audit_trail",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
