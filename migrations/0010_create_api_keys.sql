-- Tenants and their API keys. Tokens are never stored: only the SHA-256 of each token.
CREATE TABLE IF NOT EXISTS tenants (
    id          text PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS api_keys (
    id            uuid PRIMARY KEY,
    tenant        text NOT NULL REFERENCES tenants (id),
    token_hash    bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
    -- NULL: the key may act for any user of its tenant (each request names one).
    user_id       text NULL,
    scopes        text[] NOT NULL CHECK (cardinality(scopes) > 0),
    name          text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz NULL,
    revoked_at    timestamptz NULL
);

CREATE INDEX IF NOT EXISTS api_keys_tenant_idx ON api_keys (tenant, created_at);
