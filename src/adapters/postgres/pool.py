"""The asyncpg pool (created after migrations) and the startup check of the embedding column."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeAlias, cast

import asyncpg
from pgvector.asyncpg import register_vector

from memlane.adapters.postgres.embedded import watching_embedded
from memlane.adapters.postgres.errors import is_connection_error, lost_mid_query, storage_errors
from memlane.adapters.postgres.transactions import joined
from memlane.domain.errors import EmbeddingDimensionMismatch

_log = logging.getLogger(__name__)

# One row as the adapters read it: an asyncpg record, or a mapping in its shape (tests).
Row: TypeAlias = asyncpg.Record | Mapping[str, Any]


# Per-user filtered vector search: without iterative scans the HNSW index stops after
# ef_search candidates and a user owning 1 % of the rows gets too few results back.
DEFAULT_EF_SEARCH = 100

SELECT_EMBEDDING_DIMENSION = """
SELECT a.atttypmod
FROM pg_attribute AS a
WHERE a.attrelid = 'memories'::regclass AND a.attname = 'embedding' AND NOT a.attisdropped
"""


HAS_RESTORE_POSTINGS = "SELECT to_regprocedure('memlane_restore_postings()') IS NOT NULL"
RESTORE_POSTINGS = "SELECT memlane_restore_postings()"
# A rebuild writes every memory's postings (~2.5 min per million memories on two cores).
RESTORE_TIMEOUT_S = 3600.0


def server_settings(ef_search: int = DEFAULT_EF_SEARCH) -> dict[str, str]:
    """Planner settings sent when each connection opens.

    Set per connection rather than with SET per query so asyncpg's prepared-statement
    cache never holds plans made under different settings.
    """
    return {
        "hnsw.iterative_scan": "relaxed_order",
        "hnsw.ef_search": str(ef_search),
        # asyncpg prepares every statement; after five runs PostgreSQL may switch to a generic
        # plan made without the owner's values, i.e. for an average (small) user: an exact
        # scan. For a user with 100k memories that made the top-80 search 870 ms instead of
        # ~1 ms. Planning per execution costs well under a millisecond.
        "plan_cache_mode": "force_custom_plan",
        # Every request query is an owner-scoped index lookup of at most ~1,000 rows; the
        # planner's default estimate for the term-index scan made it start two workers, which
        # cost more than they saved (lexical search at 100k memories: 12.2 ms vs 9.6 ms
        # without) and take cores from concurrent requests.
        "max_parallel_workers_per_gather": "0",
        "application_name": "memlane",
    }


async def init_connection(connection: asyncpg.Connection) -> None:
    """Codecs every memlane connection needs (pgvector's, jsonb as Python objects), and the
    lexical postings back if the database lost them. A server killed while a new
    connection is set up is a lost database (503), as it is mid-query."""
    async with lost_mid_query(connection):
        await register_vector(connection)
        await connection.set_type_codec(
            "jsonb", schema="pg_catalog", encoder=json.dumps, decoder=json.loads, format="text"
        )
        await restore_postings(connection)


async def reset_connection(connection: asyncpg.Connection) -> None:
    """Run as a connection goes back to the pool: only one left inside a transaction is reset.

    asyncpg's default reset is a round trip of four statements (advisory unlock, CLOSE ALL,
    UNLISTEN, RESET ALL) on every release: ~9 % of the service's main thread under HTTP load,
    where a context request releases four or five connections. memlane sets no session
    state, listens to nothing and keeps cursors inside transactions; the one session lock
    (the leader lock) is released by its holder, which closes the connection if it cannot.
    """
    if connection.is_in_transaction():
        await connection.reset()


async def restore_postings(connection: asyncpg.Connection) -> int:
    """Rebuild memory_postings when a crash emptied it (it is UNLOGGED: migration 0050).

    Checked whenever a connection opens, so a database restarted under a running service
    heals before its next search; a no-op check otherwise. Before the migration: nothing.
    """
    if not await connection.fetchval(HAS_RESTORE_POSTINGS):
        return 0
    restored = int(await connection.fetchval(RESTORE_POSTINGS, timeout=RESTORE_TIMEOUT_S))
    if restored:
        _log.warning("rebuilt %d lexical postings lost in a database crash", restored)
    return restored


class _OneLineFloorWarnings(logging.Filter):
    """asyncpg warns with a full traceback each time it fails to reconnect the pool's floor
    while the database is down (four tracebacks for one outage). An outage is news in one
    line per change: of the embedded server its watch says when it goes down and when it
    serves again, so these go; of an external database one line a minute says it, naming
    the error's class."""

    def __init__(self, every_s: float = 60.0) -> None:
        super().__init__()
        self._every_s = every_s
        self._last = -every_s

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info is None or not record.getMessage().startswith("Failed to restore"):
            return True
        error = record.exc_info[1]
        if error is None or not is_connection_error(error):
            return True  # not an outage: a bug, with its traceback
        now = time.monotonic()
        if watching_embedded() or now - self._last < self._every_s:
            return False  # the embedded server's watch reports the outage itself
        self._last = now
        record.msg = f"database unavailable: the pool's connections could not be restored " \
                     f"({type(error).__name__}); retrying"
        record.args, record.exc_info, record.exc_text = (), None, None
        return True


_FLOOR_WARNINGS = _OneLineFloorWarnings()


async def create_pool(
    dsn: str,
    *,
    min_size: int = 2,
    max_size: int = 10,
    command_timeout_ms: int = 10_000,
    ef_search: int = DEFAULT_EF_SEARCH,
) -> asyncpg.Pool:
    """Open the pool; call only after migrations ran (the vector codec needs the extension)."""
    floor_log = logging.getLogger("asyncpg.pool")
    if _FLOOR_WARNINGS not in floor_log.filters:
        floor_log.addFilter(_FLOOR_WARNINGS)
    async with storage_errors("opening the pool"):
        return await asyncpg.create_pool(
            dsn,
            min_size=min_size,
            max_size=max_size,
            command_timeout=command_timeout_ms / 1000,
            init=init_connection,
            reset=reset_connection,
            server_settings=server_settings(ef_search),
        )


@asynccontextmanager
async def connection_from(
    pool: asyncpg.Pool, doing: str = "running a query"
) -> AsyncIterator[asyncpg.Connection]:
    """A pooled connection, or the one of the transaction this task has open on the pool
    (`transactions.owner_transaction`); losing the database becomes StorageUnavailable."""
    current = joined(pool)
    if current is not None:
        async with storage_errors(doing), lost_mid_query(current.connection):
            yield current.connection
        return
    async with storage_errors(doing), pool.acquire() as proxy:
        # The pool hands out a proxy that behaves as a Connection.
        connection = cast(asyncpg.Connection, proxy)
        async with lost_mid_query(connection):
            yield connection


async def embedding_column_dimension(pool: asyncpg.Pool) -> int | None:
    """The declared dimension of memories.embedding (None if the column has none)."""
    async with connection_from(pool) as connection:
        typmod = await connection.fetchval(SELECT_EMBEDDING_DIMENSION)
    return None if typmod is None or typmod < 0 else int(typmod)


async def check_embedding_dimension(pool: asyncpg.Pool, model: str, model_dimension: int) -> None:
    """Fail at startup when the embedding model's vectors do not fit the column."""
    column_dimension = await embedding_column_dimension(pool)
    if column_dimension is not None and column_dimension != model_dimension:
        raise EmbeddingDimensionMismatch(
            f"the embedding model {model!r} makes {model_dimension}-d vectors but the database "
            f"stores {column_dimension}-d vectors; run `memlane reembed` to re-embed every "
            f"memory with the new model, or configure a {column_dimension}-d model"
        )
