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

-- A memory's postings, one per distinct term ($1 tenant, $2 user, $3 id, $4 terms); inlined
-- where it is used. Rows are produced memory by memory, so each memory's postings are written
-- together.
CREATE FUNCTION memlane_postings_of(text, text, uuid, tsvector)
RETURNS TABLE (owner_key bigint, term bigint, neg_tf smallint, dl integer, id uuid)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT memlane_owner_hash($1, $2), memlane_term_hash(u.lexeme),
           (-least(greatest(cardinality(u.positions), 1), 32767))::smallint, length($4), $3
    FROM unnest($4) AS u(lexeme, positions, weights)
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

-- Statement-level triggers beside 0040's term-statistics ones, on the same transition rows.
CREATE FUNCTION memlane_post_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_postings
    SELECT p.* FROM new_rows AS r, memlane_postings_of(r.tenant, r.user_id, r.id, r.keywords) AS p
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END;
$$;

CREATE FUNCTION memlane_unpost_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memlane_drop_postings(array_agg(r.tenant), array_agg(r.user_id), array_agg(r.id))
    FROM old_rows AS r
    HAVING count(*) > 0;
    RETURN NULL;
END;
$$;

-- Only rows whose terms changed are reposted (an embedding backfill or a model reset
-- changes none).
CREATE FUNCTION memlane_repost_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memlane_drop_postings(array_agg(o.tenant), array_agg(o.user_id), array_agg(o.id))
    FROM old_rows AS o JOIN new_rows AS n USING (tenant, user_id, id)
    WHERE o.keywords IS DISTINCT FROM n.keywords
    HAVING count(*) > 0;
    INSERT INTO memory_postings
    SELECT p.* FROM old_rows AS o JOIN new_rows AS n USING (tenant, user_id, id),
           memlane_postings_of(n.tenant, n.user_id, n.id, n.keywords) AS p
    WHERE o.keywords IS DISTINCT FROM n.keywords
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END;
$$;

CREATE FUNCTION memlane_clear_postings() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE memory_postings;
    RETURN NULL;
END;
$$;

CREATE TRIGGER memories_post_inserted
    AFTER INSERT ON memories REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_post_inserted();
CREATE TRIGGER memories_unpost_deleted
    AFTER DELETE ON memories REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_unpost_deleted();
CREATE TRIGGER memories_repost_updated
    AFTER UPDATE ON memories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_repost_updated();
CREATE TRIGGER memories_clear_postings
    AFTER TRUNCATE ON memories
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_clear_postings();

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
        INSERT INTO memory_postings
        SELECT p.* FROM memories AS m,
               memlane_postings_of(m.tenant, m.user_id, m.id, m.keywords) AS p
        ON CONFLICT DO NOTHING;
        GET DIAGNOSTICS restored = ROW_COUNT;
    END IF;
    RETURN restored;
END;
$$;

SELECT memlane_restore_postings();

-- The search no longer reads the owner-scoped term index: writes stop paying for it.
DROP INDEX IF EXISTS memories_owner_terms_gin_idx;
