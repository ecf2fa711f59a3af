"""PostgresFactScanAdapter: FactScanPort as one primary-key range scan per batch."""

from __future__ import annotations

import asyncpg

from memlane.adapters.postgres.errors import storage_errors
from memlane.adapters.postgres.facts.adapter import to_stored_fact
from memlane.adapters.postgres.facts.sql import FACT_COLUMNS
from memlane.adapters.postgres.memories import keyset_fetch
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.facts import StoredFact
from memlane.domain.security import RowKey
from memlane.ports.facts import FactScanPort

SCAN_FIRST = f"""
SELECT {FACT_COLUMNS} FROM facts AS f
ORDER BY f.tenant, f.user_id, f.id
LIMIT $1
"""
SCAN_AFTER = f"""
SELECT {FACT_COLUMNS} FROM facts AS f
WHERE (f.tenant, f.user_id, f.id) > ($2, $3, $4::uuid)
ORDER BY f.tenant, f.user_id, f.id
LIMIT $1
"""


class PostgresFactScanAdapter(FactScanPort):
    """Reads facts across owners on the pool, in primary-key order."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def fact_batch(self, after: RowKey | None, limit: int) -> list[StoredFact]:
        async with storage_errors("scanning facts"), connection_from(self._pool) as conn:
            records = await keyset_fetch(conn, SCAN_FIRST, SCAN_AFTER, limit, after)
        return [to_stored_fact(r) for r in records]
