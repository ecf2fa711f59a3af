-- 0040 dropped counts at 0 by scanning every term row of each owner that lost memories: a
-- cleanup touching 1,000 owners read all their term rows. Now the upsert returns the rows
-- it brought to 0 or below and only those are deleted (same lock order: owner rows, then
-- term rows, each in key order).
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
