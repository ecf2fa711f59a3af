-- Nothing a caller wrote stays readable at rest (docs/security.md): a memory's tags, metadata
-- and conversation id are sealed together in `attributes` (one JSON document, bound to the
-- row like content). What is left in the old columns for the filters that need equality is
-- a keyed blind token per tenant: `tags` holds the tokens of the tags (the tag filter, MCP
-- name tags, topics), `conversation_id` the token of the conversation id (the conversation
-- filter and order, neighbour expansion along memories_conversation_order_idx, the current-
-- conversation exclusion), and `metadata` is '{}'.
--
-- A row with `attributes` NULL was stored before this migration and still holds plaintext
-- in those columns; reads open it as before. `memlane seal-existing` seals such rows in
-- batches (resumable: each batch commits, and it picks up the rows still NULL).
ALTER TABLE memories ADD COLUMN attributes bytea NULL;
ALTER TABLE memory_quarantine ADD COLUMN attributes bytea NULL;

-- The tag filter: tokens are per-tenant keyed hashes, so one token is selective on its own.
CREATE INDEX memories_tags_gin_idx ON memories USING gin (tags);
-- The rows seal-existing still has to visit; empty once it has run (and on a new install).
CREATE INDEX memories_unsealed_idx ON memories (tenant, user_id, id) WHERE attributes IS NULL;
CREATE INDEX memory_quarantine_unsealed_idx ON memory_quarantine (tenant, user_id, id)
    WHERE attributes IS NULL;
