-- Memories whose sealed fields no longer decrypt, moved out of every read by
-- `memlane verify --quarantine`. Kept whole (ciphertexts, plaintext columns, heat, the vector
-- as an array) so a restored key or a forensic look can still use them; nothing reads them.
CREATE TABLE memory_quarantine (
    tenant           text NOT NULL,
    user_id          text NOT NULL,
    id               uuid NOT NULL,
    unreadable       text[] NOT NULL,
    quarantined_at   timestamptz NOT NULL,
    memory_type      text NOT NULL,
    content          bytea NOT NULL,
    summary          bytea NOT NULL,
    conversation_id  text NULL,
    tags             text[] NOT NULL,
    metadata         jsonb NOT NULL,
    pinned           boolean NOT NULL,
    embedding        real[] NULL,
    embedding_model  text NULL,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    importance       double precision NULL,
    base_importance  double precision NULL,
    access_count     integer NULL,
    accessed_at      timestamptz NULL,
    PRIMARY KEY (tenant, user_id, id)
);
