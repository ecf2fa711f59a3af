"""Ports of portability: chat exports, the import ledger, rows of older schemas."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.ports.portability.chat_exports import (
        ChatExportPort as ChatExportPort,
    )
    from memlane.ports.portability.import_ledger import (
        ImportLedgerPort as ImportLedgerPort,
    )
    from memlane.ports.portability.legacy_rows import (
        LegacyRowsPort as LegacyRowsPort,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "ChatExportPort": "chat_exports",
    "ImportLedgerPort": "import_ledger",
    "LegacyRowsPort": "legacy_rows",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
