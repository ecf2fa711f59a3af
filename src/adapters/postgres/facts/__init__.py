"""PostgreSQL adapters of facts, topics and the topic index."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.adapters.postgres.facts.adapter import (
        PostgresFactAdapter as PostgresFactAdapter,
    )
    from memlane.adapters.postgres.facts.scan import (
        PostgresFactScanAdapter as PostgresFactScanAdapter,
    )
    from memlane.adapters.postgres.facts.topic_index import (
        PostgresTopicIndexAdapter as PostgresTopicIndexAdapter,
    )
    from memlane.adapters.postgres.facts.topics import (
        PostgresTopicAdapter as PostgresTopicAdapter,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "PostgresFactAdapter": "adapter",
    "PostgresFactScanAdapter": "scan",
    "PostgresTopicAdapter": "topics",
    "PostgresTopicIndexAdapter": "topic_index",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
