"""Fact use cases: recording, sealing, listing and editing facts, the profile and topics."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.service.facts import audit as audit
    from memlane.service.facts.recording import (
        FactRecorder as FactRecorder,
        Replaced as Replaced,
        Said as Said,
    )
    from memlane.service.facts.sealing import (
        FactSealer as FactSealer,
    )
    from memlane.service.facts.service import (
        FactService as FactService,
    )
    from memlane.service.facts.topic_indexing import (
        TopicIndexer as TopicIndexer,
    )
    from memlane.service.facts.topics import (
        DEFAULT_TOPICS as DEFAULT_TOPICS,
        MAX_TOPICS as MAX_TOPICS,
        TopicService as TopicService,
        TopicView as TopicView,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "DEFAULT_TOPICS": "topics",
    "FactRecorder": "recording",
    "FactSealer": "sealing",
    "FactService": "service",
    "MAX_TOPICS": "topics",
    "Replaced": "recording",
    "Said": "recording",
    "TopicIndexer": "topic_indexing",
    "TopicService": "topics",
    "TopicView": "topics",
}, submodules=("audit",))


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
