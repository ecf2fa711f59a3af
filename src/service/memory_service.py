"""MemoryService: the use cases of memlane, one facade over writing, reading and maintenance."""

from __future__ import annotations

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts.profile import ProfileCaps
from memlane.domain.policy import MemoryPolicy
from memlane.domain.reach import Reach
from memlane.ports.clock import Clock, system_clock
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.encryption import EncryptionPort
from memlane.ports.entities import EntityPort
from memlane.ports.facts.store import FactPorts
from memlane.ports.graph import GraphPort
from memlane.ports.keywords import KeywordPort
from memlane.ports.security.audit import AuditPorts
from memlane.ports.storage import MemoryPorts
from memlane.service.entities.linking import EntityLinker
from memlane.service.facts.service import FactService
from memlane.service.facts.topics import TopicService
from memlane.service.graph.linking import GraphLinker
from memlane.service.graph.reading import GraphView
from memlane.service.memories.consolidation import Consolidator
from memlane.service.memories.conversations import Conversations
from memlane.service.memories.exports import MemoryExports
from memlane.service.memories.maintenance import Maintenance
from memlane.service.memories.writes import MemoryWrites
from memlane.service.memories.writing import Writer
from memlane.service.portability.graph import GraphPorting
from memlane.service.portability.memories import MemoryPorting
from memlane.service.portability.porting import Porting
from memlane.service.retrieval.entity_recall import EntityRecall
from memlane.service.retrieval.graph_expansion import GraphExpansion
from memlane.service.retrieval.retriever import Retriever
from memlane.service.security.audit_trail import AuditTrail
from memlane.service.security.keyring import KeyringService
from memlane.service.security.sealing import OnUnreadable, Sealer, of_kind


class MemoryService(MemoryWrites, MemoryExports):
    """Remember, recall, edit, forget; every call is scoped by an Owner (tenant + user)."""

    def __init__(
        self,
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
        on_unreadable: OnUnreadable | None = None,
        keyring: KeyringService | None = None,
    ) -> None:
        """Without `graph` memories are islands (no links, no supersession); without `audit`
        changes leave no trail (and open no transaction of their own); without `entities` no
        names are read from them; without `facts` no facts are read or kept. `on_unreadable`
        hears the id of each memory left out of a read because it does not decrypt; `keyring`
        makes each owner's data key ready at the entry points (None: keys are not in play)."""
        self._keyring = keyring
        self._store = memories.store
        self._maintenance_port = memories.maintenance
        self._embedder = embedder
        self._policy = policy
        self._clock = clock
        self._sealer = Sealer(encryption, keywords, policy.base_rate, on_unreadable)
        parts = (memories, embedder, self._sealer, policy, clock)
        self._writer = Writer(*parts)
        self._retriever = Retriever(*parts)
        self._maintenance = Maintenance(*parts)
        self._trail = AuditTrail(audit, encryption, clock, keyring)
        self._writer.record_with(self._trail)
        self._maintenance.record_with(self._trail)
        self._graph: GraphView | None = None
        if graph is not None:
            self._writer.link_with(GraphLinker(graph, self._sealer, policy.graph))
            self._graph = GraphView(graph, memories.store, self._sealer, clock, self._trail)
            self._retriever.expand_with(GraphExpansion(graph, memories.search, policy.graph))
        self._names: EntityLinker | None = None
        if entities is not None and policy.graph.enabled:
            self._names = EntityLinker(entities, encryption)
            self._writer.name_with(self._names)
            if self._graph is not None:
                self._graph.show_names_with(self._names)
            self._retriever.recall_entities_with(
                EntityRecall(entities, memories.search, encryption, policy.graph)
            )
        self._porting = None if graph is None else GraphPorting(graph, self._names, policy.graph)
        self._conversations = Conversations(
            self._writer, memories.store, self._sealer, graph, policy, clock
        )
        # -- facts (issue 13) --
        self._facts: FactService | None = None
        self._topics: TopicService | None = None
        if facts is not None:
            self._facts = FactService.build(
                facts, encryption, memories, graph, policy, clock, profile_caps, self._trail,
                None if on_unreadable is None else of_kind(on_unreadable, "fact"),
            )
            self._writer.read_facts_with(self._facts.recorder)
            self._retriever.join_facts_with(self._facts.recall)
            if memories.topics is not None:
                self._topics = TopicService(
                    memories.topics, self._facts, self._sealer, clock, keyring
                )
        # -- consolidation (issue 13) --
        self._consolidator = Consolidator(*parts)
        self._consolidator.use(self._trail, self._writer.embed_documents, graph, self._names)
        # -- export and import of everything, histories included (issue 13) --
        restoring = MemoryPorting(*parts)
        restoring.use(self._trail, self._writer.embed_documents,
                      None if self._facts is None else self._facts.recorder, self._names)
        self._everything = Porting(
            restoring, self.export, self._trail, clock, self._porting,
            None if self._facts is None else self._facts.porting,
        )

    @property
    def policy(self) -> MemoryPolicy:
        return self._policy

    @property
    def facts(self) -> FactService:
        """The owner's facts and the views over them (profile, topics)."""
        if self._facts is None:
            raise InvalidMemory("this memlane runs without facts")
        return self._facts

    @property
    def topics(self) -> TopicService:
        """Topics of the owner's memories, with their facts (derived at read time)."""
        if self._topics is None:
            raise InvalidMemory("this memlane runs without facts or topic views")
        return self._topics

    # -- maintenance -----------------------------------------------------------------------
    async def decay(self, owner: Reach = None) -> int:
        return await self._maintenance.decay(owner)

    async def cleanup(self, owner: Reach = None) -> int:
        return await self._maintenance.cleanup(owner)

    async def backfill(self, batch_size: int = 64) -> int:
        return await self._maintenance.backfill(batch_size)
