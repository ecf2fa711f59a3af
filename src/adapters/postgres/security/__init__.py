"""PostgreSQL adapters of security: audit events, data keys, API keys, integrity, sealed fields."""
