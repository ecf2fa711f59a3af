"""PostgresFocusAdapter: FocusPort on `conversation_focus` (0210) and the graph's edges."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.cosine import cosine
from memlane.adapters.postgres.deferred import DeferredWrites
from memlane.adapters.postgres.memories.rows import vector_param
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.model import Owner, Vector
from memlane.domain.retrieval import FocusQuery, FocusView
from memlane.ports.memories import FocusPort

# Strongest edges followed per memory on each hop: a hub (a name every memory mentions)
# costs no more than this, and the reach stays a bounded, set-based read.
FAN_OUT = 32

# One statement for any touches of any owners (a deferred batch): each (conversation, memory)
# once, counted; a memory deleted meanwhile (or another owner's) is left out by the join.
TOUCH = """
INSERT INTO conversation_focus AS f (tenant, user_id, conversation, memory_id, touches,
                                     last_touched)
SELECT i.tenant, i.user_id, i.conversation, i.memory_id, count(*), max(i.at)
FROM unnest($1::text[], $2::text[], $3::text[], $4::uuid[], $5::timestamptz[])
     AS i(tenant, user_id, conversation, memory_id, at)
JOIN memories AS m ON m.tenant = i.tenant AND m.user_id = i.user_id AND m.id = i.memory_id
GROUP BY i.tenant, i.user_id, i.conversation, i.memory_id
ON CONFLICT (tenant, user_id, conversation, memory_id, owner_key) DO UPDATE
SET touches = f.touches + EXCLUDED.touches,
    last_touched = greatest(f.last_touched, EXCLUDED.last_touched)
"""

Touch = tuple[str, str, str, UUID, datetime]  # tenant, user, conversation, memory, at


async def write_touches(connection: asyncpg.Connection, touches: Sequence[Touch]) -> int:
    await connection.execute(TOUCH, *([t[i] for t in touches] for i in range(5)))
    return len(touches)


class DeferredTouches(DeferredWrites[Touch]):
    """Focus touches taken without waiting, written `flush_interval_ms` later, together."""

    what = "focus touch"

    async def write(self, connection: asyncpg.Connection, batch: Sequence[Touch]) -> int:
        return await write_touches(connection, batch)


_TOP = """
SELECT c.memory_id,
       row_number() OVER (ORDER BY c.touches DESC, c.last_touched DESC, c.memory_id) AS rank
FROM conversation_focus AS c
WHERE c.tenant = $1 AND c.user_id = $2 AND c.conversation = {conversation}
ORDER BY c.touches DESC, c.last_touched DESC, c.memory_id
LIMIT $4
"""


def _edges(frontier: str) -> str:
    """Each frontier memory (n.id) and the other end (o.id) of its strongest edges, both
    directions."""
    return f"""
    SELECT n.id AS near, o.id FROM {frontier} AS n CROSS JOIN LATERAL (
        (SELECT e.target AS id FROM memory_edges AS e
         WHERE e.tenant = $1 AND e.user_id = $2 AND e.source = n.id
         ORDER BY e.weight DESC LIMIT {FAN_OUT})
        UNION ALL
        (SELECT e.source FROM memory_edges AS e
         WHERE e.tenant = $1 AND e.user_id = $2 AND e.target = n.id
         ORDER BY e.weight DESC LIMIT {FAN_OUT})
    ) AS o"""


# $3 conversation, $4 focus size, $5 the question's vector, $6 the resume line, $7 recent
# conversations looked at, $8 the candidates, $9 hops. The focus is the conversation's own,
# or (none yet) the most recent other conversation's whose focus is on the question's topic.
CLOSENESS = f"""
WITH own AS MATERIALIZED ({_TOP.format(conversation="$3")}),
recent AS MATERIALIZED (
    SELECT c.conversation, max(c.last_touched) AS at FROM conversation_focus AS c
    WHERE c.tenant = $1 AND c.user_id = $2 AND c.conversation <> $3
      AND $5::vector IS NOT NULL AND $6::float8 IS NOT NULL AND NOT EXISTS (SELECT 1 FROM own)
    GROUP BY c.conversation ORDER BY at DESC LIMIT $7
),
resumed_from AS MATERIALIZED (
    SELECT r.conversation FROM recent AS r
    WHERE EXISTS (
        SELECT 1 FROM ({_TOP.format(conversation="r.conversation")}) AS t
        JOIN memories AS m ON m.tenant = $1 AND m.user_id = $2 AND m.id = t.memory_id
        WHERE m.embedding IS NOT NULL AND {cosine("m.embedding", "$5")} >= $6
    )
    ORDER BY r.at DESC LIMIT 1
),
focus AS MATERIALIZED (
    SELECT o.memory_id AS id, false AS resumed, o.rank FROM own AS o
    UNION ALL
    SELECT t.memory_id, true, t.rank FROM resumed_from AS rf
    CROSS JOIN LATERAL ({_TOP.format(conversation="rf.conversation")}) AS t
),
hop1 AS MATERIALIZED (
    SELECT DISTINCT o.id FROM ({_edges("focus")}) AS o WHERE $9 >= 1
),
-- Two hops: read from the candidates' side (a pool of tens, against up to 10 x FAN_OUT
-- memories one hop out): a candidate with a strong edge to a memory one hop out.
hop2 AS MATERIALIZED (
    SELECT DISTINCT o.near AS id FROM ({_edges("(SELECT unnest($8::uuid[]) AS id)")}) AS o
    WHERE $9 >= 2 AND o.id IN (SELECT h.id FROM hop1 AS h)
)
SELECT id, 0 AS hops, resumed, rank FROM focus
UNION ALL SELECT id, 1, false, 0 FROM hop1 WHERE id = ANY($8::uuid[])
UNION ALL SELECT id, 2, false, 0 FROM hop2
"""


class PostgresFocusAdapter(FocusPort):
    def __init__(self, pool: asyncpg.Pool, touch_flush_ms: int | None = None) -> None:
        """`touch_flush_ms`, when given, defers `touch` off the request path, as accesses
        are (call `close()` before the pool closes). Without it each call writes at once."""
        self._pool = pool
        self._touches = None if touch_flush_ms is None else DeferredTouches(pool, touch_flush_ms)

    async def touch(
        self, owner: Owner, conversation: str, memory_ids: Sequence[UUID], now: datetime
    ) -> None:
        touches = [(owner.tenant, owner.user_id, conversation, i, now)
                   for i in dict.fromkeys(memory_ids)]
        if not touches:
            return
        if self._touches is not None:
            self._touches.queue(touches)
            return
        async with connection_from(self._pool) as connection:
            await write_touches(connection, touches)

    async def close(self) -> None:
        if self._touches is not None:
            await self._touches.close()

    async def closeness(
        self, owner: Owner, conversation: str, candidates: Sequence[UUID],
        vector: Vector | None, query: FocusQuery,
    ) -> FocusView:
        async with connection_from(self._pool) as connection:
            rows = await connection.fetch(
                CLOSENESS, owner.tenant, owner.user_id, conversation, query.size,
                vector_param(vector), query.resume_similarity, query.recent,
                list(candidates), query.hops,
            )
        focus = [r for r in rows if r["hops"] == 0]
        focus.sort(key=lambda r: r["rank"])
        hops: dict[UUID, int] = {}
        for r in rows:
            hops[r["id"]] = min(r["hops"], hops.get(r["id"], r["hops"]))
        return FocusView(
            focus=tuple(r["id"] for r in focus),
            resumed=any(r["resumed"] for r in focus),
            hops=hops,
        )
