"""The container's resources, opened on first use and closed in reverse order; the verifier."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

from prometheus_client import Histogram

from memlane.adapters.embedding.registry import open_embedder
from memlane.adapters.embedding.timed import TimedEmbeddingAdapter
from memlane.adapters.encryption.erasure_journal import open_file_journal
from memlane.adapters.encryption.fingerprint import admit_key, refuse_new_key_over_data
from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.keyring import NoopKeyring, XChaChaKeyring
from memlane.adapters.encryption.master_files import load_masters, rotation_files
from memlane.adapters.encryption.noop import NoopEncryptionAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.facts.registry import open_probe
from memlane.adapters.http.upstream import HttpxUpstreamAdapter, UpstreamTimeouts
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres import database as postgres
from memlane.adapters.postgres.database import Database
from memlane.adapters.postgres.facts import PostgresFactAdapter, PostgresFactScanAdapter
from memlane.adapters.postgres.graph import PostgresGraphAdapter
from memlane.adapters.postgres.leader import PostgresLeaderLockAdapter
from memlane.adapters.postgres.memories import LexicalReading, postgres_memory_ports
from memlane.adapters.postgres.security import PostgresDataKeyAdapter, PostgresIntegrityAdapter
from memlane.adapters.supersession.weights import shipped_judge
from memlane.domain.policy import MemoryPolicy
from memlane.ports.clock import system_clock
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.encryption import EncryptionPort
from memlane.ports.facts import FactPorts, ProbePort
from memlane.ports.installation import InstallationPort
from memlane.ports.security import AuditPorts, DataKeyPort, ErasureJournalPort, ReplayStorePort
from memlane.ports.storage import MemoryPorts
from memlane.ports.upstream import UpstreamPort
from memlane.service.memories import DecayWorker, Prober
from memlane.service.memory_service import MemoryService
from memlane.service.proxy import LearningQueue, learn
from memlane.service.security import AuditTrail, ErasureReplay, KeyringService, Sealer, Verifier
from memlane.settings import Settings

# Context reads record their accesses this long after answering, batched (DESIGN allows
# deferring): the request waits for no UPDATE and no commit.
ACCESS_FLUSH_MS = 50

log = logging.getLogger(__name__)


def policy(settings: Settings) -> MemoryPolicy:
    """The domain's rules from the settings, with the learned supersession judge's shipped
    weights when `graph.supersession_judge` is "learned"."""
    rules = settings.policy()
    if settings.graph.supersession_judge != "learned":
        return rules
    return replace(rules, graph=replace(rules.graph, learned_judge=shipped_judge()))


async def database(settings: Settings) -> AsyncIterator[Database]:
    async with postgres.open_database(settings.database) as database:
        yield database


async def memories(database: Database, settings: Settings) -> AsyncIterator[MemoryPorts]:
    ports = postgres_memory_ports(
        database.pool,
        dimension=settings.memory.embedding.dimension,
        access_flush_ms=ACCESS_FLUSH_MS,
        lexical_reading=LexicalReading(checks=settings.memory.recall.lexical_checks),
    )
    try:
        yield ports
    finally:
        await ports.maintenance.close()  # queued accesses, before the pool closes
        if ports.focus is not None:
            await ports.focus.close()  # queued focus touches, likewise


async def graph(database: Database) -> AsyncIterator[PostgresGraphAdapter]:
    # Edge uses (a context strengthening the edges that brought its memories) are written
    # off the request path, like accesses.
    graph = PostgresGraphAdapter(database.pool, use_flush_ms=ACCESS_FLUSH_MS)
    try:
        yield graph
    finally:
        await graph.close()  # queued edge uses, before the pool closes


async def embedder(
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


async def facts(settings: Settings, database: Database) -> AsyncIterator[FactPorts | None]:
    """The fact store and the patterns that read facts at write (None when facts are off)."""
    if not settings.facts.enabled:
        yield None
        return
    extractor = HeuristicFactExtractor()
    try:
        yield FactPorts(PostgresFactAdapter(database.pool), extractor)
    finally:
        await extractor.close()


async def probe(settings: Settings) -> AsyncIterator[ProbePort | None]:
    """The optional model of `memory.extraction` (None: the heuristics alone)."""
    config = settings.memory.extraction
    opened = open_probe(config.provider, config)
    try:
        yield opened
    finally:
        if opened is not None:
            await opened.close()


async def probing(
    service: MemoryService, *uses: object  # the probe and the stores its patches go to
) -> AsyncIterator[Prober | None]:
    """The service's probes in the background, abandoned before what they use closes."""
    prober = service.probing
    try:
        yield prober
    finally:
        if prober is not None:
            await prober.close()


@dataclass(frozen=True, slots=True)
class Secrecy:
    """The encryption adapter and the keyring service filling its cache of data keys."""

    encryption: EncryptionPort
    keyring: KeyringService


async def erasure_journal(
    settings: Settings, database: ReplayStorePort, read_only: bool, *checked_first: object
) -> ErasureJournalPort | None:
    """The erasure journal when encryption is on (erasure destroys keys), its key checked
    against the one the database's erasures were journaled with. `read_only` (a dry run, a
    verify): nothing is created. `checked_first`: the secrecy resource, so a wrong master
    key is the error a start names, before anything about the journal."""
    memory = settings.memory
    if not memory.enable_encryption:
        return None
    recorded = await database.journal_key(None)
    return await asyncio.to_thread(
        open_file_journal, memory.erasure_journal_dir, memory.journal_key_path(), recorded,
        create=not read_only,
    )


def erasure_replay(
    journal: ErasureJournalPort | None,
    database: ReplayStorePort,
    data_keys: DataKeyPort,
    memories: MemoryPorts,
    facts: FactPorts | None,
    audit: AuditPorts,
    secrecy: Secrecy,
) -> ErasureReplay:
    keyring = journaled_keyring(secrecy, journal)
    trail = AuditTrail(audit, secrecy.encryption, system_clock, keyring)
    return ErasureReplay(journal, database, data_keys, memories.store,
                         None if facts is None else facts.store, trail)


def journaled_keyring(
    secrecy: Secrecy, journal: ErasureJournalPort | None
) -> KeyringService:
    """The keyring, journaling each key it destroys (the journal resolves after `secrecy`)."""
    return secrecy.keyring.journal_erasures_in(journal)


async def secrecy(
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
        new = not await asyncio.to_thread(key_path.expanduser().exists)
        if new:
            await refuse_new_key_over_data(installation, key_path)
        key = await asyncio.to_thread(load_or_create_key, key_path)
        if new:
            # Said once, by whichever command starts first: the only copy of the key is here.
            log.warning(
                "memlane created a new encryption key at %s. Back it up now, apart from the "
                "database: without it nothing stored here can ever be read.",
                key_path.expanduser(),
            )
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


async def worker(
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
        sleep=service.sleep if settings.worker.consolidate else None,
        resume_s=settings.worker.consolidate_resume,
    )
    worker.start()
    try:
        yield worker
    finally:
        await worker.stop()


async def upstream(settings: Settings) -> AsyncIterator[UpstreamPort | None]:
    """The memory proxy's upstream (None when no upstream_url is set: its routes say so)."""
    config = settings.proxy
    if not config.upstream_url.strip():
        yield None
        return
    adapter = HttpxUpstreamAdapter(
        config.upstream_url.strip(),
        await asyncio.to_thread(config.upstream_key),
        UpstreamTimeouts(
            config.connect_timeout_s, config.first_byte_timeout_s, config.chunk_gap_timeout_s
        ),
        config.max_connections,
    )
    try:
        yield adapter
    finally:
        await adapter.close()


async def learning(
    service: MemoryService, settings: Settings, *uses: object
) -> AsyncIterator[LearningQueue]:
    """The proxy's learning queue; drained on shutdown, before what the service runs on."""
    config = settings.proxy
    queue = LearningQueue(
        functools.partial(learn, service), config.learn_concurrency, config.learn_queue_size,
        config.drain_timeout_s,
    )
    queue.start()
    try:
        yield queue
    finally:
        await queue.stop()


def verifier(
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
