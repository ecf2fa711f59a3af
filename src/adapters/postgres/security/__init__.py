"""PostgreSQL adapters of security: audit events, data keys, API keys, integrity, sealed fields."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.adapters.postgres.security.api_keys import (
        PostgresApiKeyAdapter as PostgresApiKeyAdapter,
    )
    from memlane.adapters.postgres.security.audit import (
        postgres_audit_ports as postgres_audit_ports,
    )
    from memlane.adapters.postgres.security.data_keys import (
        PostgresDataKeyAdapter as PostgresDataKeyAdapter,
    )
    from memlane.adapters.postgres.security.integrity import (
        PostgresIntegrityAdapter as PostgresIntegrityAdapter,
    )
    from memlane.adapters.postgres.security.replay_store import (
        PostgresReplayStoreAdapter as PostgresReplayStoreAdapter,
    )
    from memlane.adapters.postgres.security.sealed_fields import (
        PostgresSealedFieldsAdapter as PostgresSealedFieldsAdapter,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "PostgresApiKeyAdapter": "api_keys",
    "PostgresDataKeyAdapter": "data_keys",
    "PostgresIntegrityAdapter": "integrity",
    "PostgresReplayStoreAdapter": "replay_store",
    "PostgresSealedFieldsAdapter": "sealed_fields",
    "postgres_audit_ports": "audit",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
