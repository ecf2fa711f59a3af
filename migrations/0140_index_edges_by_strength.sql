-- Spreading activation (docs/graph.md "Context") reads each memory's strongest edges, both
-- ways: `ORDER BY weight DESC LIMIT n` per memory. One index per direction serves that as a
-- top-n index-only scan, whatever the memory's degree, and never touches the heap rows.
-- The one on the target also serves what memory_edges_target_idx served (incoming edges of
-- a kind, the delete trigger's probe: a memory has at most a few dozen edges), so it
-- replaces it: one index more per written edge than before, not two.
CREATE INDEX memory_edges_source_strength_idx
    ON memory_edges (tenant, user_id, source, weight DESC)
    INCLUDE (target, kind, created_at, activated_at);
CREATE INDEX memory_edges_target_strength_idx
    ON memory_edges (tenant, user_id, target, weight DESC)
    INCLUDE (source, kind, created_at, activated_at);
DROP INDEX memory_edges_target_idx;
