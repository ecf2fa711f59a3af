"""Schema migrations: NNNN_verb_noun.sql files applied in order, once, under an advisory lock."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib.resources import files

import asyncpg

from memlane.adapters.postgres.errors import storage_errors
from memlane.domain.errors import ConfigurationError

MIGRATIONS_PACKAGE = "memlane.migrations"
# One fixed advisory lock key ("memlane" in ASCII) so processes starting together take turns.
MIGRATION_LOCK_KEY = 0x6D656D6C616E65
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

_log = logging.getLogger(__name__)

CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version     integer PRIMARY KEY,
    name        text NOT NULL,
    applied_at  timestamptz NOT NULL DEFAULT now(),
    checksum    text NOT NULL
)
"""
HAS_LEDGER = "SELECT to_regclass('schema_migrations') IS NOT NULL"
SELECT_APPLIED = "SELECT version, name, checksum FROM schema_migrations ORDER BY version"
INSERT_APPLIED = "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)"


class MigrationError(ConfigurationError):
    """The migration files and the database disagree (edited after applying, duplicates)."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file: its version, name and SQL text."""

    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()


def load_migrations(package: str = MIGRATIONS_PACKAGE) -> list[Migration]:
    """Every NNNN_verb_noun.sql resource of the package, ordered by version."""
    found: dict[int, Migration] = {}
    for resource in files(package).iterdir():
        match = _FILE_NAME.match(resource.name)
        if match is None:
            continue
        version = int(match.group(1))
        if version in found:
            raise MigrationError(
                f"two migrations share version {version:04d}: "
                f"{found[version].name} and {resource.name}"
            )
        found[version] = Migration(version, resource.name, resource.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


async def apply_migrations(
    connection: asyncpg.Connection, migrations: list[Migration] | None = None
) -> list[Migration]:
    """Apply the pending migrations on a plain connection; returns those applied now.

    Each migration runs in its own transaction and is recorded with its checksum. The
    session advisory lock makes a second process wait, then find nothing left to do.
    """
    pending_source = load_migrations() if migrations is None else migrations
    await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK_KEY)
    try:
        await connection.execute(CREATE_LEDGER)
        done: list[Migration] = []
        for migration in _unapplied(pending_source, await connection.fetch(SELECT_APPLIED)):
            async with connection.transaction():
                await connection.execute(migration.sql)
                await connection.execute(
                    INSERT_APPLIED, migration.version, migration.name, migration.checksum
                )
            _log.info("applied migration %s", migration.name)
            done.append(migration)
        return done
    finally:
        await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK_KEY)


def _unapplied(
    migrations: list[Migration], records: list[asyncpg.Record]
) -> list[Migration]:
    """The migrations the ledger's records lack; one changed since it was applied is refused."""
    applied = {r["version"]: r for r in records}
    for migration in migrations:
        record = applied.get(migration.version)
        if record is not None and record["checksum"] != migration.checksum:
            raise MigrationError(
                f"migration {migration.name} was changed after it was applied "
                f"(checksum differs from the database's); add a new migration instead"
            )
    return [m for m in migrations if m.version not in applied]


@asynccontextmanager
async def _connection(dsn: str, timeout_ms: int, doing: str) -> AsyncIterator[asyncpg.Connection]:
    """A plain connection (no pool: its init needs pgvector, which a migration creates)."""
    async with storage_errors(f"connecting to {doing}"):
        connection = await asyncpg.connect(dsn, timeout=timeout_ms / 1000)
    try:
        yield connection
    finally:
        await connection.close()


async def pending_migrations(dsn: str, *, connect_timeout_ms: int = 10_000) -> list[Migration]:
    """The migrations `migrate` would apply now, read without applying or creating anything
    (`memlane upgrade --dry-run`)."""
    async with (
        _connection(dsn, connect_timeout_ms, "read the migrations") as connection,
        storage_errors("reading the applied migrations"),
    ):
        has_ledger = await connection.fetchval(HAS_LEDGER)
        records = await connection.fetch(SELECT_APPLIED) if has_ledger else []
    return _unapplied(load_migrations(), records)


async def migrate(dsn: str, *, connect_timeout_ms: int = 10_000) -> list[Migration]:
    """Connect, apply pending migrations, disconnect: run before the pool exists."""
    async with _connection(dsn, connect_timeout_ms, "migrate") as connection:
        return await apply_migrations(connection)
