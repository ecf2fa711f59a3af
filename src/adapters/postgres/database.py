"""The database a memlane runs on: the configured DSN or the private embedded server, migrated,
with its pool."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import asyncpg

from memlane.adapters.postgres.embedded import release_embedded, start_embedded
from memlane.adapters.postgres.migrations import migrate, pending_migrations
from memlane.adapters.postgres.pool import create_pool


class DatabaseConfig(Protocol):
    """What opening the database reads (the `[database]` settings section)."""

    @property
    def url(self) -> str: ...
    @property
    def data_dir(self) -> Path: ...
    @property
    def shared_buffers(self) -> str: ...
    @property
    def pool_min_size(self) -> int: ...
    @property
    def pool_max_size(self) -> int: ...
    @property
    def command_timeout_ms(self) -> int: ...


@dataclass(slots=True)
class Database:
    url: str
    pool: asyncpg.Pool
    applied_migrations: list[str]


async def resolve_database_url(config: DatabaseConfig) -> str:
    """The configured DSN, or the private embedded server's (started off the event loop)."""
    if config.url:
        return config.url
    return await asyncio.to_thread(
        start_embedded, config.data_dir, shared_buffers=config.shared_buffers
    )


@contextmanager
def hold_embedded(config: DatabaseConfig) -> Iterator[None]:
    """Keep the embedded server (when there is one) in use by this process for the block,
    released at its end: `serve`'s supervisor holds it while its workers come and go."""
    if config.url:
        yield
        return
    start_embedded(config.data_dir, shared_buffers=config.shared_buffers)
    try:
        yield
    finally:
        release_embedded(config.data_dir)


@asynccontextmanager
async def _server(config: DatabaseConfig) -> AsyncIterator[str]:
    """The DSN for the block; the embedded server is released on the way out (stopped when
    no process uses it)."""
    url = await resolve_database_url(config)
    try:
        yield url
    finally:
        if not config.url:
            await asyncio.to_thread(release_embedded, config.data_dir)


@asynccontextmanager
async def open_database(config: DatabaseConfig) -> AsyncIterator[Database]:
    """Migrations on a plain connection first, then the pool (its init needs pgvector)."""
    async with _server(config) as url:
        applied = await migrate(url, connect_timeout_ms=config.command_timeout_ms)
        pool = await create_pool(
            url,
            min_size=config.pool_min_size,
            max_size=config.pool_max_size,
            command_timeout_ms=config.command_timeout_ms,
        )
        try:
            yield Database(url=url, pool=pool, applied_migrations=[m.name for m in applied])
        finally:
            await pool.close()


async def read_pending_migrations(config: DatabaseConfig) -> list[str]:
    """The migrations open_database would apply, by name, read without applying them."""
    async with _server(config) as url:
        pending = await pending_migrations(url, connect_timeout_ms=config.command_timeout_ms)
    return [m.name for m in pending]
