-- Small facts about the data itself: the encryption key fingerprint, the embedding model
-- and dimension the vectors were made with. Plain key/value, written rarely.
CREATE TABLE memlane_meta (
    key         text PRIMARY KEY,
    value       text NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
