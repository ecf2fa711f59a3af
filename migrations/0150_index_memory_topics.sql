-- One topic read through an index (docs/facts.md, "Topics"): a memory's topics are its tags
-- and its chat's title, both sealed in `attributes`, so the database alone cannot tell which
-- memories carry a topic. `topic_tokens` holds the blind tokens of the memory's topic keys
-- (the tenant's blind-index key, prefix `topic`, the user id inside the hashed text: a token
-- names one owner's topic and equals no tag, keyword or other owner's token), written in
-- the same statement as the row, so a delete, an erasure or a quarantine move takes them
-- along with it.
--
-- NULL marks a row stored before this migration: the topic reads open such rows the old way
-- (along memories_untokened_idx) until `memlane upgrade` has filled them in committed
-- batches (resumable: it picks up the rows still NULL). A new write always sets the column
-- ('{}' for a memory without topics).
ALTER TABLE memories ADD COLUMN topic_tokens text[] NULL;

-- One topic's memories: the tokens are keyed per tenant and user, so one token selects one
-- owner's rows on its own.
CREATE INDEX memories_topic_tokens_gin_idx ON memories USING gin (topic_tokens);
-- The rows the backfill still has to visit; empty once it has run (and on a new install).
CREATE INDEX memories_untokened_idx ON memories (tenant, user_id, id) WHERE topic_tokens IS NULL;
