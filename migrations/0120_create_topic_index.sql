-- Topics (docs/facts.md): a memory's tags and its imported chat's title, case-blind. A topic
-- view read every memory of the owner through the listing (a full pass, 2.7-4 s at 10k
-- memories); it now reads one topic's memories through this owner-scoped GIN index (the
-- same scheme as 0041: each key is a short hash of the owner followed by the topic's key,
-- so a lookup returns exactly the owner's memories carrying it) and counts topics in one
-- aggregate. The key is the rule of memlane.domain.topics.topic_key: whitespace runs made
-- one space, trimmed, cut to 200 characters, lower().
CREATE FUNCTION memlane_topic_label(topic text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN left(btrim(regexp_replace(topic, '\s+', ' ', 'g')), 200);

CREATE FUNCTION memlane_topic_key(topic text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN lower(memlane_topic_label(topic));

-- Tags first, then the title (as topics_of reads them).
CREATE FUNCTION memlane_topics(tags text[], metadata jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN tags || CASE WHEN jsonb_typeof(metadata -> 'conversation_title') = 'string'
                    THEN ARRAY[metadata ->> 'conversation_title'] ELSE '{}'::text[] END;

CREATE FUNCTION memlane_owner_topics(tenant text, user_id text, tags text[], metadata jsonb)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY(
    SELECT DISTINCT memlane_owner_key(tenant, user_id) || memlane_topic_key(t)
    FROM unnest(memlane_topics(tags, metadata)) AS t
    WHERE memlane_topic_key(t) <> ''
);

CREATE INDEX memories_owner_topics_gin_idx
    ON memories USING gin (memlane_owner_topics(tenant, user_id, tags, metadata));
