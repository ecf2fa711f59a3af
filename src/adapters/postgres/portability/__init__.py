"""PostgreSQL adapters of portability: the import ledger and legacy rows."""
