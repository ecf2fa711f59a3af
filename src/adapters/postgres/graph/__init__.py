"""PostgreSQL adapters of the graph: edges and their use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.adapters.postgres.graph.adapter import (
        PostgresGraphAdapter as PostgresGraphAdapter,
    )
    from memlane.adapters.postgres.graph.clusters import (
        PostgresClusterAdapter as PostgresClusterAdapter,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "PostgresClusterAdapter": "clusters",
    "PostgresGraphAdapter": "adapter",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
