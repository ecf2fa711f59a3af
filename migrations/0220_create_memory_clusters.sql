-- Clusters as nodes (the sleep cycle, docs/graph.md "Clusters"): an owner's related memories
-- grouped, each group a summary memory (memory_heat.cluster, provenance 'consolidated')
-- linked to its members by `narrative` edges. This table holds what the summary row itself
-- does not: its members, the name that anchors the group, and the group's own vector (the
-- mean of its members' vectors). The summary's memories row has no embedding and no index
-- terms, so no search, dedup or merge ever meets it as an ordinary memory; only the cluster
-- recall stage reads this table.
CREATE TABLE memory_clusters (
    tenant           text NOT NULL,
    user_id          text NOT NULL,
    id               uuid NOT NULL,          -- the summary memory
    anchor           uuid NULL,              -- the entity the members mention
    members          uuid[] NOT NULL,        -- sorted
    centroid         vector NULL,
    embedding_model  text NULL,
    updated_at       timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_id, id)
);

-- Each owner's clustering watermark: the start of the last cycle that grouped its memories.
-- An owner none of whose memories was written or edited since is not grouped again.
CREATE TABLE memory_cluster_marks (
    tenant      text NOT NULL,
    user_id     text NOT NULL,
    through_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_id)
);

-- Erasure: a summary quotes its members, so when a member goes (a delete, a user's erasure,
-- a cleanup, a consolidation deleting its sources) its summaries go with it in the same
-- statement. Their clusters stay as tombstones (no members, no vector, only the name that
-- anchored them), so the next cycle groups that name again; a summary deleted on its own
-- takes its cluster with it. One statement-level trigger, set-based over the deleted rows;
-- deleting the summaries fires it once more, for them (they are nobody's members: it stops
-- there).
CREATE FUNCTION memlane_forget_clusters_of_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- A statement trigger fires for a delete of no rows too (the summaries' own, below).
    IF NOT EXISTS (SELECT 1 FROM gone) THEN
        RETURN NULL;
    END IF;
    DELETE FROM memory_clusters AS c USING gone AS g
    WHERE c.tenant = g.tenant AND c.user_id = g.user_id AND c.id = g.id
      AND cardinality(c.members) > 0;
    WITH stale AS (
        SELECT DISTINCT c.tenant, c.user_id, c.id
        FROM memory_clusters AS c
        CROSS JOIN LATERAL unnest(c.members) AS u(member)
        JOIN gone AS g ON g.tenant = c.tenant AND g.user_id = c.user_id AND g.id = u.member
        WHERE (c.tenant, c.user_id) IN (SELECT DISTINCT tenant, user_id FROM gone)
    ), emptied AS (
        UPDATE memory_clusters AS c SET members = '{}', centroid = NULL
        FROM stale AS s
        WHERE c.tenant = s.tenant AND c.user_id = s.user_id AND c.id = s.id
    ), heat AS (
        DELETE FROM memory_heat AS h USING stale AS s
        WHERE h.tenant = s.tenant AND h.user_id = s.user_id AND h.id = s.id
    )
    DELETE FROM memories AS m USING stale AS s
    WHERE m.tenant = s.tenant AND m.user_id = s.user_id AND m.id = s.id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER memories_forget_clusters
    AFTER DELETE ON memories
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_forget_clusters_of_deleted();
