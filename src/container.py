"""The composition root: settings -> adapters -> services. The one place naming adapters."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator
from contextlib import AbstractContextManager, asynccontextmanager
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path

from dependency_injector import containers, providers
from prometheus_client import Histogram

from memlane.adapters.embedding.registry import open_embedder
from memlane.adapters.embedding.registry import prepare_embedding_model as prepare_model_for
from memlane.adapters.embedding.timed import TimedEmbeddingAdapter
from memlane.adapters.encryption.fingerprint import admit_key, refuse_new_key_over_data
from memlane.adapters.encryption.keyfile import load_key, load_or_create_key
from memlane.adapters.encryption.keyring import NoopKeyring, XChaChaKeyring
from memlane.adapters.encryption.master_files import (
    install_next,
    load_masters,
    prepare_next,
    rotation_files,
)
from memlane.adapters.encryption.noop import NoopEncryptionAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter, key_fingerprint
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.facts.ollama import OllamaFactExtractor
from memlane.adapters.imports.export_file import FileChatExportAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres import database as postgres
from memlane.adapters.postgres.audit_adapter import postgres_audit_ports
from memlane.adapters.postgres.data_keys import PostgresDataKeyAdapter
from memlane.adapters.postgres.database import Database
from memlane.adapters.postgres.entity_adapter import PostgresEntityAdapter
from memlane.adapters.postgres.fact_adapter import PostgresFactAdapter
from memlane.adapters.postgres.fact_scan_adapter import PostgresFactScanAdapter
from memlane.adapters.postgres.graph_adapter import PostgresGraphAdapter
from memlane.adapters.postgres.import_ledger import PostgresImportLedgerAdapter
from memlane.adapters.postgres.installation_adapter import PostgresInstallationAdapter
from memlane.adapters.postgres.integrity_adapter import PostgresIntegrityAdapter
from memlane.adapters.postgres.keys import PostgresApiKeyAdapter
from memlane.adapters.postgres.leader import PostgresLeaderLockAdapter
from memlane.adapters.postgres.legacy_rows_adapter import PostgresLegacyRowsAdapter
from memlane.adapters.postgres.memory_ports import postgres_memory_ports
from memlane.adapters.postgres.sealed_fields import PostgresSealedFieldsAdapter
from memlane.domain.errors import ConfigurationError
from memlane.domain.policy import MemoryPolicy
from memlane.ports.audit import AuditPort, AuditPorts
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.encryption import EncryptionPort
from memlane.ports.fact_extraction import FactExtractionPort, FallbackListener
from memlane.ports.facts import FactPorts
from memlane.ports.installation import InstallationPort
from memlane.ports.storage import MemoryPorts
from memlane.service.chat_import import ChatImporter
from memlane.service.history import AuditService
from memlane.service.key_migration import KeyMigration
from memlane.service.key_rotation import MasterRotation
from memlane.service.keyring import KeyringService
from memlane.service.keys import KeyService
from memlane.service.knowledge_graph import KnowledgeGraphService
from memlane.service.legacy_sealing import LegacySealer
from memlane.service.memory_service import MemoryService
from memlane.service.sealing import OnUnreadable, Sealer
from memlane.service.verification import Verifier
from memlane.service.worker import DecayWorker
from memlane.settings import Settings, load_settings

# Context reads record their accesses this long after answering, batched (DESIGN allows
# deferring): the request waits for no UPDATE and no commit.
ACCESS_FLUSH_MS = 50
READINESS_TIMEOUT_S = 2.0


# -- resources: opened on first use, closed by shutdown_resources in reverse order ---------
async def _database(settings: Settings) -> AsyncIterator[Database]:
    async with postgres.open_database(settings.database) as database:
        yield database


async def _memories(database: Database, settings: Settings) -> AsyncIterator[MemoryPorts]:
    ports = postgres_memory_ports(
        database.pool,
        dimension=settings.memory.embedding.dimension,
        access_flush_ms=ACCESS_FLUSH_MS,
    )
    try:
        yield ports
    finally:
        await ports.maintenance.close()  # queued accesses, before the pool closes


async def _graph(database: Database) -> AsyncIterator[PostgresGraphAdapter]:
    # Edge uses (a context strengthening the edges that brought its memories) are written
    # off the request path, like accesses.
    graph = PostgresGraphAdapter(database.pool, use_flush_ms=ACCESS_FLUSH_MS)
    try:
        yield graph
    finally:
        await graph.close()  # queued edge uses, before the pool closes


async def _embedder(
    settings: Settings, load_model: bool, histogram: Histogram | None
) -> AsyncIterator[EmbeddingPort]:
    config = settings.memory.embedding
    embedder = await open_embedder(config.provider, config, load_model)
    if histogram is not None:
        embedder = TimedEmbeddingAdapter(embedder, histogram)
    try:
        yield embedder
    finally:
        await embedder.close()


async def _facts(
    settings: Settings, database: Database, on_fallback: FallbackListener | None
) -> AsyncIterator[FactPorts | None]:
    """The fact store and the configured extractor (None when facts are off)."""
    config = settings.facts
    if not config.enabled:
        yield None
        return
    extractor: FactExtractionPort = HeuristicFactExtractor()
    if config.extractor == "ollama":
        extractor = OllamaFactExtractor(
            config.model, config.ollama_url, config.timeout_ms, on_fallback
        )
    try:
        yield FactPorts(PostgresFactAdapter(database.pool), extractor)
    finally:
        await extractor.close()


@dataclass(frozen=True, slots=True)
class Secrecy:
    """The encryption adapter and the keyring service filling its cache of data keys."""

    encryption: EncryptionPort
    keyring: KeyringService


async def _secrecy(
    settings: Settings, installation: InstallationPort, data_keys: PostgresDataKeyAdapter
) -> Secrecy:
    """The configured adapter, after checking it is the one the stored data was written with,
    and the keyring with the installation's root key loaded."""
    adapter: XChaChaEncryptionAdapter | NoopEncryptionAdapter
    ring: XChaChaKeyring | NoopKeyring
    rotation: dict[str, str] = {}
    memory = settings.memory
    if memory.enable_encryption:
        key_path = memory.encryption_key_path
        if not await asyncio.to_thread(key_path.expanduser().exists):
            await refuse_new_key_over_data(installation, key_path)
        key = await asyncio.to_thread(load_or_create_key, key_path)
        rotation = await asyncio.to_thread(rotation_files, key_path)
        ring = XChaChaKeyring(
            key, functools.partial(load_masters, key_path),
            capacity=memory.data_key_cache_size, ttl_s=memory.data_key_cache_s,
        )
        adapter = XChaChaEncryptionAdapter(key, ring)
    else:
        adapter, ring = NoopEncryptionAdapter(), NoopKeyring()
    await admit_key(installation, adapter.fingerprint, rotation)
    keyring = KeyringService(data_keys, ring)
    await keyring.start()
    return Secrecy(adapter, keyring)


async def _worker(
    service: MemoryService,
    leader: PostgresLeaderLockAdapter,
    settings: Settings,
    *uses: object,  # the resources the service runs on, so they close after the worker
) -> AsyncIterator[DecayWorker]:
    worker = DecayWorker(
        service,
        leader,
        interval_s=settings.worker.decay_interval,
        first_run_delay_s=settings.worker.first_run_delay,
        cleanup=settings.worker.cleanup,
    )
    worker.start()
    try:
        yield worker
    finally:
        await worker.stop()


def _verifier(
    integrity: PostgresIntegrityAdapter,
    secrecy: Secrecy,
    keywords: SnowballKeywordAdapter,
    policy: MemoryPolicy,
    facts: PostgresFactScanAdapter,
    audit: AuditPorts,
) -> Verifier:
    encryption = secrecy.encryption
    return Verifier(
        integrity, Sealer(encryption, keywords, policy.base_rate),
        encryption=encryption, facts=facts, audit=audit.log, keyring=secrecy.keyring,
    )


class Container(containers.DeclarativeContainer):
    """Providers from settings to the services; async resources open lazily, once.

    shutdown_resources closes a resource only after the resources that name it directly,
    so each resource names the resources it runs on (not through a Callable or Singleton).
    """

    settings = providers.Dependency(instance_of=Settings)
    load_model = providers.Object(True)
    embedding_histogram: providers.Object[Histogram | None] = providers.Object(None)
    on_unreadable: providers.Object[OnUnreadable | None] = providers.Object(None)
    fact_fallback: providers.Object[FallbackListener | None] = providers.Object(None)

    # Storage
    database = providers.Resource(_database, settings)
    pool = providers.Callable(attrgetter("pool"), database)
    memories = providers.Resource(_memories, database, settings)
    installation = providers.Singleton(PostgresInstallationAdapter, pool)
    api_keys = providers.Singleton(PostgresApiKeyAdapter, pool)
    leader = providers.Singleton(PostgresLeaderLockAdapter, pool)
    graph = providers.Resource(_graph, database)
    audit = providers.Singleton(postgres_audit_ports, pool)
    entities = providers.Singleton(PostgresEntityAdapter, pool)
    facts = providers.Resource(_facts, settings, database, fact_fallback)

    # Meaning, secrecy, words
    embedder = providers.Resource(_embedder, settings, load_model, embedding_histogram)
    data_keys = providers.Singleton(PostgresDataKeyAdapter, pool)
    secrecy = providers.Resource(_secrecy, settings, installation, data_keys)
    encryption = providers.Callable(attrgetter("encryption"), secrecy)
    keyring = providers.Callable(attrgetter("keyring"), secrecy)
    keywords = providers.Singleton(SnowballKeywordAdapter)
    policy = providers.Callable(lambda settings: settings.policy(), settings)

    # Services
    service = providers.Singleton(
        MemoryService,
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
        on_unreadable=on_unreadable,
        keyring=keyring,
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
        _verifier, integrity, secrecy, keywords, policy,
        providers.Singleton(PostgresFactScanAdapter, pool), audit,
    )
    # `memlane keys migrate`: version-1 ciphertexts re-sealed under data keys
    sealed_fields = providers.Singleton(PostgresSealedFieldsAdapter, pool)
    key_migration = providers.Singleton(KeyMigration, sealed_fields, encryption, keyring)
    # `memlane seal-existing`: attributes stored in plaintext before migration 0110, sealed
    legacy_sealer = providers.Singleton(
        LegacySealer, providers.Singleton(PostgresLegacyRowsAdapter, pool), encryption, keyring
    )
    # The reference MCP memory server's knowledge graph, on the memories and edges above.
    knowledge_graph = providers.Singleton(KnowledgeGraphService, service, encryption, graph)
    worker = providers.Resource(
        _worker, service, leader, settings, database, memories, embedder, facts, graph
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
    check_dimension: bool = True,
    start_worker: bool = False,
    embedding_histogram: Histogram | None = None,
    on_unreadable: OnUnreadable | None = None,
    fact_fallback: FallbackListener | None = None,
) -> AsyncIterator[Memlane]:
    """Open everything (embedded server, migrations, pool, key, model), yield, close it all.

    `load_model=False` skips warming the model for commands that never embed (decay, cleanup);
    `embedding_histogram` times every embedding call, `fact_fallback` counts the optional
    fact extractor's fallbacks to the heuristics (both the API's metrics); `on_unreadable`
    hears the id of each memory a read leaves out because it does not decrypt.
    """
    container = Container(
        settings=settings or load_settings(),
        load_model=providers.Object(load_model),
        embedding_histogram=providers.Object(embedding_histogram),
        on_unreadable=providers.Object(on_unreadable),
        fact_fallback=providers.Object(fact_fallback),
    )
    try:
        installation: InstallationPort = await container.installation()  # type: ignore[misc]
        embedder: EmbeddingPort = await container.embedder()  # type: ignore[misc]
        if check_dimension:
            await installation.check_embedding_dimension(embedder.model, embedder.dimension)
        yield Memlane(
            settings=container.settings(),
            database=await container.database(),  # type: ignore[misc]
            service=await container.service(),  # type: ignore[misc]
            keys=await container.keys(),  # type: ignore[misc]
            imports=await container.imports(),  # type: ignore[misc]
            memories=await container.memories(),  # type: ignore[misc]
            installation=installation,
            embedder=embedder,
            worker=await container.worker() if start_worker else None,  # type: ignore[misc]
            audit=await container.history(),  # type: ignore[misc]
            knowledge_graph=await container.knowledge_graph(),  # type: ignore[misc]
        )
    finally:
        await container.shutdown_resources()  # type: ignore[misc]


@asynccontextmanager
async def open_keys(settings: Settings | None = None) -> AsyncIterator[KeyService]:
    """API key management without loading the model (`memlane keys`)."""
    container = Container(settings=settings or load_settings())
    try:
        yield await container.keys()  # type: ignore[misc]
    finally:
        await container.shutdown_resources()  # type: ignore[misc]


@asynccontextmanager
async def open_verifier(settings: Settings | None = None) -> AsyncIterator[Verifier]:
    """The ciphertext check without loading the model (`memlane verify`)."""
    container = Container(settings=settings or load_settings())
    try:
        yield await container.verifier()  # type: ignore[misc]
    finally:
        await container.shutdown_resources()  # type: ignore[misc]


@asynccontextmanager
async def open_key_migration(settings: Settings | None = None) -> AsyncIterator[KeyMigration]:
    """Re-sealing version-1 ciphertexts, without the model (`memlane keys migrate`)."""
    container = Container(settings=settings or load_settings())
    try:
        yield await container.key_migration()  # type: ignore[misc]
    finally:
        await container.shutdown_resources()  # type: ignore[misc]


@asynccontextmanager
async def open_legacy_sealer(settings: Settings | None = None) -> AsyncIterator[LegacySealer]:
    """Sealing rows stored before migration 0110 (`memlane seal-existing`), no model."""
    container = Container(settings=settings or load_settings())
    try:
        yield await container.legacy_sealer()  # type: ignore[misc]
    finally:
        await container.shutdown_resources()  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class MasterRotationJob:
    """A rotation from the key file in use to its `.next` (created by the first run)."""

    rotation: MasterRotation
    old_fingerprint: str
    new_fingerprint: str
    new_key_path: Path


@asynccontextmanager
async def open_master_rotation(
    settings: Settings | None = None,
) -> AsyncIterator[MasterRotationJob]:
    """`memlane keys rotate-master`: the data keys' store, the old and new master keys. It
    skips the startup key check on purpose: a rotation finished in the database but not yet
    on disk must still be finishable."""
    settings = settings or load_settings()
    memory = settings.memory
    if not memory.enable_encryption:
        raise ConfigurationError("encryption is off: there is no master key to rotate")
    key_path = memory.encryption_key_path
    if not await asyncio.to_thread(key_path.expanduser().exists):
        raise ConfigurationError(f"the master key file {key_path} does not exist")
    old = await asyncio.to_thread(load_key, key_path.expanduser())
    new = await asyncio.to_thread(prepare_next, key_path)
    async with postgres.open_database(settings.database) as database:
        installation = PostgresInstallationAdapter(database.pool)
        store = PostgresDataKeyAdapter(database.pool)
        if await installation.recorded_fingerprint() == key_fingerprint(old):
            # Data written before data keys existed: its root (the old master) is kept first.
            old_ring = XChaChaKeyring(old, functools.partial(load_masters, key_path))
            await KeyringService(store, old_ring).start()
        target = XChaChaKeyring(new, functools.partial(load_masters, key_path))
        await asyncio.to_thread(target.refresh)
        install = functools.partial(install_next, key_path)
        yield MasterRotationJob(
            MasterRotation(store, target, installation, install),
            key_fingerprint(old), key_fingerprint(new), key_path,
        )


@asynccontextmanager
async def open_audit_log(settings: Settings | None = None) -> AsyncIterator[AuditPort]:
    """The audit log without the model or the key (`memlane verify-audit`)."""
    container = Container(settings=settings or load_settings())
    try:
        ports: AuditPorts = await container.audit()  # type: ignore[misc]
        yield ports.log
    finally:
        await container.shutdown_resources()  # type: ignore[misc]


@asynccontextmanager
async def open_database(settings: Settings | None = None) -> AsyncIterator[Database]:
    """Just the database: embedded server if needed, migrations, pool (`memlane migrate`)."""
    async with postgres.open_database((settings or load_settings()).database) as database:
        yield database


def hold_database_server(settings: Settings) -> AbstractContextManager[None]:
    """The embedded server kept in use by this process for the block (`serve`'s parent)."""
    return postgres.hold_embedded(settings.database)


async def resolve_database_url(settings: Settings | None = None) -> str:
    """The DSN in use (`memlane db-url`)."""
    return await postgres.resolve_database_url((settings or load_settings()).database)


def prepare_embedding_model(settings: Settings | None = None) -> Path | None:
    """The onnx backend's int8 model derived into its cache now (`memlane prepare-model`)."""
    config = (settings or load_settings()).memory.embedding
    return prepare_model_for(config.provider, config.model_cache_dir)


__all__ = [
    "Container",
    "Database",
    "Memlane",
    "hold_database_server",
    "open_audit_log",
    "open_database",
    "open_key_migration",
    "open_keys",
    "open_legacy_sealer",
    "open_master_rotation",
    "open_memlane",
    "open_verifier",
    "prepare_embedding_model",
    "resolve_database_url",
]
