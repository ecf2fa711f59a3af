"""MemoryService assembled from its use cases: production passes adapters, tests pass fakes."""

from __future__ import annotations

from dataclasses import dataclass

from memlane.composition.retrieval import RetrievalParts, retriever
from memlane.domain.facts import ProfileCaps, ProfileHeaders
from memlane.domain.policy import MemoryPolicy
from memlane.ports.affect import AffectPort
from memlane.ports.clock import Clock, system_clock
from memlane.ports.clusters import ClusterPort
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.encryption import EncryptionPort
from memlane.ports.entities import EntityPort
from memlane.ports.facts import FactPorts, ProbePort
from memlane.ports.graph import GraphPort
from memlane.ports.keywords import KeywordPort
from memlane.ports.security import AuditPorts
from memlane.ports.storage import MemoryPorts
from memlane.service.entities import EntityLinker
from memlane.service.facts import FactRecorder, FactSealer, FactService, TopicService
from memlane.service.graph import ClusterStep, GraphLinker, GraphView
from memlane.service.memories import (
    Consolidator,
    Conversations,
    DocumentVectors,
    Drafting,
    Editing,
    Maintenance,
    Prober,
    Reading,
    SegmentGate,
    SleepCycle,
    Superseding,
    Writer,
)
from memlane.service.memory_service import MemoryService
from memlane.service.portability import Exports, FactPorting, GraphPorting, MemoryPorting, Porting
from memlane.service.retrieval import (
    ClusterRecall,
    EntityRecall,
    FactRecall,
    GraphExpansion,
    Retriever,
    Surrounding,
)
from memlane.service.security import AuditTrail, KeyringService, OnUnreadable, Sealer, of_kind


@dataclass(frozen=True)
class Core:
    """What every use case may be built from: the storage roles and the shared helpers."""

    memories: MemoryPorts
    embedder: EmbeddingPort
    encryption: EncryptionPort
    sealer: Sealer
    vectors: DocumentVectors
    trail: AuditTrail
    policy: MemoryPolicy
    clock: Clock
    superseding: Superseding | None = None
    clusters: ClusterPort | None = None  # the summary nodes, when clusters are on


@dataclass(frozen=True)
class Facts:
    """The facts' use cases, when facts are on."""

    service: FactService
    recorder: FactRecorder
    recall: FactRecall
    porting: FactPorting


def memory_service(
    memories: MemoryPorts,
    embedder: EmbeddingPort,
    encryption: EncryptionPort,
    keywords: KeywordPort,
    policy: MemoryPolicy,
    clock: Clock = system_clock,
    graph: GraphPort | None = None,
    audit: AuditPorts | None = None,
    entities: EntityPort | None = None,
    facts: FactPorts | None = None,
    profile_caps: ProfileCaps | None = None,
    profile_headers: ProfileHeaders | None = None,
    on_unreadable: OnUnreadable | None = None,
    keyring: KeyringService | None = None,
    affect: AffectPort | None = None,
    probe: ProbePort | None = None,
    clusters: ClusterPort | None = None,
) -> MemoryService:
    """Without `graph` memories are islands (no links, no supersession); without `audit`
    changes leave no trail; without `entities` no names are read; without `facts` no facts
    are read or kept. `on_unreadable` hears the id of each record a read leaves out because
    it does not decrypt; `keyring` makes each owner's data key ready (None: no keys);
    `affect` reads each memory's valence and arousal (None: not read); `probe` is the
    optional model that reads fired segments after their write (None: the heuristics alone);
    `clusters` keeps the sleep cycle's summary nodes (used when `graph.clusters` is on)."""
    sealer = Sealer(encryption, keywords, policy.base_rate, on_unreadable)
    superseding = None if memories.supersession is None else Superseding(
        memories.supersession, memories.store, sealer, policy.base_rate,
        None if facts is None else facts.store,
    )
    clusters = clusters if policy.graph.enabled and policy.graph.clusters else None
    core = Core(
        memories, embedder, encryption, sealer, DocumentVectors(embedder),
        AuditTrail(audit, encryption, clock, keyring), policy, clock, superseding, clusters,
    )
    names = EntityLinker(entities, encryption) if entities and policy.graph.enabled else None
    kept = None if facts is None else _facts(
        core, facts, graph, profile_caps, on_unreadable, profile_headers)
    consolidator = Consolidator(
        memories.store, memories.consolidation, core.vectors, sealer, policy, clock,
        core.trail, graph, names, superseding,
    )
    reading = Reading(memories.store, memories.maintenance, sealer, clock, policy.base_rate,
                      memories.supersession)
    prober = None if probe is None else Prober(
        probe, clock, graph, names, None if kept is None else kept.recorder,
        policy.graph.max_semantic_edges,
    )
    writer = Writer(
        memories.store, Drafting(core.vectors, sealer, policy, affect), sealer, policy, clock,
        core.trail, None if graph is None else GraphLinker(graph, sealer, policy.graph), names,
        None if kept is None else kept.recorder, superseding, prober,
    )
    return MemoryService(
        policy=policy,
        reading=reading,
        retriever=_retriever(core, entities, graph, kept, affect),
        writer=writer,
        conversations=Conversations(
            writer, memories.store, sealer, graph, policy, clock, SegmentGate(names, policy.detail)
        ),
        editing=Editing(
            memories.store, reading, core.vectors, sealer, core.trail, policy, clock,
            None if kept is None else kept.service, superseding,
        ),
        consolidator=consolidator,
        exports=_exports(core, reading, graph, names, kept),
        maintenance=Maintenance(
            memories.maintenance, embedder, sealer, policy, clock, core.trail, memories.faded
        ),
        keyring=keyring,
        graph=None if graph is None
        else GraphView(graph, memories.store, sealer, clock, core.trail, names),
        facts=None if kept is None else kept.service,
        topics=None if kept is None or memories.topics is None
        else TopicService(memories.topics, kept.service, sealer, clock, keyring),
        sleep=None if memories.sleep is None else SleepCycle(
            memories.sleep, memories.store, consolidator, sealer, policy, clock, core.trail,
            steps=() if clusters is None else (
                ClusterStep(clusters, memories.store, sealer, policy, keyring),)),
    )


def _facts(
    core: Core, ports: FactPorts, graph: GraphPort | None, caps: ProfileCaps | None,
    on_unreadable: OnUnreadable | None, headers: ProfileHeaders | None = None,
) -> Facts:
    sealer = FactSealer(
        core.encryption, None if on_unreadable is None else of_kind(on_unreadable, "fact")
    )
    recorder = FactRecorder(
        ports.store, ports.extractor, sealer, core.clock, graph, core.policy.graph, core.trail,
        core.superseding,
    )
    service = FactService(
        ports.store, recorder, sealer, core.memories.store, core.clock, caps,
        core.trail, core.superseding, headers,
    )
    return Facts(
        service, recorder,
        FactRecall(ports.store, sealer, core.memories.search, core.clock, core.policy.recall),
        FactPorting(ports.store, sealer, service.export, core.trail, core.clock),
    )


def _retriever(
    core: Core, entities: EntityPort | None, graph: GraphPort | None, facts: Facts | None,
    affect: AffectPort | None,
) -> Retriever:
    policy, search = core.policy, core.memories.search
    return retriever(RetrievalParts(
        core.memories, core.embedder, core.sealer, policy, core.clock,
        names=EntityRecall(entities, search, core.encryption, policy.graph)
        if entities and policy.graph.enabled else None,
        facts=None if facts is None else facts.recall,
        expansion=None if graph is None else GraphExpansion(graph, search, policy.graph),
        profile=None if facts is None else facts.service,
        surroundings=None if graph is None
        else Surrounding(graph, core.memories.store, search, core.sealer, policy.base_rate),
        affect=affect,
        clusters=None if core.clusters is None else ClusterRecall(
            core.clusters, search, core.embedder, policy.graph, policy.recall),
    ), policy.recall.skip_stages)


def _exports(
    core: Core, reading: Reading, graph: GraphPort | None, names: EntityLinker | None,
    facts: Facts | None,
) -> Exports:
    graph_porting = None if graph is None else GraphPorting(graph, names, core.policy.graph)
    fact_porting = None if facts is None else facts.porting
    restoring = MemoryPorting(
        core.memories.store, core.vectors, core.sealer, core.policy, core.clock, core.trail,
        None if facts is None else facts.recorder, names, core.superseding,
    )
    everything = Porting(
        restoring, reading.export, core.trail, core.clock, graph_porting, fact_porting
    )
    return Exports(everything, core.clock, graph_porting, fact_porting)
