-- Levels of detail (issue 24, Chvor): each memory's abstract (L0, <= 120 characters) and
-- overview (L1, <= 1,000), built from its content at write and sealed like it (bound to
-- the row and to the field names 'abstract' and 'overview'). The content is L2.
--
-- NULL marks a memory stored before this migration: reads derive both tiers from the
-- content (the same deterministic rules), and `memlane upgrade` (its `tiers` step) stores
-- them in committed batches, resumable, picking up the rows still NULL.
ALTER TABLE memories ADD COLUMN abstract bytea NULL;
ALTER TABLE memories ADD COLUMN overview bytea NULL;

-- The rows the tiers step still has to visit; empty once it has run (and on a new install).
CREATE INDEX memories_untiered_idx ON memories (tenant, user_id, id) WHERE abstract IS NULL;
