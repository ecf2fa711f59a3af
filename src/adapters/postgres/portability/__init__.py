"""PostgreSQL adapters of portability: the import ledger and legacy rows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.adapters.postgres.portability.import_ledger import (
        PostgresImportLedgerAdapter as PostgresImportLedgerAdapter,
    )
    from memlane.adapters.postgres.portability.legacy_rows import (
        PostgresLegacyRowsAdapter as PostgresLegacyRowsAdapter,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "PostgresImportLedgerAdapter": "import_ledger",
    "PostgresLegacyRowsAdapter": "legacy_rows",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
