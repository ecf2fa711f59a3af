"""Memory use cases: writing, conversations, consolidation, maintenance, reads and edits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.service.memories import audit as audit
    from memlane.service.memories.consolidation import (
        Consolidated as Consolidated,
        Consolidator as Consolidator,
    )
    from memlane.service.memories.conversations import (
        Conversations as Conversations,
    )
    from memlane.service.memories.documents import (
        DocumentVectors as DocumentVectors,
    )
    from memlane.service.memories.drafting import (
        Drafting as Drafting,
    )
    from memlane.service.memories.editing import (
        Editing as Editing,
    )
    from memlane.service.memories.gating import (
        GateCounts as GateCounts,
        SegmentGate as SegmentGate,
    )
    from memlane.service.memories.maintenance import (
        Maintenance as Maintenance,
    )
    from memlane.service.memories.probing import (
        ProbeCounts as ProbeCounts,
        Prober as Prober,
    )
    from memlane.service.memories.reading import (
        Reading as Reading,
    )
    from memlane.service.memories.sleep import (
        SleepCycle as SleepCycle,
    )
    from memlane.service.memories.superseding import (
        Marked as Marked,
        Superseding as Superseding,
    )
    from memlane.service.memories.validation import (
        check_content as check_content,
        check_identifier as check_identifier,
        check_new as check_new,
        check_options as check_options,
    )
    from memlane.service.memories.worker import (
        DecayWorker as DecayWorker,
    )
    from memlane.service.memories.writing import (
        Writer as Writer,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "Consolidated": "consolidation",
    "Consolidator": "consolidation",
    "Conversations": "conversations",
    "DecayWorker": "worker",
    "DocumentVectors": "documents",
    "Drafting": "drafting",
    "Editing": "editing",
    "GateCounts": "gating",
    "SegmentGate": "gating",
    "Maintenance": "maintenance",
    "ProbeCounts": "probing",
    "Prober": "probing",
    "Marked": "superseding",
    "Reading": "reading",
    "SleepCycle": "sleep",
    "Superseding": "superseding",
    "Writer": "writing",
    "check_content": "validation",
    "check_identifier": "validation",
    "check_new": "validation",
    "check_options": "validation",
}, submodules=("audit",))


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
