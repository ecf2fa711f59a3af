-- Envelope encryption (docs/security.md): one random data key per (tenant, user), stored only
-- wrapped (XChaCha20-Poly1305) by the master key whose id the row names, so a master-key
-- rotation rewraps these rows and never touches a memory. The row of the empty owner
-- ('', '') is the installation's root key: the per-tenant blind-index keys are derived from
-- it, and version-1 envelopes (sealed before data keys existed) open with it.
-- Erasing a user deletes their row in the erasure's transaction: crypto-shredding.
CREATE TABLE data_keys (
    tenant         text NOT NULL,
    user_id        text NOT NULL,
    id             uuid NOT NULL UNIQUE,
    master_key_id  text NOT NULL,
    wrapped        bytea NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    rewrapped_at   timestamptz,
    PRIMARY KEY (tenant, user_id)
);
