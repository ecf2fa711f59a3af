-- BM25 statistics kept on write, so a lexical search never counts them over the owner's rows:
-- per owner the document count and total document length (distinct terms per memory), and
-- per owner and (blinded) term the number of memories holding it. Before this a query with
-- one common word read and unnested the terms of every matching memory (65,200 of a
-- 100k-memory user's rows, ~420 ms) just to learn df, N and avgdl.
-- Writers wait until the backfill below has committed, so no write is missed or counted twice.
LOCK TABLE memories IN SHARE MODE;

CREATE TABLE memory_owner_stats (
    tenant        text NOT NULL,
    user_id       text NOT NULL,
    n             bigint NOT NULL,
    total_length  bigint NOT NULL,
    PRIMARY KEY (tenant, user_id)
);

CREATE TABLE memory_terms (
    tenant   text NOT NULL,
    user_id  text NOT NULL,
    term     text NOT NULL,
    df       integer NOT NULL,
    PRIMARY KEY (tenant, user_id, term)
);

-- Applies a batch of keyword changes (sign +1: a memory now holds these terms, -1: no longer)
-- aggregated per owner and per term. Rows are locked owner rows first, then term rows, each
-- in key order, so concurrent writers (a cleanup over many owners, a write session of one)
-- always wait on each other in the same order and never deadlock. The upsert returns the
-- rows it brought to 0 and only those are deleted (no scan of an owner's whole vocabulary).
CREATE FUNCTION memlane_apply_keyword_changes(
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
    ON CONFLICT (tenant, user_id) DO UPDATE
    SET n = s.n + excluded.n, total_length = s.total_length + excluded.total_length;

    WITH c AS (SELECT * FROM unnest(tenants, user_ids, keywords, signs) AS c(tenant, user_id, kw, sign)),
    counted AS (
        INSERT INTO memory_terms AS t (tenant, user_id, term, df)
        SELECT c.tenant, c.user_id, u.lexeme, sum(c.sign)
        FROM c, unnest(c.kw) AS u(lexeme, positions, weights)
        GROUP BY c.tenant, c.user_id, u.lexeme
        HAVING sum(c.sign) <> 0
        ORDER BY c.tenant, c.user_id, u.lexeme
        ON CONFLICT (tenant, user_id, term) DO UPDATE SET df = t.df + excluded.df
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

-- Statement-level triggers with transition tables: one aggregated upsert per statement, not
-- one per row (a bulk insert or a cleanup of 100k rows touches each term row once).
CREATE FUNCTION memlane_count_inserted_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memlane_apply_keyword_changes(
        array_agg(r.tenant), array_agg(r.user_id), array_agg(r.keywords), array_agg(1))
    FROM new_rows AS r
    HAVING count(*) > 0;
    RETURN NULL;
END;
$$;

CREATE FUNCTION memlane_count_deleted_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memlane_apply_keyword_changes(
        array_agg(r.tenant), array_agg(r.user_id), array_agg(r.keywords), array_agg(-1))
    FROM old_rows AS r
    HAVING count(*) > 0;
    RETURN NULL;
END;
$$;

-- An UPDATE trigger with transition tables cannot name columns (UPDATE OF keywords), so it
-- fires for every update of memories and counts only the rows whose keywords changed (an
-- embedding backfill changes none and costs one join of the transition tables).
CREATE FUNCTION memlane_count_updated_terms() RETURNS trigger
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
    RETURN NULL;
END;
$$;

CREATE FUNCTION memlane_clear_term_statistics() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE memory_terms, memory_owner_stats;
    RETURN NULL;
END;
$$;

CREATE TRIGGER memories_count_inserted_terms
    AFTER INSERT ON memories REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_count_inserted_terms();
CREATE TRIGGER memories_count_deleted_terms
    AFTER DELETE ON memories REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_count_deleted_terms();
CREATE TRIGGER memories_count_updated_terms
    AFTER UPDATE ON memories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_count_updated_terms();
CREATE TRIGGER memories_clear_term_statistics
    AFTER TRUNCATE ON memories
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_clear_term_statistics();

-- Backfill from the rows already stored.
INSERT INTO memory_owner_stats (tenant, user_id, n, total_length)
SELECT tenant, user_id, count(*), sum(length(keywords)) FROM memories GROUP BY tenant, user_id;
INSERT INTO memory_terms (tenant, user_id, term, df)
SELECT m.tenant, m.user_id, u.lexeme, count(*)
FROM memories AS m, unnest(m.keywords) AS u(lexeme, positions, weights)
GROUP BY m.tenant, m.user_id, u.lexeme;
