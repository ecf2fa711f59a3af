"""MemoryPorts: the roles of one memory storage, as the service is built with them."""

from __future__ import annotations

from dataclasses import dataclass

from memlane.ports.facts import TopicPort
from memlane.ports.memories import (
    CandidateSearchPort,
    ConsolidationPort,
    FadedMemoriesPort,
    FocusPort,
    MaintenancePort,
    MemoryStorePort,
    SleepPort,
    SupersessionPort,
)


@dataclass(frozen=True, slots=True)
class MemoryPorts:
    """Store, candidate search and maintenance over the same memories (one database)."""

    store: MemoryStorePort
    search: CandidateSearchPort
    maintenance: MaintenancePort
    # Cleanup owner by owner, so an audited cleanup records each deletion with it; without
    # it cleanup deletes in one statement over everyone and records nothing.
    faded: FadedMemoriesPort | None = None
    # Deleting a consolidation's sources in one statement; without it consolidation keeps
    # them (superseded) and refuses to delete them.
    consolidation: ConsolidationPort | None = None
    # Topic views read set-based through it; without it there are no topic views.
    topics: TopicPort | None = None
    # The superseded marker of memories; without it supersession lives in the graph's edges
    # alone (and goes with them).
    supersession: SupersessionPort | None = None
    # Each conversation's focus (the memories its contexts handed out); without it there is
    # no session focus, resume or distance-from-focus boost.
    focus: FocusPort | None = None
    # The sleep cycle's batches, merges, weaving and pruning; without it there is no cycle.
    sleep: SleepPort | None = None
