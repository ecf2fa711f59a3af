"""SQL of the clusters: owners to group, pairs by name and meaning, summary nodes kept."""

from __future__ import annotations

from memlane.adapters.postgres.cosine import similarity_from_distance

# $1 tenant, $2 user (NULL: any): one user, one tenant, or everyone. An owner is grouped
# again when a memory that is not a summary was written or edited since its mark (one
# probe of memories_owner_updated_idx per owner), or a member's deletion left a cluster
# empty (its tombstone, migration 0220); summaries are written at the cycle's start time,
# which becomes the mark, so a cycle's own summaries never wake their owner.
OWNERS = """
SELECT o.tenant, o.user_id
FROM memory_owner_stats AS o
LEFT JOIN memory_cluster_marks AS k ON k.tenant = o.tenant AND k.user_id = o.user_id
WHERE ($1::text IS NULL OR o.tenant = $1) AND ($2::text IS NULL OR o.user_id = $2)
  AND (EXISTS (
    SELECT 1 FROM memories AS m
    JOIN memory_heat AS h ON h.tenant = m.tenant AND h.user_id = m.user_id AND h.id = m.id
    WHERE m.tenant = o.tenant AND m.user_id = o.user_id AND m.updated_at < $3
      AND (k.tenant IS NULL OR m.updated_at >= k.through_at) AND NOT h.cluster
  ) OR EXISTS (
    SELECT 1 FROM memory_clusters AS c
    WHERE c.tenant = o.tenant AND c.user_id = o.user_id AND cardinality(c.members) = 0
  ))
ORDER BY o.tenant, o.user_id
LIMIT $4
"""

_OWNERS = "SELECT DISTINCT * FROM unnest($1::text[], $2::text[]) AS o(tenant, user_id)"

# The names to group again, per owner: those a memory written or edited since the owner's
# mark mentions (every name without a mark), and those of emptied or stale clusters. Per such name
# with at least $6 current embedded memories, its $5 latest: a name of at most $7 of them
# pairs them all (it is one group as it is); of a bigger one, every two of one model are
# compared, each keeping its $4 nearest at or above cosine $3, a pair kept when each is
# among the other's nearest. The comparison pairs up each name's own memories (two unnests
# of its arrays), and mutual pairs are counted, not joined: joins of these derived rows ran
# as nested loops over the whole batch (80 s for ten owners' 7,000 mentions; this way
# ~1 s). Each name regrouped comes back once with no pair (first and second NULL).
PAIRS = f"""
WITH owners AS (
    SELECT o.tenant, o.user_id, k.through_at
    FROM ({_OWNERS}) AS o
    LEFT JOIN memory_cluster_marks AS k ON k.tenant = o.tenant AND k.user_id = o.user_id
), dirty AS MATERIALIZED (
    SELECT x.tenant, x.user_id, x.entity_id
    FROM owners AS o
    JOIN memories AS m ON m.tenant = o.tenant AND m.user_id = o.user_id
     AND (o.through_at IS NULL OR m.updated_at >= o.through_at)
    JOIN memory_mentions AS x
      ON x.tenant = m.tenant AND x.user_id = m.user_id AND x.memory_id = m.id
    UNION
    SELECT c.tenant, c.user_id, c.anchor
    FROM owners AS o
    JOIN memory_clusters AS c ON c.tenant = o.tenant AND c.user_id = o.user_id
    WHERE c.anchor IS NOT NULL AND (cardinality(c.members) = 0 OR EXISTS (
        SELECT 1 FROM memories AS m
        WHERE m.tenant = c.tenant AND m.user_id = c.user_id AND m.id = ANY(c.members)
          AND m.updated_at > c.updated_at))
), anchored AS MATERIALIZED (
    SELECT x.tenant, x.user_id, x.entity_id, m.id, m.embedding, m.embedding_model,
           row_number() OVER (PARTITION BY x.tenant, x.user_id, x.entity_id
                              ORDER BY m.updated_at DESC, m.id) AS recent,
           count(*) OVER (PARTITION BY x.tenant, x.user_id, x.entity_id) AS mentions
    FROM dirty AS d
    JOIN memory_mentions AS x
      ON x.tenant = d.tenant AND x.user_id = d.user_id AND x.entity_id = d.entity_id
    JOIN memories AS m ON m.tenant = x.tenant AND m.user_id = x.user_id AND m.id = x.memory_id
    JOIN memory_heat AS h ON h.tenant = m.tenant AND h.user_id = m.user_id AND h.id = m.id
    WHERE m.embedding IS NOT NULL AND NOT h.cluster AND h.superseded_by IS NULL
), names AS (
    SELECT tenant, user_id, entity_id, count(*) AS size, array_agg(id ORDER BY id) AS ids,
           array_agg(embedding ORDER BY id) AS vectors,
           array_agg(embedding_model ORDER BY id) AS models
    FROM anchored WHERE recent <= $5 AND mentions >= $6
    GROUP BY tenant, user_id, entity_id
), ranked AS (
    SELECT n.tenant, n.user_id, n.entity_id, n.size, a.id AS first, b.id AS second,
           row_number() OVER (PARTITION BY n.tenant, n.user_id, n.entity_id, a.id
                              ORDER BY a.vector <=> b.vector, b.id) AS rank
    FROM names AS n
    CROSS JOIN LATERAL unnest(n.ids, n.vectors, n.models) AS a(id, vector, model)
    CROSS JOIN LATERAL unnest(n.ids, n.vectors, n.models) AS b(id, vector, model)
    WHERE a.id <> b.id AND a.model = b.model
      AND (n.size <= $7 OR {similarity_from_distance("a.vector <=> b.vector")} >= $3)
)
-- Mutual: the pair is among the nearest of both, so it is found twice.
SELECT tenant, user_id, entity_id, least(first, second) AS first,
       greatest(first, second) AS second
FROM ranked WHERE rank <= $4 OR size <= $7
GROUP BY tenant, user_id, entity_id, least(first, second), greatest(first, second)
HAVING count(*) = 2
UNION ALL
SELECT tenant, user_id, entity_id, NULL::uuid, NULL::uuid FROM dirty
ORDER BY 1, 2, 3, 4, 5
"""

# Stale: a member was edited after the summary was made (its words may have changed).
CLUSTERS = f"""
SELECT c.tenant, c.user_id, c.id, c.anchor, c.members,
       EXISTS (SELECT 1 FROM memories AS m
               WHERE m.tenant = c.tenant AND m.user_id = c.user_id AND m.id = ANY(c.members)
                 AND m.updated_at > c.updated_at) AS stale
FROM ({_OWNERS}) AS o
JOIN memory_clusters AS c ON c.tenant = o.tenant AND c.user_id = o.user_id
ORDER BY c.tenant, c.user_id, c.id
"""

# $3 the saved summaries, $4 their anchors; $5, $6 (summary, member) pairs; $7 now. The
# vector is the mean of the members' (pgvector's avg), of the model most of them have.
SAVE_CLUSTERS = """
WITH input AS (SELECT * FROM unnest($3::uuid[], $4::uuid[]) AS i(id, anchor)),
pairs AS (SELECT * FROM unnest($5::uuid[], $6::uuid[]) AS p(id, member)),
grouped AS (
    SELECT p.id, array_agg(p.member ORDER BY p.member) AS members,
           avg(m.embedding) AS centroid, mode() WITHIN GROUP (ORDER BY m.embedding_model) AS model
    FROM pairs AS p
    LEFT JOIN memories AS m ON m.tenant = $1 AND m.user_id = $2 AND m.id = p.member
    GROUP BY p.id
)
INSERT INTO memory_clusters AS c
    (tenant, user_id, id, anchor, members, centroid, embedding_model, updated_at)
SELECT $1, $2, i.id, i.anchor, g.members, g.centroid, g.model, $7::timestamptz
FROM input AS i JOIN grouped AS g ON g.id = i.id
ORDER BY i.id
ON CONFLICT (tenant, user_id, id, owner_key) DO UPDATE
SET anchor = excluded.anchor, members = excluded.members, centroid = excluded.centroid,
    embedding_model = excluded.embedding_model, updated_at = excluded.updated_at
"""

# A refreshed summary's links to former members go; $3 the saved summaries, $4, $5 the
# (summary, member) pairs that stay.
UNLINK_FORMER = """
DELETE FROM memory_edges AS e
WHERE e.tenant = $1 AND e.user_id = $2 AND e.kind = 'narrative' AND e.source = ANY($3::uuid[])
  AND NOT EXISTS (
    SELECT 1 FROM unnest($4::uuid[], $5::uuid[]) AS w(source, target)
    WHERE w.source = e.source AND w.target = e.target)
"""

# Summaries and heat deleted together, as every delete does (the triggers take their links),
# and their clusters, emptied ones (whose summary is already gone) too.
DROP = """
WITH heat AS (
    DELETE FROM memory_heat WHERE tenant = $1 AND user_id = $2 AND id = ANY($3::uuid[])
), clusters AS (
    DELETE FROM memory_clusters WHERE tenant = $1 AND user_id = $2 AND id = ANY($3::uuid[])
)
DELETE FROM memories WHERE tenant = $1 AND user_id = $2 AND id = ANY($3::uuid[])
"""

MARK = """
INSERT INTO memory_cluster_marks AS k (tenant, user_id, through_at)
SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[])
ORDER BY 1, 2
ON CONFLICT (tenant, user_id, owner_key) DO UPDATE SET through_at = excluded.through_at
WHERE k.through_at < excluded.through_at
"""

# An owner has a few dozen summaries: an exact scan, no index.
NEAREST = f"""
SELECT c.id, {similarity_from_distance("c.centroid <=> $3")} AS similarity, c.members
FROM memory_clusters AS c
WHERE c.tenant = $1 AND c.user_id = $2 AND c.centroid IS NOT NULL AND c.embedding_model = $4
ORDER BY c.centroid <=> $3, c.id
LIMIT $5
"""
