"""Graph use cases: linking memories as written, reading a neighbourhood, the knowledge graph."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.service.graph.clustering import ClusterStep as ClusterStep
    from memlane.service.graph.knowledge import (
        KnowledgeGraphService as KnowledgeGraphService,
    )
    from memlane.service.graph.linking import (
        GraphLinker as GraphLinker,
        Written as Written,
    )
    from memlane.service.graph.reading import (
        GraphView as GraphView,
        Neighbourhood as Neighbourhood,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "ClusterStep": "clustering",
    "GraphLinker": "linking",
    "GraphView": "reading",
    "KnowledgeGraphService": "knowledge",
    "Neighbourhood": "reading",
    "Written": "linking",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
