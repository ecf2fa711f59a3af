"""Ports of facts: the fact store, extraction, the model probe, scans, topics, the topic index."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.ports.facts.extraction import (
        FactExtractionPort as FactExtractionPort,
    )
    from memlane.ports.facts.probe import (
        ExtractionProvider as ExtractionProvider,
        ProbeAnswer as ProbeAnswer,
        ProbePort as ProbePort,
        ProbeRequest as ProbeRequest,
    )
    from memlane.ports.facts.scan import (
        FactScanPort as FactScanPort,
    )
    from memlane.ports.facts.store import (
        FactPort as FactPort,
        FactPorts as FactPorts,
    )
    from memlane.ports.facts.topic_index import (
        TopicIndexPort as TopicIndexPort,
    )
    from memlane.ports.facts.topics import (
        TopicPort as TopicPort,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "FactExtractionPort": "extraction",
    "ExtractionProvider": "probe",
    "FactPort": "store",
    "FactPorts": "store",
    "FactScanPort": "scan",
    "ProbeAnswer": "probe",
    "ProbePort": "probe",
    "ProbeRequest": "probe",
    "TopicIndexPort": "topic_index",
    "TopicPort": "topics",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
