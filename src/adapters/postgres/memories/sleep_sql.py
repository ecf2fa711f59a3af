"""SQL of the sleep cycle: batches from watermarks, near-duplicates, weaving, pruning."""

from __future__ import annotations

from memlane.adapters.postgres.cosine import similarity_from_distance

# $1 tenant, $2 user (NULL: any): one user, one tenant, or everyone.
_REACH = "($1::text IS NULL OR o.tenant = $1) AND ($2::text IS NULL OR o.user_id = $2)"
# Each owner's memories after its watermark, written before $3 (the cycle's start, so what
# the cycle itself writes waits for the next one): one range of
# memories_owner_updated_idx per owner (migration 0211).
_AFTER_MARK = """
    FROM memory_owner_stats AS o
    LEFT JOIN memory_sleep_watermarks AS w ON w.tenant = o.tenant AND w.user_id = o.user_id
    CROSS JOIN LATERAL (
        SELECT m.id, m.updated_at FROM memories AS m
        WHERE m.tenant = o.tenant AND m.user_id = o.user_id AND m.updated_at < $3
          AND (w.tenant IS NULL OR (m.updated_at, m.id) > (w.through_at, w.through_id))
        ORDER BY m.updated_at, m.id
        LIMIT {limit}
    ) AS c"""

PENDING = f"SELECT count(*) {_AFTER_MARK.format(limit='ALL')} WHERE {_REACH}"

# Owner by owner (the stats' key order), so a batch is a few owners' changes; the LIMIT in
# the lateral keeps one big owner from being read whole for a batch.
CHANGED = f"""
SELECT o.tenant, o.user_id, c.id, c.updated_at {_AFTER_MARK.format(limit='$4')}
WHERE {_REACH}
ORDER BY o.tenant, o.user_id, c.updated_at, c.id
LIMIT $4
"""

_BATCH = "unnest($1::text[], $2::text[], $3::uuid[]) AS b(tenant, user_id, id)"
_CURRENT = "NOT {h}.cluster AND {h}.superseded_by IS NULL"
_SIMILARITY = similarity_from_distance("n.embedding <=> c.embedding")

# Each batch memory's $5 nearest of its owner, kept at or above $4: for owners small enough
# to scan (memory_owner_stats), an exact scan of the owner's rows per memory.
NEAR_DUPLICATES = f"""
SELECT c.tenant, c.user_id, c.id AS first, near.id AS second
FROM {_BATCH}
JOIN memories AS c ON c.tenant = b.tenant AND c.user_id = b.user_id AND c.id = b.id
JOIN memory_heat AS ch ON ch.tenant = c.tenant AND ch.user_id = c.user_id AND ch.id = c.id
CROSS JOIN LATERAL (
    SELECT n.id, n.embedding_model, {_SIMILARITY} AS similarity
    FROM memories AS n
    WHERE n.tenant = c.tenant AND n.user_id = c.user_id AND n.embedding IS NOT NULL
    ORDER BY n.embedding <=> c.embedding
    LIMIT $5 + 1
) AS near
JOIN memory_heat AS nh ON nh.tenant = c.tenant AND nh.user_id = c.user_id AND nh.id = near.id
WHERE c.embedding IS NOT NULL AND {_CURRENT.format(h="ch")} AND {_CURRENT.format(h="nh")}
  AND near.id <> c.id AND near.embedding_model = c.embedding_model AND near.similarity >= $4
"""

# The same for one big owner, named by constants: the planner then knows the owner's size
# (its statistics) and walks the HNSW index per memory instead of reading all the owner's
# rows per memory (100 ms each at 17k memories, against a few ms).
NEAR_DUPLICATES_OF_OWNER = (
    NEAR_DUPLICATES
    .replace(f"FROM {_BATCH}", "FROM unnest($3::uuid[]) AS b(id)")
    .replace("c.tenant = b.tenant AND c.user_id = b.user_id", "c.tenant = $1 AND c.user_id = $2")
    .replace("n.tenant = c.tenant AND n.user_id = c.user_id", "n.tenant = $1 AND n.user_id = $2")
)
assert NEAR_DUPLICATES_OF_OWNER.count("$1") == 2

OWNER_SIZES = """
SELECT s.tenant, s.user_id, s.n
FROM (SELECT DISTINCT * FROM unnest($1::text[], $2::text[]) AS o(tenant, user_id)) AS o
JOIN memory_owner_stats AS s ON s.tenant = o.tenant AND s.user_id = o.user_id
"""

# The entities the batch's conversation memories mention (a name no more than $6 of its
# owner's memories mention, or at most $7 of them), every current conversation memory
# mentioning each, and a link from each to the next in time. ON CONFLICT: a link already
# there stays as it is.
WEAVE = f"""
WITH named AS (
    SELECT DISTINCT x.tenant, x.user_id, x.entity_id
    FROM {_BATCH}
    JOIN memories AS m ON m.tenant = b.tenant AND m.user_id = b.user_id AND m.id = b.id
    JOIN memory_mentions AS x
      ON x.tenant = b.tenant AND x.user_id = b.user_id AND x.memory_id = b.id
    WHERE m.conversation_id IS NOT NULL
), rare AS (
    SELECT e.tenant, e.user_id, e.entity_id
    FROM named AS e
    JOIN memory_owner_stats AS s ON s.tenant = e.tenant AND s.user_id = e.user_id
    WHERE (SELECT count(*) FROM memory_mentions AS y
           WHERE y.tenant = e.tenant AND y.user_id = e.user_id AND y.entity_id = e.entity_id)
          <= greatest($7, $6 * s.n)
), stories AS (
    SELECT x.tenant, x.user_id, x.memory_id AS id,
           lag(x.memory_id) OVER (PARTITION BY x.tenant, x.user_id, x.entity_id
                                  ORDER BY m.created_at, m.id) AS previous
    FROM rare AS e
    JOIN memory_mentions AS x
      ON x.tenant = e.tenant AND x.user_id = e.user_id AND x.entity_id = e.entity_id
    JOIN memories AS m ON m.tenant = x.tenant AND m.user_id = x.user_id AND m.id = x.memory_id
    JOIN memory_heat AS h ON h.tenant = m.tenant AND h.user_id = m.user_id AND h.id = m.id
    WHERE m.conversation_id IS NOT NULL AND {_CURRENT.format(h="h")}
)
INSERT INTO memory_edges (tenant, user_id, source, target, kind, weight, created_at,
                          activated_at)
SELECT DISTINCT tenant, user_id, previous, id, 'narrative', $5::float8, $4::timestamptz,
       $4::timestamptz
FROM stories WHERE previous IS NOT NULL AND previous <> id
ORDER BY tenant, user_id, previous, id
ON CONFLICT DO NOTHING
"""

ADVANCE = """
INSERT INTO memory_sleep_watermarks AS w (tenant, user_id, through_at, through_id)
SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::uuid[])
ORDER BY 1, 2
ON CONFLICT (tenant, user_id, owner_key) DO UPDATE
SET through_at = excluded.through_at, through_id = excluded.through_id
WHERE (w.through_at, w.through_id) < (excluded.through_at, excluded.through_id)
"""

# Strength = weight x 0.5 ^ (days since last use / half-life), as domain/graph/edges.py
# computes it; kinds without a half-life are not in the table and never go.
PRUNE = """
WITH fading AS (
    SELECT * FROM unnest($3::text[], $4::float8[]) AS f(kind, half_life)
)
DELETE FROM memory_edges AS o
USING fading AS f
WHERE o.kind = f.kind AND ($1::text IS NULL OR o.tenant = $1)
  AND ($2::text IS NULL OR o.user_id = $2)
  -- PostgreSQL raises on a float8 underflow: a weight below 1e-100 has faded to nothing,
  -- and the exponent is capped (0.5 ^ 600 is ~2e-181), so the product stays above 1e-281.
  AND (o.weight < 1e-100 OR o.weight * power(0.5, least(600, greatest(0,
        extract(epoch FROM $5::timestamptz - o.activated_at)) / 86400.0 / f.half_life)) < $6)
"""
