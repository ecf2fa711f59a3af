"""SQL of the PostgreSQL memory adapter: set-based statements, `$n` parameters, explicit columns."""

from __future__ import annotations

from memlane.domain.facts import FUNCTIONAL_RELATIONS, TYPES_KEPT_FROM_CLEANUP

# A memory is the wide row `m` joined to its hot columns in `h`.
COLUMNS = """
    m.tenant, m.user_id, m.id, m.memory_type, m.content, m.summary, m.conversation_id,
    m.tags, m.metadata, m.attributes, m.topic_tokens, m.pinned, m.embedding,
    m.embedding_model,
    memlane_tsvector_terms(m.keywords) AS keywords, m.created_at, m.updated_at,
    h.importance, h.base_importance, h.access_count, h.accessed_at,
    m.abstract, m.overview,
    h.provenance, h.confidence, h.valence, h.arousal, h.domain, h.cluster,
    h.superseded_by, h.valid_until"""
FROM_JOINED = """
    FROM memories AS m
    JOIN memory_heat AS h ON h.tenant = m.tenant AND h.user_id = m.user_id AND h.id = m.id"""
# Per-type decay numbers arrive as three parallel arrays so they live in Python only.
TYPE_DECAY_TABLE = (
    "unnest($3::text[], $4::float8[], $5::float8[]) AS d(memory_type, modifier, floor)"
)

GET = f"SELECT {COLUMNS} {FROM_JOINED} WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = $3"

GET_MANY = f"""
SELECT {COLUMNS} {FROM_JOINED}
WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = ANY($3::uuid[])
"""

# COLUMNS without the term list (rebuilt from the tsvector, ~0.1 ms a row) or the vector.
UNINDEXED_COLUMNS = COLUMNS.replace(
    "memlane_tsvector_terms(m.keywords) AS keywords", "'{}'::text[] AS keywords"
).replace("m.embedding,", "NULL::vector AS embedding,")
assert UNINDEXED_COLUMNS.count("NULL::vector") == 1
GET_MANY_UNINDEXED = GET_MANY.replace(COLUMNS, UNINDEXED_COLUMNS)

# Keyset pagination on (created_at, id) descending; a NULL filter means "any".
LIST = f"""
SELECT {COLUMNS} {FROM_JOINED}
WHERE m.tenant = $1 AND m.user_id = $2
  AND ($3::text IS NULL OR m.memory_type = $3)
  AND ($4::text IS NULL OR m.tags @> ARRAY[$4::text])
  AND ($5::text IS NULL OR m.conversation_id = $5)
  AND ($6::float8 IS NULL OR h.importance >= $6)
  AND ($7::timestamptz IS NULL OR (m.created_at, m.id) < ($7, $8::uuid))
  AND ($10::boolean IS NULL OR (h.superseded_by IS NULL) = $10)
ORDER BY m.created_at DESC, m.id DESC
LIMIT $9
"""

# The owner's BM25 top $4 for the (blinded) terms $3, its first $7 exact (migration 0250):
# each query term's postings are read best first, $5 of them, four times deeper per pass up to
# $6, scoring at most $8 memories exactly per pass, until no unread posting can change the
# first $7; idf and the average length from the stored statistics (migration 0040). k1 = 1.2,
# b = 0.75; document length is the count of distinct terms.
SEARCH_LEXICAL_SCORED = """
WITH scored AS (
    SELECT t.id, t.score FROM memlane_lexical_top($1, $2, $3::text[], $4, $5, $6, $7, $8) AS t
)"""
DELETE = """
WITH heat AS (
    DELETE FROM memory_heat WHERE tenant = $1 AND user_id = $2 AND id = $3
), wide AS (
    DELETE FROM memories WHERE tenant = $1 AND user_id = $2 AND id = $3 RETURNING 1
)
SELECT count(*) FROM wide
"""

# An erasure: the owner's memories and what hangs off them, the quarantined copies `memlane
# verify` set aside, and the import ledger (only an erasure clears it: docs/import.md).
DELETE_ALL = """
WITH heat AS (
    DELETE FROM memory_heat WHERE tenant = $1 AND user_id = $2
), quarantined AS (
    DELETE FROM memory_quarantine WHERE tenant = $1 AND user_id = $2
), ledger AS (
    DELETE FROM import_ledger WHERE tenant = $1 AND user_id = $2
), watermark AS (
    DELETE FROM memory_sleep_watermarks WHERE tenant = $1 AND user_id = $2
), clusters AS (
    DELETE FROM memory_clusters WHERE tenant = $1 AND user_id = $2
), cluster_mark AS (
    DELETE FROM memory_cluster_marks WHERE tenant = $1 AND user_id = $2
), wide AS (
    DELETE FROM memories WHERE tenant = $1 AND user_id = $2 RETURNING 1
)
SELECT count(*) FROM wide
"""

# A cluster's summary node is derived (the sleep cycle makes it again from the members): it
# is not exported, and it has no embedding of its own to backfill.
EXPORT = f"""
SELECT {COLUMNS} {FROM_JOINED}
WHERE m.tenant = $1 AND m.user_id = $2 AND NOT h.cluster
ORDER BY m.created_at, m.id
"""

MISSING_EMBEDDINGS = f"""
SELECT {COLUMNS} {FROM_JOINED}
WHERE m.embedding IS NULL AND NOT h.cluster
ORDER BY m.created_at, m.id
LIMIT $1
"""

SET_EMBEDDINGS = """
UPDATE memories AS m
SET embedding = u.embedding, embedding_model = $5
FROM unnest($1::text[], $2::text[], $3::uuid[], $4::vector[]) AS u(tenant, user_id, id, embedding)
WHERE m.tenant = u.tenant AND m.user_id = u.user_id AND m.id = u.id
"""

# Maintenance statements open with the decay parameters (rows.decay_params): $1 now, $2 base
# rate, $3-$5 the per-type table, $6-$7 the access bonus. Owner-scoped and everyone variants
# share one body; the owner parameters come last ($8, $9) so both bind the same leading ones.
_OWNER = "AND h.tenant = $8 AND h.user_id = $9"
_TENANT = "AND h.tenant = $8"
_IMPORTANCE_NOW = (
    "memlane_importance(h.base_importance, h.access_count, h.accessed_at, "
    "d.modifier, d.floor, $1, $2, $6, $7)"
)

_STATS = f"""
SELECT h.memory_type,
       count(*) AS total,
       count(*) FILTER (WHERE m.embedding IS NOT NULL) AS with_embeddings,
       sum({_IMPORTANCE_NOW}) AS importance_sum
FROM memory_heat AS h
JOIN {TYPE_DECAY_TABLE} ON d.memory_type = h.memory_type
JOIN memories AS m ON m.tenant = h.tenant AND m.user_id = h.user_id AND m.id = h.id
WHERE true {{owner}}
GROUP BY h.memory_type
"""
STATS_OWNER = _STATS.format(owner=_OWNER)
STATS_ALL = _STATS.format(owner="")
STATS_TENANT = _STATS.format(owner=_TENANT)

# Only rows whose value changes are written: a second run at the same `now` writes nothing.
_MATERIALISE_DECAY = f"""
UPDATE memory_heat AS h
SET importance = {_IMPORTANCE_NOW}
FROM {TYPE_DECAY_TABLE}
WHERE d.memory_type = h.memory_type
  AND h.importance IS DISTINCT FROM {_IMPORTANCE_NOW}
  {{owner}}
"""
MATERIALISE_DECAY_OWNER = _MATERIALISE_DECAY.format(owner=_OWNER)
MATERIALISE_DECAY_ALL = _MATERIALISE_DECAY.format(owner="")
MATERIALISE_DECAY_TENANT = _MATERIALISE_DECAY.format(owner=_TENANT)

# Decay on access, the one statement for it: banks the decay so far into base_importance,
# restarts the clock and refreshes importance. One row per access, each with its own time and
# rate ($1-$5), then the per-type table ($6-$8) and the access bonus ($9, $10). PostgreSQL
# updates a row at most once per statement, so repeated accesses of one memory go into
# successive rounds (access_log.rounds), all in one transaction.
RECORD_ACCESSES = """
UPDATE memory_heat AS h
SET base_importance = memlane_raw_importance(
        h.base_importance, h.access_count, h.accessed_at, d.modifier, a.at, a.base_rate),
    access_count = h.access_count + 1,
    accessed_at = greatest(a.at, h.accessed_at),
    importance = memlane_importance(
        memlane_raw_importance(
            h.base_importance, h.access_count, h.accessed_at, d.modifier, a.at, a.base_rate),
        h.access_count + 1, greatest(a.at, h.accessed_at), d.modifier, d.floor, a.at, a.base_rate,
        $9, $10)
FROM unnest($1::text[], $2::text[], $3::uuid[], $4::timestamptz[], $5::float8[])
         AS a(tenant, user_id, id, at, base_rate),
     unnest($6::text[], $7::float8[], $8::float8[]) AS d(memory_type, modifier, floor)
WHERE h.tenant = a.tenant AND h.user_id = a.user_id AND h.id = a.id
  AND d.memory_type = h.memory_type
"""

# A fact that holds at now ($1) keeps its memory when it is of one of these relations or types
# (domain.facts.keeps_its_memory; a literal from the domain's own sets, never user input).
_KEY_RELATIONS = "ARRAY[{}]::text[]".format(
    ", ".join(f"'{r}'" for r in sorted(FUNCTIONAL_RELATIONS)))
_KEY_TYPES = "ARRAY[{}]::text[]".format(
    ", ".join(f"'{t.value}'" for t in sorted(TYPES_KEPT_FROM_CLEANUP)))

# The cleanup rule (memlane.domain.memories.cleanup.may_clean_up) on a heat row `h`: $8 min
# importance, $9 the latest arrival that may go (CleanupRule.arrived_by). The function is
# inlined and AND stops at the first false clause, so the probes run only for a faded row past
# its grace period: a current single-valued or safety fact read from it (migration 0182), then,
# for an imported row, a current fact read from it and a name it mentions (0163).
_MAY_CLEAN_UP = f"""memlane_may_clean_up(
        {_IMPORTANCE_NOW}, $8, h.pinned, h.arrived_at, $9,
        EXISTS (SELECT 1 FROM facts AS f
                WHERE f.tenant = h.tenant AND f.user_id = h.user_id
                  AND f.source_memory_id = h.id AND f.superseded_by IS NULL
                  AND (f.valid_until IS NULL OR f.valid_until > $1)
                  AND (f.relation = ANY({_KEY_RELATIONS}) OR f.fact_type = ANY({_KEY_TYPES}))),
        h.imported,
        EXISTS (SELECT 1 FROM facts AS f
                WHERE f.tenant = h.tenant AND f.user_id = h.user_id
                  AND f.source_memory_id = h.id AND f.superseded_by IS NULL
                  AND f.valid_until IS NULL),
        EXISTS (SELECT 1 FROM memory_mentions AS x
                WHERE x.tenant = h.tenant AND x.user_id = h.user_id AND x.memory_id = h.id))"""

# $1-$7 the decay parameters, $8 min importance, $9 arrived by, ($10, $11) the owner. The
# plain `NOT h.pinned` and importance test come first so the planner sees them as filters.
_CLEANUP = f"""
WITH doomed AS (
    DELETE FROM memory_heat AS h
    USING {TYPE_DECAY_TABLE}
    WHERE d.memory_type = h.memory_type AND NOT h.pinned
      AND {_IMPORTANCE_NOW} <= $8 AND h.arrived_at <= $9 AND {_MAY_CLEAN_UP} {{owner}}
    RETURNING h.tenant, h.user_id, h.id
), wide AS (
    DELETE FROM memories AS m
    USING doomed
    WHERE m.tenant = doomed.tenant AND m.user_id = doomed.user_id AND m.id = doomed.id
    RETURNING 1
)
SELECT count(*) FROM wide
"""
CLEANUP_OWNER = _CLEANUP.format(owner="AND h.tenant = $10 AND h.user_id = $11")
CLEANUP_TENANT = _CLEANUP.format(owner="AND h.tenant = $10")
# One of $10 disjoint shares of the owners ($11 in 0 .. $10 - 1): a cleanup over everyone runs
# its shares side by side, on as many connections (its triggers are single-threaded work).
CLEANUP_SHARE = _CLEANUP.format(
    owner="AND abs(mod(memlane_owner_hash(h.tenant, h.user_id), $10)) = $11"
)

# The same selection one owner at a time, for a cleanup that records an audit event per
# deleted memory in that owner's transaction: the owners to visit, then each owner's delete.
FADED_OWNERS = f"""
SELECT DISTINCT h.tenant, h.user_id
FROM memory_heat AS h, {TYPE_DECAY_TABLE}
WHERE d.memory_type = h.memory_type AND NOT h.pinned AND {_IMPORTANCE_NOW} <= $8
  AND h.arrived_at <= $9 AND {_MAY_CLEAN_UP}
  AND ($10::text IS NULL OR (h.tenant = $10 AND ($11::text IS NULL OR h.user_id = $11)))
ORDER BY 1, 2
"""
DELETE_FADED_OWNER = _CLEANUP.format(owner="AND h.tenant = $10 AND h.user_id = $11").replace(
    "RETURNING 1\n)\nSELECT count(*) FROM wide", "RETURNING m.id\n)\nSELECT id FROM wide"
)

# Inside a transaction only (outside one PostgreSQL ignores it with a warning).
ASYNC_COMMIT = "SET LOCAL synchronous_commit = off"

LOCK_OWNER = "SELECT pg_advisory_xact_lock(memlane_owner_hash($1, $2))"

GET_META = "SELECT value FROM memlane_meta WHERE key = $1"
INSERT_META_IF_ABSENT = """
INSERT INTO memlane_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING
"""
