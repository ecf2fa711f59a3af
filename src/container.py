"""The composition root: settings -> adapters -> service -> API. The one place naming adapters."""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
from dependency_injector import containers, providers
from litestar import Litestar

from memlane.adapters.embedding.ollama import OllamaEmbeddingAdapter
from memlane.adapters.embedding.onnx import DIMENSION as ONNX_DIMENSION
from memlane.adapters.embedding.onnx import MODEL_NAME as ONNX_MODEL
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter, prepare_model
from memlane.adapters.encryption.fingerprint import verify_key_fingerprint
from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.noop import NoopEncryptionAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.embedded import start_embedded
from memlane.adapters.postgres.keys import PostgresApiKeyAdapter
from memlane.adapters.postgres.leader import PostgresLeaderLockAdapter
from memlane.adapters.postgres.memory_adapter import PostgresMemoryAdapter
from memlane.adapters.postgres.migrations import migrate
from memlane.adapters.postgres.pool import check_embedding_dimension, create_pool
from memlane.adapters.postgres.reembed import reset_embeddings
from memlane.api.app import create_app as create_api_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.api.metrics import ApiMetrics
from memlane.domain.errors import ConfigurationError
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.encryption import EncryptionPort
from memlane.service.keys import KeyService
from memlane.service.memory_service import MemoryService
from memlane.service.worker import DecayWorker
from memlane.settings import Settings, load_settings

_log = logging.getLogger("memlane")
KEY_FINGERPRINT_META = "encryption_key_fingerprint"
READINESS_TIMEOUT_S = 2.0
# Context reads record their accesses this long after answering, batched (DESIGN allows
# deferring): the request waits for no UPDATE and no commit.
ACCESS_FLUSH_MS = 50


async def _database_url(settings: Settings) -> str:
    """The configured DSN, or the private embedded server's (started off the event loop)."""
    if settings.database.url:
        return settings.database.url
    database = settings.database
    return await asyncio.to_thread(
        start_embedded, database.data_dir, shared_buffers=database.shared_buffers
    )


async def _database(settings: Settings) -> AsyncIterator[Database]:
    """Migrations on a plain connection first, then the pool (its init needs pgvector)."""
    url = await _database_url(settings)
    applied = await migrate(url, connect_timeout_ms=settings.database.command_timeout_ms)
    pool = await create_pool(
        url,
        min_size=settings.database.pool_min_size,
        max_size=settings.database.pool_max_size,
        command_timeout_ms=settings.database.command_timeout_ms,
    )
    try:
        yield Database(url=url, pool=pool, applied_migrations=[m.name for m in applied])
    finally:
        await pool.close()


async def _embedder(settings: Settings, load_model: bool) -> AsyncIterator[EmbeddingPort]:
    config = settings.memory.embedding
    embedder: EmbeddingPort
    if config.provider == "ollama":
        embedder = OllamaEmbeddingAdapter(
            model=config.model,
            dimension=config.dimension,
            url=config.ollama_url,
            timeout_ms=config.timeout_ms,
            max_retries=config.max_retries,
            batch_size=config.batch_size,
        )
    else:
        if (config.model, config.dimension) != (ONNX_MODEL, ONNX_DIMENSION):
            raise ConfigurationError(
                f"the onnx provider ships {ONNX_MODEL} ({ONNX_DIMENSION}-d); set "
                f"memory.embedding.model = {ONNX_MODEL!r} and dimension = {ONNX_DIMENSION}, "
                f"or use provider = 'ollama' for {config.model!r}"
            )
        onnx = OnnxEmbeddingAdapter(cache_dir=config.model_cache_dir)
        if load_model:
            await onnx.warm_up()
        embedder = onnx
    try:
        yield embedder
    finally:
        await embedder.close()


async def _encryption(settings: Settings, memories: PostgresMemoryAdapter) -> EncryptionPort:
    """The configured adapter, after checking it is the one the stored data was written with."""
    adapter: XChaChaEncryptionAdapter | NoopEncryptionAdapter
    if settings.memory.enable_encryption:
        key = await asyncio.to_thread(load_or_create_key, settings.memory.encryption_key_path)
        adapter = XChaChaEncryptionAdapter(key)
    else:
        adapter = NoopEncryptionAdapter()
    stored = await memories.get_or_set_meta(KEY_FINGERPRINT_META, adapter.fingerprint)
    verify_key_fingerprint(stored, adapter.fingerprint)
    return adapter


class Container(containers.DeclarativeContainer):
    """Providers from settings to the service; async resources are opened lazily, once."""

    settings = providers.Dependency(instance_of=Settings)
    load_model = providers.Object(True)

    database = providers.Resource(_database, settings)
    pool = providers.Callable(lambda database: database.pool, database)
    memories = providers.Singleton(
        PostgresMemoryAdapter,
        pool,
        dimension=settings.provided.memory.embedding.dimension,
        access_flush_ms=ACCESS_FLUSH_MS,
    )
    api_keys = providers.Singleton(PostgresApiKeyAdapter, pool)
    leader = providers.Singleton(PostgresLeaderLockAdapter, pool)

    embedder = providers.Resource(_embedder, settings, load_model)
    encryption = providers.Resource(_encryption, settings, memories)
    keywords = providers.Singleton(SnowballKeywordAdapter)
    policy = providers.Callable(lambda settings: settings.memory.policy(), settings)

    service = providers.Singleton(
        MemoryService,
        memories=memories,
        embedder=embedder,
        encryption=encryption,
        keywords=keywords,
        policy=policy,
    )
    keys = providers.Singleton(KeyService, api_keys)


@dataclass(slots=True)
class Database:
    url: str
    pool: asyncpg.Pool
    applied_migrations: list[str]


@dataclass(slots=True)
class Memlane:
    """A running memlane: the service and what the CLI and API need around it."""

    settings: Settings
    database: Database
    service: MemoryService
    keys: KeyService
    memories: PostgresMemoryAdapter
    embedder: EmbeddingPort
    worker: DecayWorker | None

    async def readiness(self) -> dict[str, bool]:
        """Whether the database and the embedder answer now."""
        return {"database": await self._database_ready(), "embedder": await self._embedder_ready()}

    async def _database_ready(self) -> bool:
        try:
            async with asyncio.timeout(READINESS_TIMEOUT_S):
                await self.database.pool.fetchval("SELECT 1")
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
            return False
        return True

    async def _embedder_ready(self) -> bool:
        try:
            async with asyncio.timeout(READINESS_TIMEOUT_S):
                return await self.embedder.ready()
        except TimeoutError:
            return False

    async def reset_embeddings(self) -> None:
        """Drop every embedding and size the column for the configured model (`reembed`)."""
        await reset_embeddings(self.database.pool, self.embedder.dimension)


async def _resolve(provider: Callable[[], Any]) -> Any:
    value = provider()
    return await value if inspect.isawaitable(value) else value


@asynccontextmanager
async def open_memlane(
    settings: Settings | None = None,
    *,
    load_model: bool = True,
    check_dimension: bool = True,
    start_worker: bool = False,
    wrap_embedder: Callable[[EmbeddingPort], EmbeddingPort] | None = None,
) -> AsyncIterator[Memlane]:
    """Open everything (embedded server, migrations, pool, key, model), yield, close it all.

    `load_model=False` skips warming the model for commands that never embed (decay, cleanup).
    """
    settings = settings or load_settings()
    container = Container(settings=settings, load_model=providers.Object(load_model))
    try:
        if wrap_embedder is not None:
            inner = await _resolve(container.embedder)
            container.embedder.override(providers.Object(wrap_embedder(inner)))
        database: Database = await _resolve(container.database)
        embedder: EmbeddingPort = await _resolve(container.embedder)
        if check_dimension:
            await check_embedding_dimension(database.pool, embedder.model, embedder.dimension)
        service: MemoryService = await _resolve(container.service)
        memlane = Memlane(
            settings=settings,
            database=database,
            service=service,
            keys=await _resolve(container.keys),
            memories=await _resolve(container.memories),
            embedder=embedder,
            worker=None,
        )
        if start_worker:
            memlane.worker = DecayWorker(
                service,
                await _resolve(container.leader),
                interval_s=settings.worker.decay_interval,
                first_run_delay_s=settings.worker.first_run_delay,
                cleanup=settings.worker.cleanup,
            )
            memlane.worker.start()
        try:
            yield memlane
        finally:
            if memlane.worker is not None:
                await memlane.worker.stop()
            await memlane.memories.close()  # queued accesses, before the pool closes
    finally:
        container.embedder.reset_override()
        await _shutdown(container)


async def _shutdown(container: Container) -> None:
    result = container.shutdown_resources()
    if inspect.isawaitable(result):
        await result


@asynccontextmanager
async def open_database(settings: Settings | None = None) -> AsyncIterator[Database]:
    """Just the database: embedded server if needed, migrations, pool (for `memlane migrate`)."""
    async with asynccontextmanager(_database)(settings or load_settings()) as database:
        yield database


async def resolve_database_url(settings: Settings | None = None) -> str:
    """The DSN in use (`memlane db-url`)."""
    return await _database_url(settings or load_settings())


@asynccontextmanager
async def open_keys(settings: Settings | None = None) -> AsyncIterator[KeyService]:
    """API key management without loading the model (`memlane keys`)."""
    async with open_database(settings) as database:
        yield KeyService(PostgresApiKeyAdapter(database.pool))


def create_app(settings: Settings | None = None) -> Litestar:
    """The ASGI app for `memlane serve` (a uvicorn factory): one container per process."""
    settings = settings or load_settings()
    logging.basicConfig(level=settings.logging.level, format="%(levelname)s %(name)s: %(message)s")
    metrics = ApiMetrics()

    @asynccontextmanager
    async def open_services() -> AsyncIterator[ApiServices]:
        async with open_memlane(
            settings, start_worker=settings.worker.enabled, wrap_embedder=metrics.timed_embedder
        ) as memlane:
            yield ApiServices(
                service=memlane.service,
                keys=memlane.keys,
                readiness=memlane.readiness,
                worker=memlane.worker,
            )

    config = ApiConfig(
        auth_enabled=settings.auth.enabled, max_content_bytes=settings.memory.max_content_bytes
    )
    return create_api_app(open_services, config, metrics)


__all__ = [
    "Container",
    "Database",
    "Memlane",
    "create_app",
    "open_database",
    "open_keys",
    "open_memlane",
    "resolve_database_url",
]


def prepare_embedding_model(settings: Settings | None = None) -> Path | None:
    """The onnx provider's int8 model derived into its cache now (None for another provider)."""
    config = (settings or load_settings()).memory.embedding
    if config.provider != "onnx":
        return None
    try:
        return prepare_model(config.model_cache_dir)
    except OSError as exc:
        raise ConfigurationError(
            f"cannot write the model cache ({exc}); set memory.embedding.model_cache_dir "
            "to a writable directory"
        ) from exc
