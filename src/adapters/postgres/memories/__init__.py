"""PostgreSQL adapters of the memory store: writes, search, maintenance, cleanup."""
