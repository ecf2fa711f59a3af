-- Impact-ordered postings for BM25. The owner-scoped GIN index (0041) found the memories
-- holding a query's rarer terms, but every candidate then cost a fetch of its wide row and
-- the scoring of its tsvector (~8 us), so a big owner's search read at most 1,000 of them in
-- physical order: at 100k memories it took ~8 ms and found 18% of the exact BM25 top ten.
-- Here each (owner, term) has its postings in one index, best first (more occurrences, then
-- shorter memories: BM25's order within one term), carrying what the score needs: a search
-- reads the first postings of each query term (1,000 by default) index-only, and sums.
-- Writers wait until the backfill below has committed, so no write is missed or doubled.
LOCK TABLE memories IN SHARE MODE;

-- 64-bit keys: an owner (tenant and user) and a term (blinded or, without encryption, a
-- stem). A key collision can only add a posting of a memory the search then drops, since
-- candidates are joined back to the owner's own rows.
CREATE FUNCTION memlane_owner_hash(tenant text, user_id text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN hashtextextended(tenant || chr(31) || user_id, 0);

CREATE FUNCTION memlane_term_hash(term text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN hashtextextended(term, 0);

-- neg_tf: the negated term frequency, so one ascending index reads more occurrences first
-- and, among equals, shorter memories (dl: distinct terms) first.
-- UNLOGGED: postings are derived from memories.keywords, so they skip the write-ahead log
-- (a cleanup dropping 30k memories' postings: 0.5 s instead of 1.7 s). PostgreSQL empties
-- an unlogged table after a crash; memlane_restore_postings() below rebuilds it, run by
-- this migration and whenever a pool connection opens (as after a database restart).
CREATE UNLOGGED TABLE memory_postings (
    owner_key  bigint NOT NULL,
    term       bigint NOT NULL,
    neg_tf     smallint NOT NULL,
    dl         integer NOT NULL,
    id         uuid NOT NULL,
    PRIMARY KEY (owner_key, term, neg_tf, dl, id)
) WITH (autovacuum_vacuum_insert_scale_factor = 0.05);
-- A memory's postings are inserted together, so they share a heap page or two: dropping them
-- is one probe of this index per memory (by key, a cleanup of 29k memories took 22 s).
CREATE INDEX memory_postings_id_idx ON memory_postings (id);

-- Postings of a statement's rows (transition tables), one per distinct term of each, written
-- memory by memory (not sorted by key) so each memory's postings stay together.
CREATE FUNCTION memlane_add_postings(tenants text[], user_ids text[], ids uuid[], keywords tsvector[])
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO memory_postings (owner_key, term, neg_tf, dl, id)
    SELECT memlane_owner_hash(r.tenant, r.user_id), memlane_term_hash(u.lexeme),
           -least(greatest(cardinality(u.positions), 1), 32767), length(r.kw), r.id
    FROM unnest(tenants, user_ids, ids, keywords) AS r(tenant, user_id, id, kw),
         unnest(r.kw) AS u(lexeme, positions, weights)
    ON CONFLICT DO NOTHING;
$$;

-- The owner is checked too: an imported memory may keep its id under another owner. Always
-- one id-index probe per memory: for a cleanup's 129k memories the planner chose a hash
-- join over a scan of every posting (11 s, against 4.2 s probing).
CREATE FUNCTION memlane_drop_postings(tenants text[], user_ids text[], ids uuid[])
RETURNS void
LANGUAGE sql
SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off
AS $$
    DELETE FROM memory_postings AS p
    USING unnest(tenants, user_ids, ids) AS d(tenant, user_id, id)
    WHERE p.id = d.id AND p.owner_key = memlane_owner_hash(d.tenant, d.user_id);
$$;

CREATE OR REPLACE FUNCTION memlane_count_inserted_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memlane_apply_keyword_changes(
        array_agg(r.tenant), array_agg(r.user_id), array_agg(r.keywords), array_agg(1))
    FROM new_rows AS r
    HAVING count(*) > 0;
    PERFORM memlane_add_postings(
        array_agg(r.tenant), array_agg(r.user_id), array_agg(r.id), array_agg(r.keywords))
    FROM new_rows AS r
    HAVING count(*) > 0;
    RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION memlane_count_deleted_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memlane_apply_keyword_changes(
        array_agg(r.tenant), array_agg(r.user_id), array_agg(r.keywords), array_agg(-1))
    FROM old_rows AS r
    HAVING count(*) > 0;
    PERFORM memlane_drop_postings(array_agg(r.tenant), array_agg(r.user_id), array_agg(r.id))
    FROM old_rows AS r
    HAVING count(*) > 0;
    RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION memlane_count_updated_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memlane_apply_keyword_changes(
        array_agg(x.tenant), array_agg(x.user_id), array_agg(x.keywords), array_agg(x.sign))
    FROM (
        SELECT o.tenant, o.user_id, o.keywords, -1 AS sign
        FROM old_rows AS o JOIN new_rows AS n USING (tenant, user_id, id)
        WHERE o.keywords IS DISTINCT FROM n.keywords
        UNION ALL
        SELECT n.tenant, n.user_id, n.keywords, 1
        FROM old_rows AS o JOIN new_rows AS n USING (tenant, user_id, id)
        WHERE o.keywords IS DISTINCT FROM n.keywords
    ) AS x
    HAVING count(*) > 0;
    PERFORM memlane_drop_postings(array_agg(o.tenant), array_agg(o.user_id), array_agg(o.id))
    FROM old_rows AS o JOIN new_rows AS n USING (tenant, user_id, id)
    WHERE o.keywords IS DISTINCT FROM n.keywords
    HAVING count(*) > 0;
    PERFORM memlane_add_postings(
        array_agg(n.tenant), array_agg(n.user_id), array_agg(n.id), array_agg(n.keywords))
    FROM old_rows AS o JOIN new_rows AS n USING (tenant, user_id, id)
    WHERE o.keywords IS DISTINCT FROM n.keywords
    HAVING count(*) > 0;
    RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION memlane_clear_term_statistics() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE memory_terms, memory_owner_stats, memory_postings;
    RETURN NULL;
END;
$$;

-- Rebuilds the postings when they are missing (a crash emptied the unlogged table, or this
-- migration runs over stored memories); returns how many were written. One session at a
-- time, and writers wait, so nothing is missed or doubled.
CREATE FUNCTION memlane_restore_postings() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    restored bigint := 0;
BEGIN
    IF EXISTS (SELECT 1 FROM memory_postings) OR NOT EXISTS (SELECT 1 FROM memories) THEN
        RETURN 0;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('memlane_restore_postings', 0));
    LOCK TABLE memories IN SHARE MODE;
    IF NOT EXISTS (SELECT 1 FROM memory_postings) THEN
        INSERT INTO memory_postings (owner_key, term, neg_tf, dl, id)
        SELECT memlane_owner_hash(m.tenant, m.user_id), memlane_term_hash(u.lexeme),
               -least(greatest(cardinality(u.positions), 1), 32767), length(m.keywords), m.id
        FROM memories AS m, unnest(m.keywords) AS u(lexeme, positions, weights)
        ON CONFLICT DO NOTHING;
        GET DIAGNOSTICS restored = ROW_COUNT;
    END IF;
    RETURN restored;
END;
$$;

SELECT memlane_restore_postings();

-- The search no longer reads the owner-scoped term index: writes stop paying for it.
DROP INDEX IF EXISTS memories_owner_terms_gin_idx;
