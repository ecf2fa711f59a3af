-- Exact BM25 top k without reading every posting (issue 32): a safe early stop over the
-- impact-ordered postings of 0050. The search read a fixed number of each query term's
-- postings (1,000), exact for terms held by fewer memories, but at 100k memories it found
-- about half of the exact BM25 top ten: a common term's 1,000 best postings leave out the
-- long memories that hold several of the query's terms.
--
-- Postings of one term are ordered by more occurrences, then shorter memories, and BM25's
-- contribution of a term only grows with its occurrences and shrinks with the memory's
-- length, so whatever the owner's average length is now (the statistics drift with every
-- write), no unread posting of a term can contribute more than a bound taken from the last
-- one read: nothing to precompute, nothing to refresh. A search reads `depth` postings of
-- each term, scores exactly (every query term, one index-only probe per memory) up to
-- `checks` of the memories that the unread postings could still lift into its first `sure`
-- results (the top ten), and stops when the sure-th score is at least what a memory seen
-- nowhere could reach. Otherwise it reads four times as deep, up to `max_depth` (then the
-- result is the best found: the sums read, as before this migration, and the exact scores
-- of the memories checked).

-- Exact scoring reads a memory's postings by its id, index-only: the id index carries what a
-- score needs. Without those columns each memory scored cost visits to the table (measured
-- once, on bench/scale.py's 100k memories: 500 checks added ~12 ms to a search without them,
-- none with them; docs/recall.md's sittings 2 and 3 show the same). The price is size:
-- the plain id index was deduplicated (27 MB per 100k memories), this one cannot be
-- (147 MB). Deletes find a memory's postings through it as before. Building it took 1.6-2.3 s
-- for the benchmark's 100k memories (measured once); writes wait meanwhile.
CREATE INDEX memory_postings_by_memory_idx ON memory_postings (id)
    INCLUDE (owner_key, term, neg_tf, dl);
DROP INDEX memory_postings_id_idx;

-- BM25: k1 = 1.2, b = 0.75, document length = distinct terms (as 0050).
CREATE FUNCTION memlane_bm25_part(tf float8, dl float8, avgdl float8) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * dl / avgdl));

-- One pass at one depth: the top k memories read, with their best known scores; the sure-th
-- score when the first `sure` are known exactly (else 0); the bound on a memory seen in no
-- term's read postings.
CREATE FUNCTION memlane_lexical_pass(
    owner bigint, terms bigint[], idfs float8[], avgdl float8, k integer, depth integer,
    sure integer, checks integer,
    OUT ids uuid[], OUT scores float8[], OUT kth float8, OUT unseen float8
)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
WITH q AS MATERIALIZED (
    SELECT t.term, t.idf FROM unnest(terms, idfs) AS t(term, idf)
),
read AS MATERIALIZED (
    SELECT q.term, p.id, -p.neg_tf::float8 AS tf, p.dl::float8 AS dl,
           q.idf * memlane_bm25_part(-p.neg_tf, p.dl, avgdl) AS part
    FROM q CROSS JOIN LATERAL (
        SELECT p.id, p.neg_tf, p.dl
        FROM memory_postings AS p
        WHERE p.owner_key = owner AND p.term = q.term
        ORDER BY p.neg_tf, p.dl, p.id
        LIMIT depth
    ) AS p
),
-- What any unread posting of a term can add: fewer postings than the depth means none are
-- left; else the last one read (fewest occurrences, then longest) bounds those after it, and
-- one occurrence less in the shortest possible memory bounds the rest.
bounds AS MATERIALIZED (
    SELECT r.term,
           CASE WHEN count(*) < depth THEN 0 ELSE max(q.idf) * greatest(
               memlane_bm25_part(min(r.tf), (array_agg(r.dl ORDER BY r.tf, r.dl DESC))[1], avgdl),
               CASE WHEN min(r.tf) > 1 THEN memlane_bm25_part(min(r.tf) - 1, 1, avgdl) ELSE 0 END
           ) END AS after
    FROM read AS r JOIN q USING (term)
    GROUP BY r.term
),
total AS MATERIALIZED (
    SELECT coalesce(sum(b.after), 0) AS unseen FROM bounds AS b
),
-- A memory's known part, and what the terms it was not read under could still add.
seen AS MATERIALIZED (
    SELECT r.id, sum(r.part) AS known, t.unseen - sum(b.after) AS open
    FROM read AS r JOIN bounds AS b USING (term), total AS t
    GROUP BY r.id, t.unseen
),
threshold AS (
    SELECT coalesce(
        (SELECT s.known FROM seen AS s ORDER BY s.known DESC LIMIT 1 OFFSET sure - 1), 0
    ) AS known
),
-- Those the unread postings could still lift into the top `sure`, best known first: a term
-- held by a share of the owner's memories adds to a memory it was not read under with about
-- that chance, so what is known predicts the score better than what could be added (500
-- checks found 65 % of the exact top ten this way, 55 % by the most that could be added).
hopeful AS MATERIALIZED (
    SELECT s.id, row_number() OVER (ORDER BY s.known DESC, s.id) AS place
    FROM seen AS s, threshold AS f
    WHERE s.open > 0 AND s.known + s.open >= f.known
),
exact AS (
    SELECT p.id, sum(q.idf * memlane_bm25_part(-p.neg_tf, p.dl, avgdl)) AS score
    FROM memory_postings AS p JOIN q ON q.term = p.term
    WHERE p.owner_key = owner
      AND p.id = ANY(ARRAY(SELECT h.id FROM hopeful AS h WHERE h.place <= checks))
    GROUP BY p.id
),
-- An exact score is never below the known part, so the larger of the two is the best known.
top AS (
    SELECT b.id, max(b.score) AS score
    FROM (SELECT s.id, s.known AS score FROM seen AS s
          UNION ALL SELECT e.id, e.score FROM exact AS e) AS b
    GROUP BY b.id
    ORDER BY score DESC, b.id
    LIMIT k
)
SELECT array_agg(top.id ORDER BY top.score DESC, top.id),
       array_agg(top.score ORDER BY top.score DESC, top.id),
       -- The sure-th score, unless a hopeful memory was left unscored (then nothing is sure).
       CASE WHEN count(*) < sure OR (SELECT count(*) FROM hopeful) > checks THEN 0
            ELSE (array_agg(top.score ORDER BY top.score DESC, top.id))[sure] END,
       (SELECT t.unseen FROM total AS t)
FROM top
$$;

-- The owner's BM25 top k for the query terms (blinded terms, or stems without encryption):
-- (id, score), best first, the first `sure` of them exact. `depth`: postings of each term
-- read first; `max_depth`: the most read; `checks`: the most memories scored exactly in one
-- pass. Past either budget the top is the best found, not guaranteed.
CREATE FUNCTION memlane_lexical_top(
    tenant text, user_id text, query_terms text[], k integer, depth integer, max_depth integer,
    sure integer, checks integer
)
RETURNS TABLE (id uuid, score float8)
LANGUAGE plpgsql STABLE AS $$
DECLARE
    owner CONSTANT bigint := memlane_owner_hash(tenant, user_id);
    avgdl float8;
    terms bigint[];
    idfs float8[];
    pass record;
    reading integer := least(greatest(depth, k, 1), greatest(max_depth, 1));
BEGIN
    SELECT greatest(s.total_length::float8 / greatest(s.n, 1), 1),
           array_agg(memlane_term_hash(t.term)),
           array_agg(ln(1 + (s.n - t.df + 0.5) / (t.df + 0.5)))
    INTO avgdl, terms, idfs
    FROM memory_owner_stats AS s
    JOIN memory_terms AS t ON t.tenant = s.tenant AND t.user_id = s.user_id
    WHERE s.tenant = memlane_lexical_top.tenant AND s.user_id = memlane_lexical_top.user_id
      AND t.term = ANY(query_terms)
    GROUP BY s.n, s.total_length;
    IF terms IS NULL OR k < 1 THEN
        RETURN;
    END IF;
    LOOP
        SELECT * INTO pass
        FROM memlane_lexical_pass(
            owner, terms, idfs, avgdl, k, reading, greatest(least(sure, k), 1), checks);
        EXIT WHEN pass.unseen <= pass.kth OR reading >= max_depth;
        reading := least(reading::bigint * 4, max_depth)::integer;
    END LOOP;
    RETURN QUERY SELECT r.id, r.score FROM unnest(pass.ids, pass.scores) AS r(id, score);
END;
$$;
