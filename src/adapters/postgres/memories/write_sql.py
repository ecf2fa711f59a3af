"""SQL of the write session: whole batches in one statement each, through `unnest`."""

from __future__ import annotations

from memlane.adapters.postgres.cosine import cosine, similarity_from_distance
from memlane.adapters.postgres.memories.sql import COLUMNS

_SIMILARITY = cosine("m.embedding", "q.embedding")
_FROM_DISTANCE = similarity_from_distance("d.distance")

# Per-row arrays of different lengths (tags, terms) cannot be unnested as a text[][]; they
# arrive as JSON text, one document per row. $1, $2: tenant, user_id; then one array per
# column, in this order.
_INPUT = """
input AS (
    SELECT * FROM unnest(
        $3::uuid[], $4::text[], $5::bytea[], $6::bytea[], $7::text[], $8::text[], $9::text[],
        $10::boolean[], $11::vector[], $12::text[], $13::text[], $14::timestamptz[],
        $15::timestamptz[], $16::float8[], $17::float8[], $18::integer[], $19::timestamptz[],
        $20::bytea[], $21::text[], $22::bytea[], $23::bytea[], $24::text[], $25::float8[],
        $26::float4[], $27::float4[], $28::text[], $29::boolean[], $30::timestamptz[],
        $31::boolean[]
    ) AS u(id, memory_type, content, summary, conversation_id, tags, metadata, pinned,
           embedding, embedding_model, terms, created_at, updated_at,
           importance, base_importance, access_count, accessed_at, attributes, topics,
           abstract, overview, provenance, confidence, valence, arousal, domain, cluster,
           arrived_at, imported)
)"""
_TAGS = "ARRAY(SELECT jsonb_array_elements_text(i.tags::jsonb))"
# NULL stays NULL (a row whose topic tokens are not known yet), unlike ARRAY(SELECT ...).
_TOPICS = (
    "CASE WHEN i.topics IS NULL THEN NULL "
    "ELSE ARRAY(SELECT jsonb_array_elements_text(i.topics::jsonb)) END"
)
_KEYWORDS = "memlane_terms_tsvector(ARRAY(SELECT jsonb_array_elements_text(i.terms::jsonb)))"

INSERT_MANY = f"""
WITH {_INPUT}, wide AS (
    INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, conversation_id,
                          tags, metadata, attributes, pinned, embedding, embedding_model,
                          keywords, created_at, updated_at, topic_tokens, abstract, overview)
    SELECT $1, $2, i.id, i.memory_type, i.content, i.summary, i.conversation_id, {_TAGS},
           i.metadata::jsonb, i.attributes, i.pinned, i.embedding, i.embedding_model, {_KEYWORDS},
           i.created_at, i.updated_at, {_TOPICS}, i.abstract, i.overview
    FROM input AS i
)
INSERT INTO memory_heat (tenant, user_id, id, memory_type, pinned,
                         importance, base_importance, access_count, accessed_at,
                         provenance, confidence, valence, arousal, domain, cluster,
                         arrived_at, imported)
SELECT $1, $2, i.id, i.memory_type, i.pinned,
       i.importance, i.base_importance, i.access_count, i.accessed_at,
       i.provenance, i.confidence, i.valence, i.arousal, i.domain, coalesce(i.cluster, false),
       i.arrived_at, i.imported
FROM input AS i
"""

REPLACE_MANY = f"""
WITH {_INPUT}, wide AS (
    UPDATE memories AS m
    SET memory_type = i.memory_type, content = i.content, summary = i.summary,
        conversation_id = i.conversation_id, tags = {_TAGS}, metadata = i.metadata::jsonb,
        attributes = i.attributes, topic_tokens = {_TOPICS},
        abstract = i.abstract, overview = i.overview,
        pinned = i.pinned, embedding = i.embedding, embedding_model = i.embedding_model,
        keywords = {_KEYWORDS}, created_at = i.created_at, updated_at = i.updated_at
    FROM input AS i
    WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = i.id
    RETURNING m.id
), heat AS (
    UPDATE memory_heat AS h
    SET memory_type = i.memory_type, pinned = i.pinned, importance = i.importance,
        base_importance = i.base_importance, access_count = i.access_count,
        accessed_at = i.accessed_at, provenance = i.provenance, confidence = i.confidence,
        valence = i.valence, arousal = i.arousal, domain = i.domain,
        cluster = coalesce(i.cluster, false)
    FROM input AS i
    WHERE h.tenant = $1 AND h.user_id = $2 AND h.id = i.id
      AND i.id IN (SELECT id FROM wide)
)
SELECT count(*) FROM wide
"""

# For each query vector (by its ordinal), the owner's $5 nearest memories (ids and cosines,
# best first) and the nearest one's full row and heat (what dedup merges into). An owner
# with at most $4 memories is scanned once for the whole batch (each row's distance to every
# vector): probing per vector scanned the rows once per vector (64 x 3.2 ms at 857
# memories). A bigger owner gets one index probe per vector.
NEAREST_MANY = f"""
WITH q AS MATERIALIZED (
    SELECT u.embedding, u.ord FROM unnest($3::vector[]) WITH ORDINALITY AS u(embedding, ord)
),
owner_size AS MATERIALIZED (
    SELECT coalesce(max(s.n), 0) AS n
    FROM memory_owner_stats AS s WHERE s.tenant = $1 AND s.user_id = $2
),
near AS MATERIALIZED (
    (
        -- Only the distance is sorted on and carried (OFFSET 0 keeps the subquery's narrow
        -- rows): flattened, the aggregate's sort carried both vectors of every pair (220 MB
        -- spilled to disk for 32 drafts against 2,242 memories: 360 ms).
        SELECT d.ord,
               (array_agg(d.id ORDER BY d.distance, d.id))[1:$5] AS ids,
               (array_agg({_FROM_DISTANCE} ORDER BY d.distance, d.id))[1:$5] AS similarities
        FROM (
            SELECT q.ord, m.id, m.embedding <=> q.embedding AS distance
            FROM q CROSS JOIN memories AS m
            WHERE (SELECT n FROM owner_size) <= $4
              AND m.tenant = $1 AND m.user_id = $2 AND m.embedding IS NOT NULL
            OFFSET 0
        ) AS d
        GROUP BY d.ord
    )
    UNION ALL
    SELECT q.ord, b.ids, b.similarities
    FROM q CROSS JOIN LATERAL (
        -- array_agg keeps the order of the sorted subquery it reads.
        SELECT array_agg(n.id) AS ids, array_agg(n.similarity) AS similarities
        FROM (
            SELECT m.id, {_SIMILARITY} AS similarity
            FROM memories AS m
            WHERE m.tenant = $1 AND m.user_id = $2 AND m.embedding IS NOT NULL
            ORDER BY m.embedding <=> q.embedding
            LIMIT $5
        ) AS n
    ) AS b
    WHERE (SELECT n FROM owner_size) > $4 AND b.ids IS NOT NULL
)
SELECT near.ord, {COLUMNS}, near.similarities[1] AS similarity,
       near.ids AS near_ids, near.similarities AS near_similarities
FROM near
JOIN memories AS m ON m.tenant = $1 AND m.user_id = $2 AND m.id = near.ids[1]
JOIN memory_heat AS h ON h.tenant = $1 AND h.user_id = $2 AND h.id = near.ids[1]
"""
# Up to this many memories an owner is scanned once per batch for near-duplicates.
SCAN_ONCE_MAX_MEMORIES = 5000

FIRST_MISSING = """
SELECT i.id FROM unnest($3::uuid[]) WITH ORDINALITY AS i(id, ord)
WHERE NOT EXISTS (SELECT 1 FROM memories AS m
                  WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = i.id)
ORDER BY i.ord LIMIT 1
"""
