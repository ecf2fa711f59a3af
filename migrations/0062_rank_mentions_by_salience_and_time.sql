-- Recall by entity reads a name's strongest, then newest mentions. With the memory's time
-- on the mention, one index serves that order per entity (a top-N index scan, however
-- many memories bear the name) and no memory row is read to rank them; its prefix
-- (tenant, user_id, entity_id) also serves the delete trigger's probes, so it replaces
-- memory_mentions_entity_idx.
ALTER TABLE memory_mentions ADD COLUMN said_at timestamptz;
UPDATE memory_mentions AS x SET said_at = m.created_at
FROM memories AS m
WHERE m.tenant = x.tenant AND m.user_id = x.user_id AND m.id = x.memory_id;
DELETE FROM memory_mentions WHERE said_at IS NULL;
ALTER TABLE memory_mentions ALTER COLUMN said_at SET NOT NULL;
CREATE INDEX memory_mentions_ranked_idx
    ON memory_mentions (tenant, user_id, entity_id, salience DESC, said_at DESC, memory_id);
DROP INDEX memory_mentions_entity_idx;
