"""SQL migrations, NNNN_verb_noun.sql, applied in order by memlane.adapters.postgres.migrations."""
