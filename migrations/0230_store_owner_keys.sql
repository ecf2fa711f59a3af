-- The owner key on every owner table (docs/scaling.md): memlane_owner_hash(tenant, user_id),
-- the 64-bit key memory_postings already leads with (0050), stored as a generated column so
-- PostgreSQL fills it and no write path can get it wrong. It is the column a Citus cluster
-- distributes by, and Citus wants it in every primary key and unique constraint, so each one
-- gains it, appended: today's (tenant, user_id, ...) lookups use the same index prefix.
-- audit_events.id and data_keys.id, unique on their own, become unique with the owner key
-- ((id, owner_key): key rotation still finds a data key by id in one probe).
-- The tables that are not an owner's rows are listed, with their reasons, in
-- src/adapters/postgres/distribution.py.
--
-- Adding a stored column rewrites each table and rebuilds its indexes, the HNSW index of
-- memories included, under an exclusive lock: run by `memlane upgrade` with the service
-- stopped (cost per 100k memories in docs/scaling.md, "Migrating"). One ALTER TABLE per
-- table, so its rewrite builds each index once, new keys included. The HNSW graph is built
-- in memory only while it fits in maintenance_work_mem (~250 MB per 100k vectors), and
-- outside it many times slower; the memory is taken as the graph grows. At least 1 GB for
-- this transaction; a server set higher (for a million vectors and more) keeps its own.
SELECT set_config('maintenance_work_mem', '1GB', true)
FROM pg_settings WHERE name = 'maintenance_work_mem' AND setting::bigint < 1024 * 1024;

-- The mentions' foreign key names the entities' key: dropped before it changes, recreated
-- with the owner key on both sides after (the distribution column in a foreign key between
-- distributed tables, as Citus requires).
ALTER TABLE memory_mentions DROP CONSTRAINT memory_mentions_tenant_user_id_entity_id_fkey;

-- The HNSW index serially: a parallel build puts all of maintenance_work_mem in shared
-- memory, more than a container's default /dev/shm (64 MB) holds, and the upgrade would
-- fail there. Measured on 2 loaded cores, serial took 2.4x the wall time of parallel.
SET LOCAL max_parallel_maintenance_workers = 0;
ALTER TABLE memories
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT memories_pkey,
    ADD CONSTRAINT memories_pkey PRIMARY KEY (tenant, user_id, id, owner_key);
SET LOCAL max_parallel_maintenance_workers TO DEFAULT;

ALTER TABLE memory_heat
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT memory_heat_pkey,
    ADD CONSTRAINT memory_heat_pkey PRIMARY KEY (tenant, user_id, id, owner_key);

ALTER TABLE memory_owner_stats
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT memory_owner_stats_pkey,
    ADD CONSTRAINT memory_owner_stats_pkey PRIMARY KEY (tenant, user_id, owner_key);

ALTER TABLE memory_terms
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT memory_terms_pkey,
    ADD CONSTRAINT memory_terms_pkey PRIMARY KEY (tenant, user_id, term, owner_key);

ALTER TABLE memory_edges
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT memory_edges_pkey,
    ADD CONSTRAINT memory_edges_pkey PRIMARY KEY (tenant, user_id, source, target, kind, owner_key);

ALTER TABLE memory_entities
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT memory_entities_pkey,
    ADD CONSTRAINT memory_entities_pkey PRIMARY KEY (tenant, user_id, id, owner_key),
    DROP CONSTRAINT memory_entities_tenant_user_id_name_index_kind_key,
    ADD CONSTRAINT memory_entities_tenant_user_id_name_index_kind_key
        UNIQUE (tenant, user_id, name_index, kind, owner_key);

ALTER TABLE memory_mentions
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT memory_mentions_pkey,
    ADD CONSTRAINT memory_mentions_pkey PRIMARY KEY (tenant, user_id, memory_id, entity_id, owner_key),
    ADD CONSTRAINT memory_mentions_tenant_user_id_entity_id_fkey
        FOREIGN KEY (tenant, user_id, entity_id, owner_key)
        REFERENCES memory_entities (tenant, user_id, id, owner_key) ON DELETE CASCADE;

ALTER TABLE conversation_focus
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT conversation_focus_pkey,
    ADD CONSTRAINT conversation_focus_pkey
        PRIMARY KEY (tenant, user_id, conversation, memory_id, owner_key);

ALTER TABLE memory_sleep_watermarks
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT memory_sleep_watermarks_pkey,
    ADD CONSTRAINT memory_sleep_watermarks_pkey PRIMARY KEY (tenant, user_id, owner_key);

ALTER TABLE facts
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT facts_pkey,
    ADD CONSTRAINT facts_pkey PRIMARY KEY (tenant, user_id, id, owner_key);

ALTER TABLE import_ledger
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT import_ledger_pkey,
    ADD CONSTRAINT import_ledger_pkey PRIMARY KEY (tenant, user_id, message_key, owner_key);

ALTER TABLE memory_quarantine
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT memory_quarantine_pkey,
    ADD CONSTRAINT memory_quarantine_pkey PRIMARY KEY (tenant, user_id, id, owner_key);

-- The append-only trigger fires on UPDATE and DELETE: a table rewrite is neither.
ALTER TABLE audit_events
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT audit_events_pkey,
    ADD CONSTRAINT audit_events_pkey PRIMARY KEY (tenant, user_id, seq, owner_key),
    DROP CONSTRAINT audit_events_id_key,
    ADD CONSTRAINT audit_events_id_key UNIQUE (id, owner_key);

ALTER TABLE data_keys
    ADD COLUMN owner_key bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED,
    DROP CONSTRAINT data_keys_pkey,
    ADD CONSTRAINT data_keys_pkey PRIMARY KEY (tenant, user_id, owner_key),
    DROP CONSTRAINT data_keys_id_key,
    ADD CONSTRAINT data_keys_id_key UNIQUE (id, owner_key);

-- 0040's statistics upkeep, with the arbiters of the new keys (an ON CONFLICT target must
-- name a unique index's columns exactly); otherwise as it was.
CREATE OR REPLACE FUNCTION memlane_apply_keyword_changes(
    tenants text[], user_ids text[], keywords tsvector[], signs integer[]
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    empty_tenants text[];
    empty_users text[];
    empty_terms text[];
BEGIN
    WITH c AS (SELECT * FROM unnest(tenants, user_ids, keywords, signs) AS c(tenant, user_id, kw, sign))
    INSERT INTO memory_owner_stats AS s (tenant, user_id, n, total_length)
    SELECT c.tenant, c.user_id, sum(c.sign), sum(c.sign * length(c.kw))
    FROM c GROUP BY c.tenant, c.user_id
    ORDER BY c.tenant, c.user_id
    ON CONFLICT (tenant, user_id, owner_key) DO UPDATE
    SET n = s.n + excluded.n, total_length = s.total_length + excluded.total_length;

    WITH c AS (SELECT * FROM unnest(tenants, user_ids, keywords, signs) AS c(tenant, user_id, kw, sign)),
    counted AS (
        INSERT INTO memory_terms AS t (tenant, user_id, term, df)
        SELECT c.tenant, c.user_id, u.lexeme, sum(c.sign)
        FROM c, unnest(c.kw) AS u(lexeme, positions, weights)
        GROUP BY c.tenant, c.user_id, u.lexeme
        HAVING sum(c.sign) <> 0
        ORDER BY c.tenant, c.user_id, u.lexeme
        ON CONFLICT (tenant, user_id, term, owner_key) DO UPDATE SET df = t.df + excluded.df
        RETURNING t.tenant, t.user_id, t.term, t.df
    )
    SELECT array_agg(tenant), array_agg(user_id), array_agg(term)
    INTO empty_tenants, empty_users, empty_terms
    FROM counted WHERE df <= 0;

    IF empty_terms IS NOT NULL THEN
        DELETE FROM memory_terms AS t
        USING unnest(empty_tenants, empty_users, empty_terms) AS e(tenant, user_id, term)
        WHERE t.tenant = e.tenant AND t.user_id = e.user_id AND t.term = e.term AND t.df <= 0;
    END IF;
    IF -1 = ANY(signs) THEN
        DELETE FROM memory_owner_stats AS s
        USING (SELECT DISTINCT tenant, user_id FROM unnest(tenants, user_ids, signs)
               AS c(tenant, user_id, sign) WHERE c.sign < 0) AS o
        WHERE s.tenant = o.tenant AND s.user_id = o.user_id AND s.n <= 0;
    END IF;
END;
$$;
