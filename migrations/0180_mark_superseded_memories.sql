-- Superseded stays superseded (issue 31, DESIGN §9): the memory another one replaced keeps its
-- own marker, `superseded_by` (the memory that replaced it) and `valid_until` (since when),
-- instead of living only in `supersedes`/`contradiction` edges, which vanish with either
-- memory. Both sit in the narrow heat table that ranking and cleanup read anyway; nothing
-- indexes them but the partial index below, so an access or a decay run stays a HOT update.
ALTER TABLE memory_heat
    ADD COLUMN superseded_by uuid NULL,
    ADD COLUMN valid_until timestamptz NULL;
-- Who points at a memory: the chain's repointing when it goes, and a person's revival.
CREATE INDEX memory_heat_superseded_by_idx ON memory_heat (tenant, user_id, superseded_by)
    WHERE superseded_by IS NOT NULL;

-- Any delete (a person's, cleanup, consolidation, verify's quarantine) leaves what the deleted
-- memories had replaced superseded: each survivor that pointed into them points on along their
-- chain to the first memory still there (Lisbon -> Porto -> Berlin with Porto gone: Lisbon ->
-- Berlin), or to the last one known when the whole rest of the chain went. Only the service
-- revives, and only for a person's delete (service/graph/superseding.py): it knows who deletes.
-- On memory_heat, whose rows carry the marker; every delete removes both rows in one statement.
CREATE FUNCTION memlane_repoint_superseded_memories() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    WITH RECURSIVE chain AS (
        SELECT h.tenant, h.user_id, h.id AS survivor, g.id AS reached, g.superseded_by AS next,
               1 AS depth
        FROM gone AS g
        JOIN memory_heat AS h
          ON h.tenant = g.tenant AND h.user_id = g.user_id AND h.superseded_by = g.id
        UNION ALL
        SELECT c.tenant, c.user_id, c.survivor, g.id, g.superseded_by, c.depth + 1
        FROM chain AS c
        JOIN gone AS g ON g.tenant = c.tenant AND g.user_id = c.user_id AND g.id = c.next
        WHERE c.depth < 1000
    ), ends AS (
        SELECT DISTINCT ON (tenant, user_id, survivor)
               tenant, user_id, survivor, coalesce(next, reached) AS head
        FROM chain
        ORDER BY tenant, user_id, survivor, depth DESC
    )
    UPDATE memory_heat AS h SET superseded_by = e.head
    FROM ends AS e
    WHERE h.tenant = e.tenant AND h.user_id = e.user_id AND h.id = e.survivor
      AND h.superseded_by IS DISTINCT FROM e.head;
    RETURN NULL;
END;
$$;

CREATE TRIGGER memory_heat_repoint_superseded
    AFTER DELETE ON memory_heat
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_repoint_superseded_memories();

-- Facts the same way: deleting a fact (directly, or with its memory) no longer makes the facts
-- it had superseded current again. Those pointing at it point on to its own successor, or keep
-- pointing at it; the service revives them for a person's explicit delete only.
DROP TRIGGER facts_restore_superseded ON facts;
DROP FUNCTION memlane_restore_facts_superseded_by_deleted();

CREATE FUNCTION memlane_repoint_superseded_facts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    WITH RECURSIVE chain AS (
        SELECT f.tenant, f.user_id, f.id AS survivor, g.id AS reached, g.superseded_by AS next,
               1 AS depth
        FROM gone AS g
        JOIN facts AS f
          ON f.tenant = g.tenant AND f.user_id = g.user_id AND f.superseded_by = g.id
        UNION ALL
        SELECT c.tenant, c.user_id, c.survivor, g.id, g.superseded_by, c.depth + 1
        FROM chain AS c
        JOIN gone AS g ON g.tenant = c.tenant AND g.user_id = c.user_id AND g.id = c.next
        WHERE c.depth < 1000
    ), ends AS (
        SELECT DISTINCT ON (tenant, user_id, survivor)
               tenant, user_id, survivor, coalesce(next, reached) AS head
        FROM chain
        ORDER BY tenant, user_id, survivor, depth DESC
    )
    UPDATE facts AS f SET superseded_by = e.head, updated_at = now()
    FROM ends AS e
    WHERE f.tenant = e.tenant AND f.user_id = e.user_id AND f.id = e.survivor
      AND f.superseded_by IS DISTINCT FROM e.head;
    RETURN NULL;
END;
$$;

CREATE TRIGGER facts_repoint_superseded
    AFTER DELETE ON facts
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_repoint_superseded_facts();

-- A person's delete that makes what it replaced current again is recorded as `revived`.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_kind_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_kind_check CHECK (kind IN (
    'created', 'merged', 'updated', 'superseded', 'revived', 'pinned', 'unpinned',
    'score_overridden', 'consolidated', 'deleted', 'erased', 'erasure'
));

-- The markers of supersessions made before this migration, from the edges that still hold
-- them: the newest replacing memory, since the first replacement.
UPDATE memory_heat AS h
SET superseded_by = r.source, valid_until = r.since
FROM (
    SELECT DISTINCT ON (e.tenant, e.user_id, e.target)
           e.tenant, e.user_id, e.target, e.source,
           min(e.created_at) OVER (PARTITION BY e.tenant, e.user_id, e.target) AS since
    FROM memory_edges AS e
    WHERE e.kind IN ('contradiction', 'supersedes')
    ORDER BY e.tenant, e.user_id, e.target, e.created_at DESC, e.source
) AS r
WHERE h.tenant = r.tenant AND h.user_id = r.user_id AND h.id = r.target;

-- And of those whose replacing memory is gone, edge and all, from the audit trail: a memory
-- recorded as superseded whose replacement was then deleted by cleanup (`system:decay`) or as
-- a consolidation's source stays superseded. One a person deleted revived it, as documented
-- then, and stays current.
UPDATE memory_heat AS h
SET superseded_by = s.related_id, valid_until = s.at
FROM (
    SELECT DISTINCT ON (a.tenant, a.user_id, a.subject_id)
           a.tenant, a.user_id, a.subject_id, a.related_id, a.at
    FROM audit_events AS a
    WHERE a.subject_kind = 'memory' AND a.kind = 'superseded' AND a.related_id IS NOT NULL
    ORDER BY a.tenant, a.user_id, a.subject_id, a.seq DESC
) AS s
WHERE h.tenant = s.tenant AND h.user_id = s.user_id AND h.id = s.subject_id
  AND h.superseded_by IS NULL
  AND NOT EXISTS (SELECT 1 FROM memories AS m
                  WHERE m.tenant = s.tenant AND m.user_id = s.user_id AND m.id = s.related_id)
  AND EXISTS (
      SELECT 1 FROM audit_events AS d
      WHERE d.tenant = s.tenant AND d.user_id = s.user_id AND d.subject_kind = 'memory'
        AND d.subject_id = s.related_id
        AND ((d.kind = 'deleted' AND d.actor = 'system:decay')
             OR (d.kind = 'consolidated' AND d.related_id IS NOT NULL)));
