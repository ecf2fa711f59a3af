-- Lexical terms to tsvector/tsquery verbatim: no parser, no stemming, no stop words
-- (the service has already normalised and blinded them). Each term is quoted as a
-- lexeme; positions are the term's ordinals, so repeated terms keep their frequency.

CREATE FUNCTION memlane_quote_lexeme(term text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN '''' || replace(replace(term, '\', '\\'), '''', '''''') || '''';

CREATE FUNCTION memlane_terms_tsvector(terms text[]) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (
    SELECT coalesce(string_agg(memlane_quote_lexeme(t.term) || ':' || least(t.ord, 16383), ' '), '')::tsvector
    FROM unnest(terms) WITH ORDINALITY AS t(term, ord)
    WHERE t.term <> ''
);

-- The terms back in their original order (read from the positions).
CREATE FUNCTION memlane_tsvector_terms(keywords tsvector) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (
    SELECT coalesce(array_agg(u.lexeme ORDER BY p.pos, u.lexeme), '{}')
    FROM unnest(keywords) AS u(lexeme, positions, weights), unnest(u.positions) AS p(pos)
);

CREATE FUNCTION memlane_terms_tsquery(terms text[]) RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (
    SELECT coalesce(string_agg(DISTINCT memlane_quote_lexeme(t.term), ' | '), '')::tsquery
    FROM unnest(terms) AS t(term)
    WHERE t.term <> ''
);
