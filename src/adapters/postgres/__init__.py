"""PostgreSQL + pgvector storage, migrations and the embedded server."""
