"""The PostgreSQL memory storage in its three roles, over one pool."""

from __future__ import annotations

import asyncpg

from memlane.adapters.postgres.facts import PostgresTopicAdapter
from memlane.adapters.postgres.memories.consolidation import PostgresConsolidationAdapter
from memlane.adapters.postgres.memories.faded import PostgresFadedMemoriesAdapter
from memlane.adapters.postgres.memories.focus import PostgresFocusAdapter
from memlane.adapters.postgres.memories.lexical_reading import DEFAULT_READING, LexicalReading
from memlane.adapters.postgres.memories.maintenance import (
    MAINTENANCE_SHARES,
    PostgresMaintenanceAdapter,
)
from memlane.adapters.postgres.memories.search import PostgresCandidateSearchAdapter
from memlane.adapters.postgres.memories.sleep import PostgresSleepAdapter
from memlane.adapters.postgres.memories.store import PostgresMemoryStoreAdapter
from memlane.adapters.postgres.memories.supersession import PostgresSupersessionAdapter
from memlane.ports.storage import MemoryPorts


def postgres_memory_ports(
    pool: asyncpg.Pool,
    *,
    dimension: int | None = None,
    access_flush_ms: int | None = None,
    lexical_reading: LexicalReading = DEFAULT_READING,
    maintenance_shares: int = MAINTENANCE_SHARES,
) -> MemoryPorts:
    """Store, candidate search and maintenance on `pool` (see each adapter for the knobs).

    With `access_flush_ms`, close `ports.maintenance` and `ports.focus` before the pool so no
    access or focus touch is lost.
    """
    return MemoryPorts(
        store=PostgresMemoryStoreAdapter(pool),
        search=PostgresCandidateSearchAdapter(pool, dimension, lexical_reading),
        maintenance=PostgresMaintenanceAdapter(pool, access_flush_ms, maintenance_shares),
        faded=PostgresFadedMemoriesAdapter(pool),
        consolidation=PostgresConsolidationAdapter(pool),
        topics=PostgresTopicAdapter(pool),
        supersession=PostgresSupersessionAdapter(pool),
        focus=PostgresFocusAdapter(pool, access_flush_ms),
        sleep=PostgresSleepAdapter(pool),
    )
