-- Every context asks which of its ~50 candidates another memory replaced (supersedes,
-- contradiction: edges newer -> older, a few per owner). Read from the strength index, each
-- probe passes over the candidate's ~20 other edges to find none; this partial index holds
-- the replacing edges alone, so a probe is one small page, usually cached. The predicate
-- must match graph_sql.REPLACING_KINDS_SQL word for word for the planner to use it.
CREATE INDEX memory_edges_replacing_idx
    ON memory_edges (tenant, user_id, target)
    INCLUDE (source, kind, weight, created_at, activated_at)
    WHERE kind IN ('contradiction', 'supersedes');
