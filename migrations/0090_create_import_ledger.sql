-- Chat imports (docs/import.md): which messages of an export an owner has imported, so that
-- importing the same file again, or a newer export, adds only what is new. A key is a keyed
-- blind index (per tenant) of the message's stable key, which is itself a SHA-256 of the
-- export's ids: nothing readable, and nothing that links to another tenant's ledger.
--
-- The ledger outlives single memories on purpose: a memory the user deleted, or that decay
-- cleaned up, does not come back with the next import. Erasing an owner (deleting their
-- last memory) empties their ledger in the same statement, by the trigger below.

CREATE TABLE import_ledger (
    tenant       text NOT NULL,
    user_id      text NOT NULL,
    message_key  text NOT NULL,
    imported_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, user_id, message_key)
);

CREATE FUNCTION memlane_forget_imports_of_erased() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- One probe per owner of the statement (memories_owner_created_idx), not per row.
    DELETE FROM import_ledger AS l
    USING (SELECT DISTINCT tenant, user_id FROM gone) AS o
    WHERE l.tenant = o.tenant AND l.user_id = o.user_id
      AND NOT EXISTS (
          SELECT 1 FROM memories AS m WHERE m.tenant = o.tenant AND m.user_id = o.user_id
      );
    RETURN NULL;
END;
$$;

CREATE TRIGGER memories_forget_imports
    AFTER DELETE ON memories
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_forget_imports_of_erased();
