-- Cleanup keeps what it has no evidence against (docs/import.md, "Cleanup and imported
-- history"; the rule is memlane.domain.memories.cleanup.may_clean_up, mirrored below).
--
-- `arrived_at`: when the memory was written or imported into this installation (an imported
-- memory keeps the export's time as created_at), for the grace period after it during which
-- cleanup never deletes it. Rows stored before this migration get the migration's time: the
-- grace period starts for them now, so an upgrade never makes a cleanup delete more.
-- `imported`: the memory is chat history a user imported (docs/import.md). Both live in the
-- narrow heat table, which decay and cleanup read alone.
ALTER TABLE memory_heat
    ADD COLUMN arrived_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN imported boolean NOT NULL DEFAULT false;

-- Memories imported before this migration carry their mark in sealed metadata alone, but
-- their heat tells them apart: an import kept the message's time as created_at and started
-- the curve there (accessed_at = created_at), while updated_at is the import's time. A live
-- write has created_at = updated_at. Also caught: history posted with its own past times, and
-- a live memory edited a day later but never recalled (kept a little longer, only if it
-- carries a fact or a name). Missed: an imported memory recalled since (it was reinforced).
UPDATE memory_heat AS h SET imported = true
FROM memories AS m
WHERE m.tenant = h.tenant AND m.user_id = h.user_id AND m.id = h.id
  AND h.accessed_at = m.created_at AND m.updated_at > m.created_at + interval '1 day';

-- may_clean_up in SQL: every clause keeps a memory. `arrived_by` is computed once per run in
-- Python (CleanupRule.arrived_by): the same instant on both sides, no interval arithmetic
-- here. Inlined into the cleanup statements (IMMUTABLE, SQL body, each parameter used once,
-- not STRICT), so the EXISTS probes passed in run only for a faded, imported row.
CREATE FUNCTION memlane_may_clean_up(
    importance double precision,
    min_importance double precision,
    pinned boolean,
    arrived_at timestamptz,
    arrived_by timestamptz,
    imported boolean,
    carries_fact boolean,
    names_entity boolean
) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE CALLED ON NULL INPUT
RETURN NOT pinned
   AND importance <= min_importance
   AND arrived_at <= arrived_by
   AND NOT (imported AND (carries_fact OR names_entity));

-- The import ledger outlives every memory: only an erasure clears it (DELETE_ALL in
-- adapters/postgres/memories/sql.py), not the deletion of a user's last memory, which is what
-- this trigger did. A memory that cleanup or the user deleted does not come back by a re-import.
DROP TRIGGER memories_forget_imports ON memories;
DROP FUNCTION memlane_forget_imports_of_erased();
