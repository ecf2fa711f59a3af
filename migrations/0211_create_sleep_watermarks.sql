-- The sleep cycle (consolidation run by the worker, `memlane consolidate` and the admin
-- route, docs/graph.md): each owner's watermark is the last memory (by updated_at, then id)
-- a cycle has processed. The next cycle reads only what was written or edited after it, so a
-- cycle's cost follows the day's changes, not the table's size, and a cycle interrupted
-- between two batches goes on from the last batch that committed.
CREATE TABLE memory_sleep_watermarks (
    tenant       text NOT NULL,
    user_id      text NOT NULL,
    through_at   timestamptz NOT NULL,
    through_id   uuid NOT NULL,
    PRIMARY KEY (tenant, user_id)
);

-- A cycle's batch is each owner's changes since its watermark, in (updated_at, id) order:
-- one index range per owner. Decay and accesses never touch memories.updated_at (they
-- write memory_heat), so this index costs only writes and edits.
CREATE INDEX memories_owner_updated_idx ON memories (tenant, user_id, updated_at, id);
