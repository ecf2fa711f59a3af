-- Graph memory (DESIGN §9): typed, weighted edges between an owner's memories, and the
-- entities they mention. Edges carry ids, kinds, weights and times, never plaintext; an
-- entity's name is a keyed blind index and its label is sealed like memory content.
--
-- Deleting a memory (one, an owner's all, or a cleanup) takes its edges and mentions with
-- it: one statement-level trigger per delete statement, set-based over the deleted rows.
-- Foreign keys would do the same with two row-level checks per inserted edge (a write
-- makes up to 20 semantic edges: ~3 ms per memory measured) and a probe per deleted row.
-- Edges are only ever added between memories the adding statement sees (graph_sql).

CREATE TABLE memory_edges (
    tenant        text NOT NULL,
    user_id       text NOT NULL,
    source        uuid NOT NULL,
    target        uuid NOT NULL,
    kind          text NOT NULL CHECK (kind IN (
        'chain', 'semantic', 'temporal', 'causal', 'entity', 'contradiction', 'supersedes',
        'narrative'
    )),
    -- The strength at activated_at; it fades from there by a curve computed at read time.
    weight        double precision NOT NULL CHECK (weight >= 0 AND weight <= 1),
    created_at    timestamptz NOT NULL,
    activated_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_id, source, target, kind),
    CHECK (source <> target)
);
-- Incoming edges (what supersedes this memory, who links to it) and the cascade's probe.
CREATE INDEX memory_edges_target_idx ON memory_edges (tenant, user_id, target, kind);

CREATE TABLE memory_entities (
    tenant        text NOT NULL,
    user_id       text NOT NULL,
    id            uuid NOT NULL,
    kind          text NOT NULL CHECK (kind IN (
        'person', 'place', 'organisation', 'product', 'pet'
    )),
    -- Keyed hash of the normalised name: equal names of one tenant meet, nothing readable.
    name_index    text NOT NULL,
    label         bytea NOT NULL,
    weight        double precision NOT NULL CHECK (weight >= 0 AND weight <= 1),
    created_at    timestamptz NOT NULL,
    activated_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_id, id),
    UNIQUE (tenant, user_id, name_index, kind)
);

CREATE TABLE memory_mentions (
    tenant        text NOT NULL,
    user_id       text NOT NULL,
    memory_id     uuid NOT NULL,
    entity_id     uuid NOT NULL,
    salience      double precision NOT NULL CHECK (salience >= 0 AND salience <= 1),
    PRIMARY KEY (tenant, user_id, memory_id, entity_id),
    FOREIGN KEY (tenant, user_id, entity_id) REFERENCES memory_entities (tenant, user_id, id)
        ON DELETE CASCADE
);
CREATE INDEX memory_mentions_entity_idx ON memory_mentions (tenant, user_id, entity_id);

CREATE FUNCTION memlane_forget_graph_of_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM memory_edges AS e USING gone AS g
    WHERE e.tenant = g.tenant AND e.user_id = g.user_id AND e.source = g.id;
    DELETE FROM memory_edges AS e USING gone AS g
    WHERE e.tenant = g.tenant AND e.user_id = g.user_id AND e.target = g.id;
    DELETE FROM memory_mentions AS x USING gone AS g
    WHERE x.tenant = g.tenant AND x.user_id = g.user_id AND x.memory_id = g.id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER memories_forget_graph
    AFTER DELETE ON memories
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_forget_graph_of_deleted();
