-- Facts (seed 004, DESIGN §10): subject-relation-object statements about a user, read from
-- their memories or stated directly. Subject and object are sealed like memory content
-- (the associated data binds them to the fact's row and field) and blind-indexed (a keyed
-- hash of the normalised text) for equality lookups; relation, type and time span are a
-- vocabulary and stay plaintext.
--
-- Deleting a memory deletes the facts read from it (a statement-level trigger, set-based,
-- like the graph's); deleting a fact, either way, makes the facts it had superseded current
-- again: the statement that replaced them is gone. Erasing a user deletes their facts.

CREATE TABLE facts (
    tenant            text NOT NULL,
    user_id           text NOT NULL,
    id                uuid NOT NULL,
    subject           bytea NOT NULL,
    object            bytea NOT NULL,
    subject_index     text NOT NULL,
    object_index      text NOT NULL,
    relation          text NOT NULL CHECK (relation ~ '^[a-z][a-z_]{0,39}$'),
    fact_type         text NOT NULL CHECK (fact_type IN (
        'event', 'trait', 'identity', 'commitment', 'preference', 'constraint'
    )),
    time_span         text NOT NULL CHECK (time_span IN (
        'short_term', 'medium_term', 'current', 'long_term', 'future'
    )),
    confidence        double precision NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    user_fact_score   double precision NULL
        CHECK (user_fact_score >= 0 AND user_fact_score <= 10),
    source_memory_id  uuid NULL,
    source_time       timestamptz NULL,
    valid_from        timestamptz NOT NULL,
    valid_until       timestamptz NULL,
    superseded_by     uuid NULL,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_id, id),
    CHECK (valid_until IS NULL OR valid_until >= valid_from)
);
CREATE INDEX facts_owner_created_idx ON facts (tenant, user_id, created_at DESC, id DESC);
-- Current facts of a relation: supersession at write, and facts joining retrieval.
CREATE INDEX facts_owner_relation_idx ON facts (tenant, user_id, relation)
    WHERE superseded_by IS NULL;
CREATE INDEX facts_source_idx ON facts (tenant, user_id, source_memory_id)
    WHERE source_memory_id IS NOT NULL;
CREATE INDEX facts_superseded_by_idx ON facts (tenant, user_id, superseded_by)
    WHERE superseded_by IS NOT NULL;

CREATE FUNCTION memlane_forget_facts_of_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM facts AS f USING gone AS g
    WHERE f.tenant = g.tenant AND f.user_id = g.user_id AND f.source_memory_id = g.id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER memories_forget_facts
    AFTER DELETE ON memories
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_forget_facts_of_deleted();

CREATE FUNCTION memlane_restore_facts_superseded_by_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE facts AS f SET valid_until = NULL, superseded_by = NULL, updated_at = now()
    FROM gone AS g
    WHERE f.tenant = g.tenant AND f.user_id = g.user_id AND f.superseded_by = g.id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER facts_restore_superseded
    AFTER DELETE ON facts
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_restore_facts_superseded_by_deleted();
