-- The upgrade path of issue 31, after 0180 gave memories their superseded marker: what older
-- versions left wrong is put right from what they left behind (facts, and the audit trail's
-- clear columns: kinds, actors, ids; no sealed payload is needed).

-- 1. Facts that a past cleanup (or a consolidation that deleted its sources) revived. Before
-- 0180 a trigger made a fact current again whenever the fact that replaced it went, so a
-- correction cleaned up brought the old value back ("lives in: Lisbon"). Such a fact is
-- current, its last `superseded` event names a replacing fact that is gone, not deleted by a
-- person (no `deleted` event of that fact), and whose source memory was deleted by cleanup
-- (`system:decay`) or as a consolidation's source. It is superseded again, by that fact, since
-- the event. (A value the user restated after such a revival cannot be told from one that was
-- never restated; the audit trail records no restatement. It is ended like the others.)
CREATE TEMPORARY TABLE memlane_revived_by_system ON COMMIT DROP AS
WITH last_replaced AS (
    SELECT DISTINCT ON (a.tenant, a.user_id, a.subject_id)
           a.tenant, a.user_id, a.subject_id AS fact_id, a.related_id AS by_fact, a.at
    FROM audit_events AS a
    WHERE a.subject_kind = 'fact' AND a.kind = 'superseded' AND a.related_id IS NOT NULL
    ORDER BY a.tenant, a.user_id, a.subject_id, a.seq DESC
), read_from AS (
    SELECT DISTINCT ON (c.tenant, c.user_id, c.subject_id)
           c.tenant, c.user_id, c.subject_id AS fact_id, c.related_id AS memory_id
    FROM audit_events AS c
    WHERE c.subject_kind = 'fact' AND c.kind = 'created'
    ORDER BY c.tenant, c.user_id, c.subject_id, c.seq
)
SELECT r.tenant, r.user_id, r.fact_id, r.by_fact, r.at, f.source_memory_id AS old_memory,
       s.memory_id AS by_memory
FROM last_replaced AS r
JOIN facts AS f ON f.tenant = r.tenant AND f.user_id = r.user_id AND f.id = r.fact_id
JOIN read_from AS s ON s.tenant = r.tenant AND s.user_id = r.user_id AND s.fact_id = r.by_fact
WHERE f.superseded_by IS NULL AND f.valid_until IS NULL AND s.memory_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM facts AS gone
                  WHERE gone.tenant = r.tenant AND gone.user_id = r.user_id
                    AND gone.id = r.by_fact)
  AND NOT EXISTS (SELECT 1 FROM audit_events AS d
                  WHERE d.tenant = r.tenant AND d.user_id = r.user_id
                    AND d.subject_kind = 'fact' AND d.subject_id = r.by_fact
                    AND d.kind = 'deleted')
  AND EXISTS (SELECT 1 FROM audit_events AS d
              WHERE d.tenant = r.tenant AND d.user_id = r.user_id
                AND d.subject_kind = 'memory' AND d.subject_id = s.memory_id
                AND ((d.kind = 'deleted' AND d.actor = 'system:decay')
                     OR (d.kind = 'consolidated' AND d.related_id IS NOT NULL)));

UPDATE facts AS f
SET superseded_by = r.by_fact, valid_until = greatest(r.at, f.valid_from), updated_at = now()
FROM memlane_revived_by_system AS r
WHERE f.tenant = r.tenant AND f.user_id = r.user_id AND f.id = r.fact_id;

-- ... and the memory such a fact was read from is replaced by the memory the replacing fact
-- was read from (deleted: the marker keeps it superseded all the same).
UPDATE memory_heat AS h
SET superseded_by = r.by_memory, valid_until = r.at
FROM memlane_revived_by_system AS r
WHERE h.tenant = r.tenant AND h.user_id = r.user_id AND h.id = r.old_memory
  AND h.valid_until IS NULL AND r.old_memory <> r.by_memory;

-- 2. Memories whose fact was replaced, where no edge recorded it (graph memory off): the
-- memory the replacing fact was read from replaced them; a fact stated directly ended them.
UPDATE memory_heat AS h
SET superseded_by = n.source_memory_id, valid_until = o.valid_until
FROM facts AS o
JOIN facts AS n ON n.tenant = o.tenant AND n.user_id = o.user_id AND n.id = o.superseded_by
WHERE h.tenant = o.tenant AND h.user_id = o.user_id AND h.id = o.source_memory_id
  AND h.valid_until IS NULL AND o.valid_until IS NOT NULL
  AND n.source_memory_id IS DISTINCT FROM o.source_memory_id;

-- 3. Corrections stored as `context` (DESIGN §2 typed "I moved to Porto" by its cue words
-- alone): a memory that replaced another is a correction, starting at no less than the base
-- importance of what it replaced. A consolidation (its `consolidated` event names no
-- `related_id`) replaces its sources without correcting them and keeps its type. Stored
-- memories carry no record of a type their caller chose; every such `context` is retyped.
CREATE TEMPORARY TABLE memlane_corrections ON COMMIT DROP AS
SELECT n.tenant, n.user_id, n.id, max(o.base_importance) AS replaced_base
FROM memory_heat AS o
JOIN memory_heat AS n ON n.tenant = o.tenant AND n.user_id = o.user_id AND n.id = o.superseded_by
WHERE n.memory_type = 'context'
  AND NOT EXISTS (SELECT 1 FROM audit_events AS c
                  WHERE c.tenant = n.tenant AND c.user_id = n.user_id
                    AND c.subject_kind = 'memory' AND c.subject_id = n.id
                    AND c.kind = 'consolidated' AND c.related_id IS NULL)
GROUP BY n.tenant, n.user_id, n.id;

UPDATE memories AS m SET memory_type = 'correction'
FROM memlane_corrections AS c
WHERE m.tenant = c.tenant AND m.user_id = c.user_id AND m.id = c.id;

UPDATE memory_heat AS h
SET memory_type = 'correction',
    base_importance = greatest(h.base_importance, c.replaced_base),
    importance = greatest(h.importance, c.replaced_base)
FROM memlane_corrections AS c
WHERE h.tenant = c.tenant AND h.user_id = c.user_id AND h.id = c.id;
