"""The composition root: settings -> adapters -> services, declared once; open_memlane resolves."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from operator import attrgetter

from dependency_injector import containers, providers
from prometheus_client import Histogram

from memlane.adapters.affect.vader import VaderAffectAdapter
from memlane.adapters.imports.export_file import FileChatExportAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.database import Database
from memlane.adapters.postgres.entities import PostgresEntityAdapter
from memlane.adapters.postgres.facts import PostgresFactScanAdapter, PostgresTopicIndexAdapter
from memlane.adapters.postgres.graph import PostgresClusterAdapter
from memlane.adapters.postgres.installation import PostgresInstallationAdapter
from memlane.adapters.postgres.leader import PostgresLeaderLockAdapter
from memlane.adapters.postgres.memories import PostgresTierFillAdapter
from memlane.adapters.postgres.portability import (
    PostgresImportLedgerAdapter,
    PostgresLegacyRowsAdapter,
)
from memlane.adapters.postgres.security import (
    PostgresApiKeyAdapter,
    PostgresDataKeyAdapter,
    PostgresIntegrityAdapter,
    PostgresReplayStoreAdapter,
    PostgresSealedFieldsAdapter,
    postgres_audit_ports,
)
from memlane.composition import resources
from memlane.composition.served_model import served_settings
from memlane.composition.services import memory_service
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.installation import InstallationPort
from memlane.ports.storage import MemoryPorts
from memlane.service.facts import TopicIndexer
from memlane.service.graph import KnowledgeGraphService
from memlane.service.memories import DecayWorker
from memlane.service.memory_service import MemoryService
from memlane.service.portability import ChatImporter
from memlane.service.proxy import ChatProxy
from memlane.service.security import (
    AuditService,
    KeyMigration,
    KeyService,
    LegacySealer,
    OnUnreadable,
    TierFiller,
)
from memlane.settings import Settings, load_settings

READINESS_TIMEOUT_S = 2.0


class Container(containers.DeclarativeContainer):
    """Providers from settings to the services; async resources open lazily, once.

    shutdown_resources closes a resource only after the resources that name it directly,
    so each resource names the resources it runs on (not through a Callable or Singleton).
    """

    settings = providers.Dependency(instance_of=Settings)
    load_model = providers.Object(True)
    read_only = providers.Object(False)  # a dry run: the erasure journal's files not created
    embedding_histogram: providers.Object[Histogram | None] = providers.Object(None)
    on_unreadable: providers.Object[OnUnreadable | None] = providers.Object(None)

    # Storage
    database = providers.Resource(resources.database, settings)
    pool = providers.Callable(attrgetter("pool"), database)
    memories = providers.Resource(resources.memories, database, settings)
    installation = providers.Singleton(PostgresInstallationAdapter, pool)
    api_keys = providers.Singleton(PostgresApiKeyAdapter, pool)
    leader = providers.Singleton(PostgresLeaderLockAdapter, pool)
    graph = providers.Resource(resources.graph, database)
    clusters = providers.Singleton(PostgresClusterAdapter, pool)
    audit = providers.Singleton(postgres_audit_ports, pool)
    entities = providers.Singleton(PostgresEntityAdapter, pool)
    facts = providers.Resource(resources.facts, settings, database)
    probe = providers.Resource(resources.probe, settings)

    # Meaning, secrecy, words
    embedder = providers.Resource(resources.embedder, settings, load_model, embedding_histogram)
    data_keys = providers.Singleton(PostgresDataKeyAdapter, pool)
    # Erasure against backups: destroyed keys journaled outside the database, replayed at start
    replay_store = providers.Singleton(PostgresReplayStoreAdapter, pool)
    secrecy = providers.Resource(resources.secrecy, settings, installation, data_keys)
    erasure_journal = providers.Resource(
        resources.erasure_journal, settings, replay_store, read_only, secrecy
    )
    encryption = providers.Callable(attrgetter("encryption"), secrecy)
    keyring = providers.Callable(resources.journaled_keyring, secrecy, erasure_journal)
    keywords = providers.Singleton(SnowballKeywordAdapter)
    affect = providers.Singleton(VaderAffectAdapter)
    policy = providers.Callable(resources.policy, settings)

    # Services
    service = providers.Singleton(
        memory_service,
        memories=memories,
        embedder=embedder,
        encryption=encryption,
        keywords=keywords,
        policy=policy,
        graph=graph,
        audit=audit,
        entities=entities,
        facts=facts,
        profile_caps=providers.Callable(lambda s: s.facts.profile_caps(), settings),
        profile_headers=providers.Callable(lambda s: s.facts.profile_headers(), settings),
        on_unreadable=on_unreadable,
        keyring=keyring,
        affect=affect,
        probe=probe,
        clusters=clusters,
    )
    # The model probe's background work, stopped before the stores it writes to close.
    probing = providers.Resource(
        resources.probing, service, probe, database, memories, entities, facts, graph
    )
    history = providers.Singleton(
        AuditService, audit, providers.Callable(attrgetter("store"), memories), encryption,
        facts=providers.Callable(lambda ports: None if ports is None else ports.store, facts),
        keyring=keyring,
        on_unreadable=on_unreadable,
    )
    key_cache_s = providers.Callable(attrgetter("auth.key_cache_s"), settings)
    keys = providers.Singleton(KeyService, api_keys, cache_ttl_s=key_cache_s)
    # Chat exports of other assistants (docs/import.md)
    imports = providers.Singleton(
        ChatImporter,
        memories=service,
        ledger=providers.Singleton(PostgresImportLedgerAdapter, pool),
        exports=providers.Singleton(FileChatExportAdapter),
        encryption=encryption,
    )
    # `memlane verify`: every ciphertext checked, bad rows quarantined
    integrity = providers.Singleton(PostgresIntegrityAdapter, pool)
    verifier = providers.Singleton(
        resources.verifier, integrity, secrecy, keywords, policy,
        providers.Singleton(PostgresFactScanAdapter, pool), audit,
    )
    # `memlane keys migrate`: version-1 ciphertexts re-sealed under data keys
    sealed_fields = providers.Singleton(PostgresSealedFieldsAdapter, pool)
    key_migration = providers.Singleton(KeyMigration, sealed_fields, encryption, keyring)
    # `memlane seal-existing`: attributes stored in plaintext before migration 0110, sealed
    legacy_sealer = providers.Singleton(
        LegacySealer, providers.Singleton(PostgresLegacyRowsAdapter, pool), encryption, keyring
    )
    # `memlane upgrade`: topic tokens for memories stored before migration 0150
    topic_indexer = providers.Singleton(
        TopicIndexer, providers.Singleton(PostgresTopicIndexAdapter, pool), encryption, keyring
    )
    # `memlane upgrade`: tiers and traits for memories stored before migrations 0200/0201
    tier_filler = providers.Singleton(
        TierFiller, providers.Singleton(PostgresTierFillAdapter, pool), encryption, affect,
        keyring,
    )
    erasure_replay = providers.Singleton(
        resources.erasure_replay, erasure_journal, replay_store, data_keys, memories, facts,
        audit, secrecy,
    )
    # The reference MCP memory server's knowledge graph, on the memories and edges above.
    knowledge_graph = providers.Singleton(KnowledgeGraphService, service, encryption, graph)
    worker = providers.Resource(
        resources.worker, service, leader, settings, database, memories, embedder, facts, graph
    )
    # The memory proxy (docs/proxy.md): the upstream, learning in the background, the use case
    upstream = providers.Resource(resources.upstream, settings)
    learning = providers.Resource(
        resources.learning, service, settings, database, memories, embedder, facts, graph
    )
    proxy = providers.Singleton(
        ChatProxy, service, upstream, encryption, learning,
        active_exchanges=providers.Callable(attrgetter("proxy.active_exchanges"), settings),
        max_segment_bytes=providers.Callable(attrgetter("max_content_bytes"), policy),
    )


@dataclass(slots=True)
class Memlane:
    """A running memlane: the service and what the CLI and API need around it."""

    settings: Settings
    database: Database
    service: MemoryService
    keys: KeyService
    imports: ChatImporter
    memories: MemoryPorts
    installation: InstallationPort
    embedder: EmbeddingPort
    worker: DecayWorker | None
    audit: AuditService
    knowledge_graph: KnowledgeGraphService
    proxy: ChatProxy | None = None

    async def readiness(self) -> dict[str, bool]:
        """Whether the database and the embedder answer now."""
        return {
            "database": await self.memories.maintenance.ready(),
            "embedder": await self._embedder_ready(),
        }

    async def _embedder_ready(self) -> bool:
        try:
            async with asyncio.timeout(READINESS_TIMEOUT_S):
                return await self.embedder.ready()
        except TimeoutError:
            return False

    async def reset_embeddings(self) -> None:
        """Drop every embedding and size the column for the configured model (`reembed`)."""
        await self.installation.reset_embeddings(self.embedder.dimension)


@asynccontextmanager
async def open_memlane(
    settings: Settings | None = None,
    *,
    load_model: bool = True,
    check_embeddings: bool = True,
    start_worker: bool = False,
    embedding_histogram: Histogram | None = None,
    on_unreadable: OnUnreadable | None = None,
    open_proxy: bool = False,
) -> AsyncIterator[Memlane]:
    """Open everything (embedded server, migrations, pool, key, model), yield, close it all.

    `load_model=False` skips warming the model for commands that never embed (decay, cleanup);
    `check_embeddings=False` skips the check that the stored vectors fit the configured
    model (`memlane reembed`, which replaces them);
    `embedding_histogram` times every embedding call (the API's metrics); `on_unreadable`
    hears the id of each memory a read leaves out because it does not decrypt; `open_proxy`
    opens the memory proxy (its upstream client and learning queue) for `serve`.
    """
    container = Container(
        settings=settings or load_settings(),
        load_model=providers.Object(load_model),
        embedding_histogram=providers.Object(embedding_histogram),
        on_unreadable=providers.Object(on_unreadable),
    )
    try:
        installation = await container.installation.async_()
        if check_embeddings:
            served = await served_settings(container.settings(), installation)
            if served is not container.settings():
                container.settings.override(providers.Object(served))
        embedder = await container.embedder.async_()
        if check_embeddings:
            # Vectors of another model, even of the same dimension, would be compared with
            # this model's as if they shared a space: refused until `memlane reembed`.
            await installation.check_embedding_dimension(embedder.model, embedder.dimension)
            await installation.check_embedding_model(
                embedder.model, embedder.same_space_models
            )
        # Before anything is served: a database restored from before an erasure loses the
        # erased owners' rows again (docs/security.md, "Erasure and backups").
        await (await container.erasure_replay.async_()).replay()
        await container.probing.async_()
        yield Memlane(
            settings=container.settings(),
            database=await container.database.async_(),
            service=await container.service.async_(),
            keys=await container.keys.async_(),
            imports=await container.imports.async_(),
            memories=await container.memories.async_(),
            installation=installation,
            embedder=embedder,
            worker=await container.worker.async_() if start_worker else None,
            audit=await container.history.async_(),
            knowledge_graph=await container.knowledge_graph.async_(),
            proxy=await container.proxy.async_() if open_proxy else None,
        )
    finally:
        await shutdown(container)


async def shutdown(container: containers.Container) -> None:
    """Close the container's resources in reverse order (a container that opened none has
    nothing to await)."""
    closing = container.shutdown_resources()
    if closing is not None:
        await closing


__all__ = [
    "Container",
    "Database",
    "Memlane",
    "open_memlane",
    "shutdown",
]
