"""PostgreSQL adapters of the memory store: writes, search, maintenance, cleanup."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.adapters.postgres.memories import sql as sql
    from memlane.adapters.postgres.memories.lexical_reading import (
        LexicalReading as LexicalReading,
    )
    from memlane.adapters.postgres.memories.maintenance import (
        MAINTENANCE_TIMEOUT_S as MAINTENANCE_TIMEOUT_S,
    )
    from memlane.adapters.postgres.memories.ports import (
        postgres_memory_ports as postgres_memory_ports,
    )
    from memlane.adapters.postgres.memories.rows import (
        affected_rows as affected_rows,
        key_arrays as key_arrays,
        keyset_fetch as keyset_fetch,
        to_stored_many as to_stored_many,
        vector_param as vector_param,
    )
    from memlane.adapters.postgres.memories.tier_fill import (
        PostgresTierFillAdapter as PostgresTierFillAdapter,
    )
    from memlane.adapters.postgres.memories.write_session import (
        PostgresWriteSession as PostgresWriteSession,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "LexicalReading": "lexical_reading",
    "MAINTENANCE_TIMEOUT_S": "maintenance",
    "PostgresWriteSession": "write_session",
    "PostgresTierFillAdapter": "tier_fill",
    "affected_rows": "rows",
    "key_arrays": "rows",
    "keyset_fetch": "rows",
    "postgres_memory_ports": "ports",
    "to_stored_many": "rows",
    "vector_param": "rows",
}, submodules=("sql",))


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
