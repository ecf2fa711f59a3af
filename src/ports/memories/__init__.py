"""Ports of the memory store: storing, searching, maintaining and cleaning up memories."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.ports.memories.candidates import (
        CandidateSearchPort as CandidateSearchPort,
    )
    from memlane.ports.memories.consolidation import (
        ConsolidationPort as ConsolidationPort,
    )
    from memlane.ports.memories.faded import (
        FadedMemoriesPort as FadedMemoriesPort,
    )
    from memlane.ports.memories.focus import (
        FocusPort as FocusPort,
    )
    from memlane.ports.memories.maintenance import (
        MaintenancePort as MaintenancePort,
    )
    from memlane.ports.memories.sleep import (
        SleepPort as SleepPort,
        SleepStep as SleepStep,
    )
    from memlane.ports.memories.store import (
        MemoryStorePort as MemoryStorePort,
        MemoryWriteSession as MemoryWriteSession,
    )
    from memlane.ports.memories.supersession import (
        SupersessionPort as SupersessionPort,
    )
    from memlane.ports.memories.tier_fill import (
        FilledTiers as FilledTiers,
        TierFillPort as TierFillPort,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "CandidateSearchPort": "candidates",
    "ConsolidationPort": "consolidation",
    "FadedMemoriesPort": "faded",
    "FilledTiers": "tier_fill",
    "FocusPort": "focus",
    "MaintenancePort": "maintenance",
    "MemoryStorePort": "store",
    "MemoryWriteSession": "store",
    "SleepPort": "sleep",
    "SleepStep": "sleep",
    "SupersessionPort": "supersession",
    "TierFillPort": "tier_fill",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
