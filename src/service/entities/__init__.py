"""Entity use cases: names read from memories as they are written."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.service.entities.linking import (
        EntityLinker as EntityLinker,
        Named as Named,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "EntityLinker": "linking",
    "Named": "linking",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
