"""SQL of the graph adapter: edges in `memory_edges` (migration 0060), set-based."""

from __future__ import annotations

from memlane.domain.graph import REPLACEMENT_DEPTH, REPLACING_KINDS

EDGE_COLUMNS = "e.source, e.target, e.kind, e.weight, e.created_at, e.activated_at"

# $1, $2 the owner; $3-$8 one array per column. Edges whose ends are not both the owner's
# memories are skipped (the foreign keys would refuse the whole batch).
ADD_EDGES = """
WITH input AS (
    SELECT DISTINCT ON (i.source, i.target, i.kind) i.*
    FROM unnest($3::uuid[], $4::uuid[], $5::text[], $6::float8[], $7::timestamptz[],
                $8::timestamptz[]) AS i(source, target, kind, weight, created_at, activated_at)
    WHERE i.source <> i.target
      AND EXISTS (SELECT 1 FROM memories AS m
                  WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = i.source)
      AND EXISTS (SELECT 1 FROM memories AS m
                  WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = i.target)
    ORDER BY i.source, i.target, i.kind, i.weight DESC
), stored AS (
    INSERT INTO memory_edges AS e
        (tenant, user_id, source, target, kind, weight, created_at, activated_at)
    SELECT $1, $2, source, target, kind, weight, created_at, activated_at FROM input
    ON CONFLICT (tenant, user_id, source, target, kind, owner_key) DO UPDATE
        SET weight = greatest(e.weight, excluded.weight),
            activated_at = greatest(e.activated_at, excluded.activated_at)
    RETURNING 1
)
SELECT count(*) FROM stored
"""

# Semantic edges of the given nodes ($3) beyond $4 per node, counting both ends, weakest
# (then newest-made) first: a hub memory keeps its strongest links. Only nodes over the cap
# are ranked (a count per node first: most writes leave every node under it). Read, then
# deleted by DELETE_SEMANTIC when there is any.
CAP_SEMANTIC = """
WITH ends AS MATERIALIZED (
    SELECT e.source AS node, e.source, e.target, e.weight, e.created_at
    FROM memory_edges AS e
    WHERE e.tenant = $1 AND e.user_id = $2 AND e.kind = 'semantic' AND e.source = ANY($3::uuid[])
    UNION ALL
    SELECT e.target AS node, e.source, e.target, e.weight, e.created_at
    FROM memory_edges AS e
    WHERE e.tenant = $1 AND e.user_id = $2 AND e.kind = 'semantic' AND e.target = ANY($3::uuid[])
), crowded AS (
    SELECT node FROM ends GROUP BY node HAVING count(*) > $4
), ranked AS (
    SELECT ends.source, ends.target, row_number() OVER (
        PARTITION BY ends.node ORDER BY ends.weight DESC, ends.created_at, ends.source,
        ends.target) AS place
    FROM ends JOIN crowded USING (node)
)
SELECT DISTINCT source, target FROM ranked WHERE place > $4
"""
# The doomed edges by primary key (a join from the ranking let the planner scan every
# semantic edge of the owner).
DELETE_SEMANTIC = """
DELETE FROM memory_edges AS e
USING unnest($3::uuid[], $4::uuid[]) AS d(source, target)
WHERE e.tenant = $1 AND e.user_id = $2 AND e.source = d.source AND e.target = d.target
  AND e.kind = 'semantic'
"""

# Edges used ($1-$6, one array per column, any owners): each becomes its strength at the
# use plus $9, capped at 1, and restarts its fade there (domain.graph.used, with the
# half-lives the domain binds: $7 the kinds, $8 their half-lives in days, NULL: no fade).
# An edge used n times in one batch takes n boosts at its latest use (uses a flush apart
# are milliseconds apart: the fade between them is below 1e-8).
USE_EDGES = """
WITH uses AS (
    SELECT u.tenant, u.user_id, u.source, u.target, u.kind, max(u.at) AS at, count(*) AS n
    FROM unnest($1::text[], $2::text[], $3::uuid[], $4::uuid[], $5::text[],
                $6::timestamptz[]) AS u(tenant, user_id, source, target, kind, at)
    GROUP BY u.tenant, u.user_id, u.source, u.target, u.kind
), faded AS (
    SELECT uses.*, h.half_life
    FROM uses LEFT JOIN unnest($7::text[], $8::float8[]) AS h(kind, half_life)
        ON h.kind = uses.kind
), done AS (
    UPDATE memory_edges AS e
    -- PostgreSQL raises on a float8 underflow where Python gives 0: a weight below 1e-100
    -- has faded to nothing, and the fade is capped at 0.5 ^ 600 (~2e-181), so the product
    -- stays above 1e-281.
    SET weight = least(1.0, CASE
            WHEN f.at <= e.activated_at OR f.half_life IS NULL THEN e.weight
            WHEN e.weight < 1e-100 THEN 0.0
            ELSE e.weight * power(0.5, least(600.0, extract(epoch FROM f.at - e.activated_at)
                                                    ::float8 / 86400.0 / f.half_life))
        END + f.n * $9::float8),
        activated_at = greatest(e.activated_at, f.at)
    FROM faded AS f
    WHERE e.tenant = f.tenant AND e.user_id = f.user_id AND e.source = f.source
      AND e.target = f.target AND e.kind = f.kind
    RETURNING f.n
)
SELECT coalesce(sum(n), 0) FROM done
"""

# In a fixed order: an export of the same graph is the same bytes, whatever the rows'
# physical order (a database restored from a dump has another).
EDGES_OF = f"""
SELECT {EDGE_COLUMNS}
FROM memory_edges AS e
WHERE e.tenant = $1 AND e.user_id = $2
  AND (e.source = ANY($3::uuid[]) OR e.target = ANY($3::uuid[]))
  AND ($4::text[] IS NULL OR e.kind = ANY($4::text[]))
ORDER BY e.source, e.target, e.kind
"""

REMOVE_EDGE = """
DELETE FROM memory_edges
WHERE tenant = $1 AND user_id = $2 AND source = $3 AND target = $4
  AND ($5::text IS NULL OR kind = $5)
"""

# $3, $4 the new memories' ids and times: for each, the owner's memory just before it on
# the timeline (the owner's created_at index, one probe each).
PREDECESSORS = """
SELECT n.id AS new_id, p.id, p.created_at, p.conversation_id
FROM unnest($3::uuid[], $4::timestamptz[]) AS n(id, at)
CROSS JOIN LATERAL (
    SELECT m.id, m.created_at, m.conversation_id FROM memories AS m
    WHERE m.tenant = $1 AND m.user_id = $2
      AND (m.created_at < n.at OR (m.created_at = n.at AND m.id < n.id))
    ORDER BY m.created_at DESC, m.id DESC
    LIMIT 1
) AS p
"""

# The replacing kinds as a literal: a generic plan can use the partial index on them
# (migration 0141) only when the statement names them as its predicate does.
REPLACING_KINDS_SQL = ", ".join(f"'{k.value}'" for k in sorted(REPLACING_KINDS))

# The edges spreading activation walks, in one round trip (GraphPort.neighbourhood). $3, $4
# the seeds and their activations; $5 the fan-out: each memory's strongest edges of the
# walked kinds ($7) per direction, a top-n scan of memory_edges_{source,target}_strength_idx
# (index-only); $6 how many of the memories the seeds reach (best seed activation x stored
# weight first) spread on. The replacing edges into any memory reached, a seed or one of
# $8 are read too (memory_edges_replacing_idx), followed through up to three replacements.
_STRONGEST = """
    SELECT {origin}.activation, x.* FROM {origin} CROSS JOIN LATERAL (
        SELECT e.source, e.target, e.kind, e.weight, e.created_at, e.activated_at,
               e.{far} AS other
        FROM memory_edges AS e
        WHERE e.tenant = $1 AND e.user_id = $2 AND e.{near} = {origin}.id
          AND e.kind = ANY($7::text[])
        ORDER BY e.weight DESC
        LIMIT $5
    ) AS x"""


def _both_ways(origin: str) -> str:
    return (
        _STRONGEST.format(origin=origin, near="source", far="target")
        + "\n    UNION ALL"
        + _STRONGEST.format(origin=origin, near="target", far="source")
    )


NEIGHBOURHOOD = f"""
WITH RECURSIVE seeds AS (
    SELECT s.id, s.activation FROM unnest($3::uuid[], $4::float8[]) AS s(id, activation)
), first AS MATERIALIZED ({_both_ways("seeds")}
), frontier AS MATERIALIZED (
    SELECT f.other AS id, max(f.activation * f.weight) AS activation
    FROM first AS f
    WHERE f.other <> ALL($3::uuid[])
    GROUP BY f.other
    ORDER BY max(f.activation * f.weight) DESC, f.other
    LIMIT $6
), second AS MATERIALIZED ({_both_ways("frontier")}
), reached AS (
    SELECT id FROM seeds UNION SELECT other FROM first UNION SELECT other FROM second
    UNION SELECT unnest($8::uuid[])
), replacing AS (
    SELECT {EDGE_COLUMNS}, 1 AS depth
    FROM reached AS r
    JOIN memory_edges AS e ON e.tenant = $1 AND e.user_id = $2 AND e.target = r.id
    WHERE e.kind IN ({REPLACING_KINDS_SQL})
    UNION
    SELECT {EDGE_COLUMNS}, p.depth + 1
    FROM replacing AS p
    JOIN memory_edges AS e ON e.tenant = $1 AND e.user_id = $2 AND e.target = p.source
    WHERE e.kind IN ({REPLACING_KINDS_SQL}) AND p.depth < {REPLACEMENT_DEPTH}
)
SELECT source, target, kind, weight, created_at, activated_at FROM first
UNION
SELECT source, target, kind, weight, created_at, activated_at FROM second
UNION
SELECT source, target, kind, weight, created_at, activated_at FROM replacing
"""
