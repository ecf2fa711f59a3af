"""SQL of the fact adapter: `facts` (migration 0070), set-based, every statement owner-scoped."""

from __future__ import annotations

FACT_COLUMNS = (
    "f.tenant, f.user_id, f.id, f.subject, f.object, f.subject_index, f.object_index, "
    "f.relation, f.fact_type, f.time_span, f.confidence, f.user_fact_score, "
    "f.source_memory_id, f.source_time, f.valid_from, f.valid_until, f.superseded_by, "
    "f.created_at, f.updated_at, f.relation_sealed"
)
# Current at $now: not superseded, and not ended (an end still ahead does not count yet).
CURRENT_AT = "(f.superseded_by IS NULL AND (f.valid_until IS NULL OR f.valid_until > {now}))"

GET = f"""
SELECT {FACT_COLUMNS} FROM facts AS f
WHERE f.tenant = $1 AND f.user_id = $2 AND f.id = $3
"""

# $3 type or NULL; $4 current: true, false or NULL (all); $5 now; $6, $7 the cursor or NULL.
LIST = f"""
SELECT {FACT_COLUMNS} FROM facts AS f
WHERE f.tenant = $1 AND f.user_id = $2
  AND ($3::text IS NULL OR f.fact_type = $3)
  AND ($4::boolean IS NULL OR {CURRENT_AT.format(now="$5")} = $4)
  AND ($6::timestamptz IS NULL OR (f.created_at, f.id) < ($6, $7::uuid))
ORDER BY f.created_at DESC, f.id DESC
LIMIT $8
"""

# $3 now; $4 relations or NULL (any); $5 source memories or NULL (any).
CURRENT = f"""
SELECT {FACT_COLUMNS} FROM facts AS f
WHERE f.tenant = $1 AND f.user_id = $2 AND {CURRENT_AT.format(now="$3")}
  AND ($4::text[] IS NULL OR f.relation = ANY($4::text[]))
  AND ($5::uuid[] IS NULL OR f.source_memory_id = ANY($5::uuid[]))
"""

# One statement stores new facts ($3-$20, one array per column) and overwrites ended ones
# ($21-$30, as UPDATE_MANY): atomic and one round trip. A new fact read from a memory that
# is gone (deleted since it was read) is skipped, so no fact outlives its source. {relax}
# is empty, or a CTE making this statement's own commit asynchronous (SAVE_RELAXED).
_SAVE = """
WITH {relax} input AS (
    SELECT i.* FROM unnest(
        $3::uuid[], $4::bytea[], $5::bytea[], $6::text[], $7::text[], $8::text[], $9::text[],
        $10::text[], $11::float8[], $12::float8[], $13::uuid[], $14::timestamptz[],
        $15::timestamptz[], $16::timestamptz[], $17::uuid[], $18::timestamptz[],
        $19::timestamptz[], $20::bytea[]
    ) AS i(id, subject, object, subject_index, object_index, relation, fact_type, time_span,
           confidence, user_fact_score, source_memory_id, source_time, valid_from,
           valid_until, superseded_by, created_at, updated_at, relation_sealed){relaxed}
    WHERE i.source_memory_id IS NULL OR EXISTS (
        SELECT 1 FROM memories AS m
        WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = i.source_memory_id)
), stored AS (
    INSERT INTO facts (tenant, user_id, id, subject, object, subject_index, object_index,
                       relation, fact_type, time_span, confidence, user_fact_score,
                       source_memory_id, source_time, valid_from, valid_until, superseded_by,
                       created_at, updated_at, relation_sealed)
    SELECT $1, $2, id, subject, object, subject_index, object_index, relation, fact_type,
           time_span, confidence, user_fact_score, source_memory_id, source_time, valid_from,
           valid_until, superseded_by, created_at, updated_at, relation_sealed
    FROM input
    RETURNING 1
), ended AS (
    {update}
    RETURNING 1
)
SELECT (SELECT count(*) FROM stored) AS stored, (SELECT count(*) FROM ended) AS ended
"""

# Overwrites every field a fact may change (the sealed object included: a PATCH reseals it).
# $3-$12 one array per column (SAVE binds them from $21).
_UPDATE = """UPDATE facts AS f
    SET object = u.object, object_index = u.object_index, fact_type = u.fact_type,
        time_span = u.time_span, confidence = u.confidence,
        user_fact_score = u.user_fact_score, valid_until = u.valid_until,
        superseded_by = u.superseded_by, updated_at = u.updated_at
    FROM unnest(${0}::uuid[], ${1}::bytea[], ${2}::text[], ${3}::text[], ${4}::text[],
                ${5}::float8[], ${6}::float8[], ${7}::timestamptz[], ${8}::uuid[],
                ${9}::timestamptz[])
         AS u(id, object, object_index, fact_type, time_span, confidence, user_fact_score,
              valid_until, superseded_by, updated_at)
    WHERE f.tenant = $1 AND f.user_id = $2 AND f.id = u.id"""

UPDATE_MANY = _UPDATE.format(*range(3, 13))
SAVE = _SAVE.format(relax="", relaxed="", update=_UPDATE.format(*range(21, 31)))
# Facts read from a memory committed durably just before: the commit does not wait for the
# disk (~0.4 ms instead of ~4 ms measured on the embedded server). A crash within the WAL
# writer's delay (~0.2 s) may lose such a fact, never its memory.
SAVE_RELAXED = _SAVE.format(
    relax="relax AS (SELECT set_config('synchronous_commit', 'off', true) AS setting),",
    relaxed=", relax", update=_UPDATE.format(*range(21, 31)),
)

DELETE = "DELETE FROM facts WHERE tenant = $1 AND user_id = $2 AND id = $3"

# What the facts $3, or those read from the memories $4, superseded, when they are not
# superseded themselves (then what they point to, not they, is the current value).
REVIVE = f"""
UPDATE facts AS f SET valid_until = NULL, superseded_by = NULL, updated_at = $5
FROM facts AS r
WHERE f.tenant = $1 AND f.user_id = $2 AND r.tenant = $1 AND r.user_id = $2
  AND f.superseded_by = r.id AND r.superseded_by IS NULL
  AND (r.id = ANY($3::uuid[]) OR r.source_memory_id = ANY($4::uuid[]))
RETURNING {FACT_COLUMNS}
"""
# $3 memories that hold again, $4 since, $5 now: their facts that ended with them (no
# successor, ended since they were replaced) hold again.
REVIVE_ENDED = f"""
UPDATE facts AS f SET valid_until = NULL, updated_at = $5
WHERE f.tenant = $1 AND f.user_id = $2 AND f.source_memory_id = ANY($3::uuid[])
  AND f.superseded_by IS NULL AND f.valid_until >= $4
RETURNING {FACT_COLUMNS}
"""
DELETE_ALL = "DELETE FROM facts WHERE tenant = $1 AND user_id = $2"
