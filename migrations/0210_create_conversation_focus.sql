-- Session focus (RMG decisions 5-8, docs/levels.md): the memories a conversation's contexts
-- handed out, one row per (conversation, memory), with how often and when last. The
-- conversation is stored as its blind token (the keyed hash memories.conversation_id holds
-- with encryption on), the memory by id: no content, nothing to seal.
--
-- Deleting a memory (one, an owner's all at erasure, a cleanup or a merge) takes its focus
-- rows with it: one statement-level trigger per delete statement, set-based over the deleted
-- rows, as the graph's edges go (0060).

CREATE TABLE conversation_focus (
    tenant        text NOT NULL,
    user_id       text NOT NULL,
    conversation  text NOT NULL,
    memory_id     uuid NOT NULL,
    touches       integer NOT NULL CHECK (touches >= 1),
    last_touched  timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_id, conversation, memory_id)
);
-- The user's conversations by their last touch (session resume) and the trigger's probe.
CREATE INDEX conversation_focus_recent_idx
    ON conversation_focus (tenant, user_id, last_touched DESC);
CREATE INDEX conversation_focus_memory_idx
    ON conversation_focus (tenant, user_id, memory_id);

CREATE FUNCTION memlane_forget_focus_of_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM conversation_focus AS f USING gone AS g
    WHERE f.tenant = g.tenant AND f.user_id = g.user_id AND f.memory_id = g.id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER memories_forget_focus
    AFTER DELETE ON memories
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_forget_focus_of_deleted();
