-- The audit trail (DESIGN §10): append-only events, hash-chained per owner (docs/audit.md).
-- An event keeps in the clear only ids, kinds, the actor and the time; what changed (old ->
-- new values) is sealed in `payload`, bound to the event's id. `body_digest` is SHA-256 over
-- the event kind and the sealed payload, and `hash` chains the clear header, that digest and
-- the previous event's hash: erasing a user drops kind and payload (a tombstone) and keeps the
-- digest, so the chain still verifies.

CREATE TABLE audit_events (
    tenant        text NOT NULL,
    user_id       text NOT NULL,
    seq           bigint NOT NULL CHECK (seq >= 1),
    id            uuid NOT NULL UNIQUE,
    subject_kind  text NOT NULL CHECK (subject_kind IN ('memory', 'edge', 'fact', 'owner')),
    subject_id    uuid NOT NULL,
    related_id    uuid,
    kind          text NOT NULL CHECK (kind IN (
        'created', 'merged', 'updated', 'superseded', 'pinned', 'unpinned',
        'score_overridden', 'consolidated', 'deleted', 'erased', 'erasure'
    )),
    actor         text NOT NULL,
    at            timestamptz NOT NULL,
    payload       bytea,
    body_digest   bytea NOT NULL,
    prev_hash     bytea NOT NULL,
    hash          bytea NOT NULL,
    -- One event per place in an owner's chain: a writer that skipped the owner's lock fails
    -- here instead of forking the chain.
    PRIMARY KEY (tenant, user_id, seq)
);
-- A subject's history (memory, fact, an edge's source) and an edge's or supersession's
-- other end.
CREATE INDEX audit_events_subject_idx ON audit_events (tenant, user_id, subject_id);
CREATE INDEX audit_events_related_idx ON audit_events (tenant, user_id, related_id)
    WHERE related_id IS NOT NULL;

-- Append-only: no DELETE, and the one UPDATE allowed is a tombstone (kind 'erased', payload
-- dropped, everything else as it was). This stops mistakes and casual edits; someone who can
-- disable triggers can still rewrite rows, which is what the hash chain is there to reveal.
CREATE FUNCTION memlane_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.kind = 'erased' AND NEW.payload IS NULL
       AND (NEW.tenant, NEW.user_id, NEW.seq, NEW.id, NEW.subject_kind, NEW.subject_id,
            NEW.related_id, NEW.actor, NEW.at, NEW.body_digest, NEW.prev_hash, NEW.hash)
           IS NOT DISTINCT FROM
           (OLD.tenant, OLD.user_id, OLD.seq, OLD.id, OLD.subject_kind, OLD.subject_id,
            OLD.related_id, OLD.actor, OLD.at, OLD.body_digest, OLD.prev_hash, OLD.hash) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'audit_events is append-only (% refused)', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;

CREATE TRIGGER audit_events_append_only
    BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION memlane_audit_append_only();
