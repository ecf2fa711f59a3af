"""SQL of the entity adapter: `memory_entities` and `memory_mentions` (migration 0060)."""

from __future__ import annotations

# $1, $2 the owner; $3 now; $4-$9 one array per mention (memory, proposed entity id, name
# index, kind, sealed label, salience); $10 the salience from which a mention makes a node.
# A name is one node per owner: a name index the owner has is joined whatever kind the new
# mention guessed (the recogniser's kind is right ~3 times in 4 without a cue; its first,
# usually cue-backed judgement stays), and strengthened; a new name makes a node from its
# most salient mention, if that one is sure enough. Mentions of memories that are not the
# owner's are skipped.
ADD_MENTIONS = """
WITH input AS (
    SELECT i.*, m.created_at AS said_at
    FROM unnest($4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::bytea[],
                $9::float8[]) WITH ORDINALITY
        AS i(memory_id, entity_id, name_index, kind, label, salience, ord)
    JOIN memories AS m ON m.tenant = $1 AND m.user_id = $2 AND m.id = i.memory_id
), existing AS (
    SELECT n.id, n.name_index FROM memory_entities AS n
    WHERE n.tenant = $1 AND n.user_id = $2 AND n.name_index IN (SELECT name_index FROM input)
), strengthened AS (
    UPDATE memory_entities AS n
    SET weight = greatest(n.weight, s.weight), activated_at = greatest(n.activated_at, $3)
    FROM (SELECT name_index, max(salience) AS weight FROM input
          WHERE salience >= $10 GROUP BY name_index) AS s
    WHERE n.tenant = $1 AND n.user_id = $2 AND n.name_index = s.name_index
    RETURNING n.id
), proposed AS (
    SELECT DISTINCT ON (name_index) entity_id, name_index, kind, label, salience AS weight
    FROM input
    WHERE salience >= $10 AND name_index NOT IN (SELECT name_index FROM existing)
    ORDER BY name_index, salience DESC, ord
), nodes AS (
    INSERT INTO memory_entities AS n
        (tenant, user_id, id, kind, name_index, label, weight, created_at, activated_at)
    SELECT $1, $2, entity_id, kind, name_index, label, weight, $3, $3 FROM proposed
    ON CONFLICT (tenant, user_id, name_index, kind, owner_key) DO UPDATE
        SET weight = greatest(n.weight, excluded.weight)
    RETURNING n.id, n.name_index
), known AS (
    SELECT id, name_index FROM nodes UNION SELECT id, name_index FROM existing
), stored AS (
    INSERT INTO memory_mentions AS x (tenant, user_id, memory_id, entity_id, salience, said_at)
    SELECT DISTINCT ON (i.memory_id, k.id) $1, $2, i.memory_id, k.id, i.salience, i.said_at
    FROM input AS i JOIN known AS k USING (name_index)
    ORDER BY i.memory_id, k.id, i.salience DESC
    ON CONFLICT (tenant, user_id, memory_id, entity_id, owner_key) DO UPDATE
        SET salience = greatest(x.salience, excluded.salience)
    RETURNING 1
)
SELECT count(*) FROM stored
"""

# The memories mentioning an entity with one of these name indexes ($3) that at most a
# share $5 of the owner's memories mention, or $6 (a name nearly every memory bears, such
# as a chat partner's, singles nothing out; among a few memories every name counts),
# strongest mention first, then newest; $4 at most.
# Each count stops once it passes the share, so a hot name costs a bounded index scan.
MENTIONING = """
WITH total AS (
    SELECT greatest($6::float8, $5 * coalesce(
        (SELECT s.n FROM memory_owner_stats AS s WHERE s.tenant = $1 AND s.user_id = $2), 0
    )) AS most
), named AS (
    SELECT n.id FROM memory_entities AS n, total
    WHERE n.tenant = $1 AND n.user_id = $2 AND n.name_index = ANY($3::text[])
      AND (SELECT count(*) FROM (
              SELECT 1 FROM memory_mentions AS x
              WHERE x.tenant = $1 AND x.user_id = $2 AND x.entity_id = n.id
              LIMIT floor(total.most)::bigint + 1
          ) AS capped) <= total.most
), top AS (
    SELECT t.* FROM named CROSS JOIN LATERAL (
        SELECT x.memory_id, x.salience, x.said_at FROM memory_mentions AS x
        WHERE x.tenant = $1 AND x.user_id = $2 AND x.entity_id = named.id
        ORDER BY x.salience DESC, x.said_at DESC, x.memory_id
        LIMIT $4
    ) AS t
)
SELECT memory_id FROM top
GROUP BY memory_id
ORDER BY max(salience) DESC, max(said_at) DESC, memory_id
LIMIT $4
"""

MENTIONS_OF = """
SELECT x.memory_id, x.entity_id, x.salience, n.kind, n.label, n.weight
FROM memory_mentions AS x
JOIN memory_entities AS n ON n.tenant = x.tenant AND n.user_id = x.user_id AND n.id = x.entity_id
WHERE x.tenant = $1 AND x.user_id = $2 AND x.memory_id = ANY($3::uuid[])
ORDER BY x.memory_id, x.entity_id  -- an export is the same bytes after a restore
"""

# The name indexes the owner has an entity for, through UNIQUE (tenant, user_id, name_index,
# kind).
KNOWN = """
SELECT DISTINCT e.name_index FROM memory_entities AS e
WHERE e.tenant = $1 AND e.user_id = $2 AND e.name_index = ANY($3::text[])
"""
