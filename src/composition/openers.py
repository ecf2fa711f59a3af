"""The CLI's narrow openings: one service each, without the model (`memlane keys`, `verify`...)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AbstractContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from dependency_injector import providers

from memlane.adapters.embedding.registry import (
    onnx_model_names as shipped_models,
    prepare_embedding_model as prepare_model_for,
)
from memlane.adapters.encryption.keyfile import load_key
from memlane.adapters.encryption.keyring import XChaChaKeyring
from memlane.adapters.encryption.master_files import (
    install_next,
    load_masters,
    load_previous,
    prepare_next,
)
from memlane.adapters.encryption.xchacha import key_fingerprint
from memlane.adapters.postgres import database as postgres
from memlane.adapters.postgres.database import Database
from memlane.adapters.postgres.installation import PostgresInstallationAdapter
from memlane.adapters.postgres.security import PostgresDataKeyAdapter
from memlane.container import Container, shutdown
from memlane.domain.errors import ConfigurationError
from memlane.ports.security import AuditPort
from memlane.service.facts import TopicIndexer
from memlane.service.security import (
    ErasureReplay,
    KeyMigration,
    KeyringService,
    KeyService,
    LegacySealer,
    MasterRotation,
    TierFiller,
    Verifier,
)
from memlane.settings import Settings, load_settings

T = TypeVar("T")


@asynccontextmanager
async def _opened(
    settings: Settings | None, pick: Callable[[Container], providers.Provider[T]],
    *, read_only: bool = False,
) -> AsyncIterator[T]:
    """The one provider `pick` names, opened on the resources it needs (never the model),
    and those resources closed after the block. `read_only`: a report that writes nothing
    (the erasure journal's files are not created)."""
    container = Container(
        settings=settings or load_settings(), read_only=providers.Object(read_only)
    )
    try:
        yield await pick(container).async_()
    finally:
        await shutdown(container)


def open_keys(settings: Settings | None = None) -> AbstractAsyncContextManager[KeyService]:
    """API key management without loading the model (`memlane keys`)."""
    return _opened(settings, lambda container: container.keys)


def open_verifier(settings: Settings | None = None) -> AbstractAsyncContextManager[Verifier]:
    """The ciphertext check without loading the model (`memlane verify`): it creates no
    erasure journal either."""
    return _opened(settings, lambda container: container.verifier, read_only=True)


def open_erasure_replay(
    settings: Settings | None = None, *, read_only: bool = False
) -> AbstractAsyncContextManager[ErasureReplay]:
    """The erasure journal's replay without the model (`memlane upgrade`); `read_only` for
    its report alone (`memlane verify`, `upgrade --dry-run`), which creates nothing."""
    return _opened(settings, lambda container: container.erasure_replay, read_only=read_only)


def open_key_migration(
    settings: Settings | None = None,
) -> AbstractAsyncContextManager[KeyMigration]:
    """Re-sealing version-1 ciphertexts, without the model (`memlane keys migrate`)."""
    return _opened(settings, lambda container: container.key_migration)


def open_legacy_sealer(
    settings: Settings | None = None,
) -> AbstractAsyncContextManager[LegacySealer]:
    """Sealing rows stored before migration 0110 (`memlane seal-existing`), no model."""
    return _opened(settings, lambda container: container.legacy_sealer)


def open_topic_indexer(
    settings: Settings | None = None,
) -> AbstractAsyncContextManager[TopicIndexer]:
    """Filling the topic tokens of memories stored before migration 0150, no model."""
    return _opened(settings, lambda container: container.topic_indexer)


def open_tier_filler(
    settings: Settings | None = None,
) -> AbstractAsyncContextManager[TierFiller]:
    """Filling the tiers and traits of memories stored before migration 0200, no model."""
    return _opened(settings, lambda container: container.tier_filler)


@dataclass(frozen=True, slots=True)
class MasterRotationJob:
    """A rotation from the key file in use to its `.next` (created by the first run)."""

    rotation: MasterRotation
    old_fingerprint: str
    new_fingerprint: str
    new_key_path: Path
    catching_up: bool = False  # a restored database rewrapped to the key file in use


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
    async with postgres.open_database(settings.database) as database:
        installation = PostgresInstallationAdapter(database.pool)
        store = PostgresDataKeyAdapter(database.pool)
        recorded = await installation.recorded_fingerprint()
        previous = await asyncio.to_thread(load_previous, key_path)
        restored = previous is not None and recorded == key_fingerprint(previous)
        install: Callable[[], None] | None
        if previous is not None and restored:
            # A database restored from before the last rotation (its keys wrapped by
            # `.previous`): it catches up with the key file in use, no new key is made.
            old, new, install = previous, old, None
        else:
            new = await asyncio.to_thread(prepare_next, key_path)
            install = functools.partial(install_next, key_path)
        if recorded == key_fingerprint(old):
            # Data written before data keys existed: its root (the old master) is kept first.
            old_ring = XChaChaKeyring(old, functools.partial(load_masters, key_path))
            await KeyringService(store, old_ring).start()
        target = XChaChaKeyring(new, functools.partial(load_masters, key_path))
        await asyncio.to_thread(target.refresh)
        yield MasterRotationJob(
            MasterRotation(store, target, installation, install),
            key_fingerprint(old), key_fingerprint(new), key_path, restored,
        )


@asynccontextmanager
async def open_audit_log(settings: Settings | None = None) -> AsyncIterator[AuditPort]:
    """The audit log without the model or the key (`memlane verify-audit`)."""
    async with _opened(settings, lambda container: container.audit) as ports:
        yield ports.log


async def pending_migrations(settings: Settings | None = None) -> list[str]:
    """The schema migrations the next start (or `memlane migrate`) would apply, read
    without applying them (`memlane upgrade --dry-run`)."""
    return await postgres.read_pending_migrations((settings or load_settings()).database)


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


def onnx_model_names() -> tuple[str, ...]:
    """The models the onnx provider ships (`memlane prepare-model`'s default)."""
    return shipped_models()


def prepare_embedding_model(model: str, settings: Settings | None = None) -> Path:
    """The onnx provider's int8 build of `model` derived into the configured model cache
    now (`memlane prepare-model`)."""
    config = (settings or load_settings()).memory.embedding
    return prepare_model_for(model, config.model_cache_dir)
