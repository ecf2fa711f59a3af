"""Portability use cases: an owner's export and import, chat imports."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.service.portability.chat_import import (
        ChatImporter as ChatImporter,
    )
    from memlane.service.portability.exports import (
        Exports as Exports,
    )
    from memlane.service.portability.facts import (
        FactPorting as FactPorting,
    )
    from memlane.service.portability.graph import (
        GraphPorting as GraphPorting,
    )
    from memlane.service.portability.memories import (
        MemoryPorting as MemoryPorting,
    )
    from memlane.service.portability.porting import (
        ImportReport as ImportReport,
        Porting as Porting,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "ChatImporter": "chat_import",
    "Exports": "exports",
    "FactPorting": "facts",
    "GraphPorting": "graph",
    "ImportReport": "porting",
    "MemoryPorting": "memories",
    "Porting": "porting",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
