-- Lexical candidates from an owner-scoped inverted index. The plain GIN index on keywords
-- holds each blinded term once per tenant, so a term common among a tenant's other users
-- made the search fetch and discard their rows, and the planner, assuming the owner's share
-- of a term's postings to be its share of the table, ANDed the bitmap with the owner's whole
-- primary-key range (12 ms at 100k memories). Each key here is a short hash of the owner
-- followed by the term: a lookup returns exactly the owner's memories holding the term.
CREATE FUNCTION memlane_owner_key(tenant text, user_id text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN left(md5(tenant || chr(31) || user_id), 16);

CREATE FUNCTION memlane_owner_terms(tenant text, user_id text, keywords tsvector) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY(
    SELECT memlane_owner_key(tenant, user_id) || t FROM unnest(tsvector_to_array(keywords)) AS t
);

CREATE INDEX memories_owner_terms_gin_idx
    ON memories USING gin (memlane_owner_terms(tenant, user_id, keywords));
DROP INDEX memories_keywords_gin_idx;
