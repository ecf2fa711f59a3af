"""PostgreSQL adapters of entities: nodes and mentions."""
