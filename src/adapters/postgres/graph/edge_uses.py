"""Edge use: the edges that brought a context's memories strengthen, in one set-based write."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.deferred import DeferredWrites
from memlane.adapters.postgres.graph import sql as graph_sql
from memlane.domain.graph import HALF_LIFE_DAYS, USE_BOOST, EdgeKind
from memlane.domain.model import Owner

EdgeUse = tuple[str, str, UUID, UUID, str, datetime]  # tenant, user, source, target, kind, at


def edge_uses(
    owner: Owner, keys: Sequence[tuple[UUID, UUID, EdgeKind]], now: datetime
) -> list[EdgeUse]:
    return [(owner.tenant, owner.user_id, s, t, k.value, now) for s, t, k in keys]


async def write_edge_uses(connection: asyncpg.Connection, uses: Sequence[EdgeUse]) -> int:
    """One UPDATE for every use (of any owner); how many uses met an edge. The fade's
    half-lives come from the domain, so the SQL and `graph.used` share one table."""
    kinds = list(HALF_LIFE_DAYS)
    taken = await connection.fetchval(
        graph_sql.USE_EDGES, *([u[i] for u in uses] for i in range(6)),
        [k.value for k in kinds], [HALF_LIFE_DAYS[k] for k in kinds], USE_BOOST,
    )
    return int(taken)


class DeferredEdgeUses(DeferredWrites[EdgeUse]):
    """Edge uses taken without waiting, written `flush_interval_ms` later, together."""

    what = "edge use"

    async def write(self, connection: asyncpg.Connection, batch: Sequence[EdgeUse]) -> int:
        return await write_edge_uses(connection, batch)
