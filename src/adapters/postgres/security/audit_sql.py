"""SQL of the audit adapter: the chain head, a batch insert, history, tombstones, the stream."""

from __future__ import annotations

_COLUMNS = """tenant, user_id, seq, id, subject_kind, subject_id, related_id, kind, actor, at,
    payload, body_digest, prev_hash, hash"""

# The owner's last event; read under the owner's lock, so no other writer can move it.
HEAD = """
SELECT seq, hash FROM audit_events
WHERE tenant = $1 AND user_id = $2
ORDER BY seq DESC
LIMIT 1
"""

APPEND_MANY = f"""
INSERT INTO audit_events ({_COLUMNS})
SELECT $1, $2, u.*
FROM unnest(
    $3::bigint[], $4::uuid[], $5::text[], $6::uuid[], $7::uuid[], $8::text[], $9::text[],
    $10::timestamptz[], $11::bytea[], $12::bytea[], $13::bytea[], $14::bytea[]
) AS u
"""

# The same insert chained on a head this process remembers: it inserts nothing unless that
# head is still the owner's last event (another process may have appended, or the transaction
# that wrote it rolled back), and the caller then reads the head and appends again.
APPEND_AFTER = APPEND_MANY + """
WHERE EXISTS (
    SELECT 1 FROM audit_events
    WHERE tenant = $1 AND user_id = $2 AND seq = $15 AND hash = $16
) AND NOT EXISTS (
    SELECT 1 FROM audit_events WHERE tenant = $1 AND user_id = $2 AND seq > $15
)
"""

HISTORY = f"""
SELECT {_COLUMNS} FROM audit_events
WHERE tenant = $1 AND user_id = $2 AND subject_kind = ANY($3::text[])
  AND (subject_id = $4 OR (subject_kind = 'edge' AND related_id = $4))
ORDER BY seq
"""

# Tombstones: the trigger of migration 0080 lets exactly this change through.
ERASE = """
UPDATE audit_events SET kind = 'erased', payload = NULL
WHERE tenant = $1 AND user_id = $2 AND kind NOT IN ('erased', 'erasure')
"""

EVENTS = f"""
SELECT {_COLUMNS} FROM audit_events
WHERE ($1::text IS NULL OR tenant = $1) AND ($2::text IS NULL OR user_id = $2)
ORDER BY tenant, user_id, seq
"""
