-- Every context looks up which of its candidates were replaced (supersedes, contradiction
-- edges, either end). Among an owner's edges those are few, but the general indexes reach
-- them only through every edge of each candidate (~40 each with the semantic cap): at 100k
-- memories and 2M edges that read cost ~7 ms a context. Two small partial indexes hold
-- just the replacing edges.
CREATE INDEX memory_edges_replacing_source_idx ON memory_edges (tenant, user_id, source)
    WHERE kind IN ('supersedes', 'contradiction');
CREATE INDEX memory_edges_replacing_target_idx ON memory_edges (tenant, user_id, target)
    WHERE kind IN ('supersedes', 'contradiction');
