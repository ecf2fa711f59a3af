-- Memories: the wide, rarely rewritten row (sealed content, vector, lexical terms)
-- and a narrow side table for the hot columns that change on every read and decay run.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE memories (
    tenant           text NOT NULL,
    user_id          text NOT NULL,
    id               uuid NOT NULL,
    memory_type      text NOT NULL
        CHECK (memory_type IN ('fact', 'preference', 'correction', 'tool_result', 'context')),
    content          bytea NOT NULL,
    summary          bytea NOT NULL,
    conversation_id  text NULL,
    tags             text[] NOT NULL DEFAULT '{}',
    metadata         jsonb NOT NULL DEFAULT '{}',
    pinned           boolean NOT NULL DEFAULT false,
    embedding        vector(384) NULL,
    embedding_model  text NULL,
    -- Lexical index: the service's terms (already blinded), positions kept so the
    -- term frequency counts in ts_rank and the term order can be read back.
    keywords         tsvector NOT NULL DEFAULT ''::tsvector,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_id, id)
);

CREATE INDEX memories_owner_created_idx
    ON memories (tenant, user_id, created_at DESC, id DESC);
CREATE INDEX memories_embedding_hnsw_idx
    ON memories USING hnsw (embedding vector_cosine_ops);
CREATE INDEX memories_keywords_gin_idx
    ON memories USING gin (keywords);
-- The backfill job looks for rows stored while the embedder was down, oldest first.
CREATE INDEX memories_missing_embedding_idx
    ON memories (created_at, id) WHERE embedding IS NULL;

-- Hot columns live here, indexed by the primary key only and with free page room,
-- so recording an access or materialising decay is a HOT update that never touches
-- the HNSW index or the wide row. memory_type and pinned are copied here (written in
-- the same statement as the wide row) so decay and cleanup read this table alone.
-- No foreign key: cleanup deletes both sides in one set-based statement, and a
-- cascade trigger would cost one index probe per deleted row.
CREATE TABLE memory_heat (
    tenant           text NOT NULL,
    user_id          text NOT NULL,
    id               uuid NOT NULL,
    memory_type      text NOT NULL
        CHECK (memory_type IN ('fact', 'preference', 'correction', 'tool_result', 'context')),
    pinned           boolean NOT NULL DEFAULT false,
    -- double precision: a real 0.1 is larger than the double 0.1 it is compared with.
    importance       double precision NOT NULL,
    base_importance  double precision NOT NULL,
    access_count     integer NOT NULL DEFAULT 0 CHECK (access_count >= 0),
    accessed_at      timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_id, id)
) WITH (fillfactor = 60);
