-- A fact's relation is plaintext when it is one of memlane's own vocabulary (lives_in,
-- works_at, ...: public names, like a memory's type). A relation a caller names itself
-- ("secretly_admires") is their own words: it is sealed in `relation_sealed` (bound to the
-- fact's row) and `relation` holds `custom_` and a keyed blind token of it (per tenant, in
-- letters so the column's check still holds), for the equality that supersession needs.
-- Rows from before have `relation_sealed` NULL and their relation as written, until
-- `memlane seal-existing` seals them.
ALTER TABLE facts ADD COLUMN relation_sealed bytea NULL;
