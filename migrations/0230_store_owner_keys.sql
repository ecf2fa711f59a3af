-- The owner key on every owner table (docs/scaling.md): memlane_owner_hash(tenant, user_id),
-- the 64-bit key memory_postings already leads with (0050), stored as a generated column so
-- PostgreSQL fills it and no write path can get it wrong. It is the column a Citus cluster
-- distributes by, and Citus wants it in every primary key, unique constraint and foreign key
-- between distributed tables, so each one gains it, appended: today's (tenant, user_id, ...)
-- lookups use the same index prefix. audit_events.id and data_keys.id, unique on their own,
-- become unique as (id, owner_key): key rotation still finds a data key by id in one probe.
--
-- The owner tables are read from the catalog: every table with tenant and user_id columns
-- except the shared ones, which src/adapters/postgres/distribution.py lists with their
-- reasons (only api_keys has those columns). Today: memories, memory_heat, memory_terms,
-- memory_owner_stats, memory_edges, memory_entities, memory_mentions, conversation_focus,
-- memory_sleep_watermarks, facts, import_ledger, memory_quarantine, audit_events, data_keys,
-- and any owner table an earlier migration adds. memory_postings has its key already.
-- A migration after this one that adds an owner table gives it the column itself
-- (tests/integration/test_postgres_distribution_keys.py fails otherwise).
--
-- Adding a stored column rewrites each table and rebuilds its indexes, the HNSW index of
-- memories included, under an exclusive lock (cost per 100k memories in docs/scaling.md,
-- "Migrating"). One ALTER TABLE per table, so its rewrite builds each index once, new keys
-- included. The HNSW graph is built in memory only while it fits in maintenance_work_mem
-- (~250 MB per 100k vectors), and outside it many times slower; the memory is taken as the
-- graph grows. At least 1 GB for this transaction; a server set higher keeps its own.
SELECT set_config('maintenance_work_mem', '1GB', true)
FROM pg_settings WHERE name = 'maintenance_work_mem' AND setting::bigint < 1024 * 1024;

DO $$
DECLARE
    shared CONSTANT text[] := ARRAY['memlane_meta', 'tenants', 'api_keys', 'schema_migrations'];
    owner_tables regclass[];
    owner_table regclass;
    item record;
    steps text[];
    indexes text[];
    foreign_keys text[] := '{}';
    statement text;
BEGIN
    SELECT coalesce(array_agg(c.oid::regclass ORDER BY c.relname), '{}') INTO owner_tables
    FROM pg_class AS c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
      AND c.relname <> ALL (shared)
      AND (SELECT count(*) FROM pg_attribute AS a WHERE a.attrelid = c.oid
           AND a.attname IN ('tenant', 'user_id') AND NOT a.attisdropped) = 2
      AND NOT EXISTS (SELECT 1 FROM pg_attribute AS a WHERE a.attrelid = c.oid
                      AND a.attname = 'owner_key' AND NOT a.attisdropped);

    -- Foreign keys between owner tables (mentions -> entities) name the keys about to change:
    -- dropped first, made again at the end with the owner key on both sides.
    FOR item IN
        SELECT k.conrelid::regclass AS tbl, k.conname, pg_get_constraintdef(k.oid) AS def
        FROM pg_constraint AS k
        WHERE k.contype = 'f' AND k.conrelid = ANY (owner_tables)
          AND k.confrelid = ANY (owner_tables)
    LOOP
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', item.tbl, item.conname);
        foreign_keys := foreign_keys || format(
            'ALTER TABLE %s ADD CONSTRAINT %I %s', item.tbl, item.conname, regexp_replace(
                item.def, '^FOREIGN KEY \(([^)]*)\) REFERENCES ([^(]+)\(([^)]*)\)',
                'FOREIGN KEY (\1, owner_key) REFERENCES \2(\3, owner_key)'));
    END LOOP;

    FOREACH owner_table IN ARRAY owner_tables LOOP
        steps := ARRAY['ADD COLUMN owner_key bigint '
                       'GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED'];
        -- Primary keys and unique constraints: the same name, the owner key appended.
        FOR item IN
            SELECT k.conname, k.contype, pg_get_constraintdef(k.oid) AS def
            FROM pg_constraint AS k
            WHERE k.conrelid = owner_table AND k.contype IN ('p', 'u', 'x')
            ORDER BY k.contype, k.conname
        LOOP
            IF item.contype = 'x' THEN
                RAISE EXCEPTION 'exclusion constraint % on %: add owner_key to it by hand',
                    item.conname, owner_table;
            END IF;
            steps := steps || format('DROP CONSTRAINT %I', item.conname)
                           || format('ADD CONSTRAINT %I %s', item.conname,
                                     regexp_replace(item.def, '\)', ', owner_key)'));
        END LOOP;
        -- Unique indexes of their own (no constraint): dropped, made again after the rewrite.
        indexes := '{}';
        FOR item IN
            SELECT i.indexrelid::regclass AS idx, i.indexprs IS NOT NULL AS on_expressions,
                   pg_get_indexdef(i.indexrelid) AS def
            FROM pg_index AS i
            WHERE i.indrelid = owner_table AND i.indisunique
              AND NOT EXISTS (SELECT 1 FROM pg_constraint AS k WHERE k.conindid = i.indexrelid)
        LOOP
            IF item.on_expressions THEN
                RAISE EXCEPTION 'unique index % is on expressions: add owner_key to it by hand',
                    item.idx;
            END IF;
            EXECUTE format('DROP INDEX %s', item.idx);
            indexes := indexes || regexp_replace(
                item.def, 'USING (\w+) \(([^)]*)\)', 'USING \1 (\2, owner_key)');
        END LOOP;
        -- Vector indexes serially: a parallel HNSW build puts all of maintenance_work_mem in
        -- shared memory, more than a container's default /dev/shm (64 MB) holds, and the
        -- upgrade would fail there (on 2 loaded cores serial took 2.4x parallel's time).
        IF EXISTS (SELECT 1 FROM pg_index AS i JOIN pg_class AS x ON x.oid = i.indexrelid
                   JOIN pg_am AS m ON m.oid = x.relam
                   WHERE i.indrelid = owner_table AND m.amname IN ('hnsw', 'ivfflat')) THEN
            SET LOCAL max_parallel_maintenance_workers = 0;
        ELSE
            SET LOCAL max_parallel_maintenance_workers TO DEFAULT;
        END IF;
        EXECUTE format('ALTER TABLE %s %s', owner_table, array_to_string(steps, ', '));
        FOREACH statement IN ARRAY indexes LOOP
            EXECUTE statement;
        END LOOP;
    END LOOP;
    SET LOCAL max_parallel_maintenance_workers TO DEFAULT;

    FOREACH statement IN ARRAY foreign_keys LOOP
        EXECUTE statement;
    END LOOP;
END
$$;

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
