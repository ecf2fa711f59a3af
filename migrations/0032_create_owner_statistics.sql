-- The planner estimated a user's row count as P(tenant) x P(user_id), as if the columns were
-- independent. With one big user among many small ones (100k of 885k rows) it guessed 1,367
-- rows instead of 100,000, chose the exact scan over the HNSW index, and a top-80 vector
-- search took 480 ms instead of 1 ms. A multi-column MCV list gives it each large owner's
-- real share; small owners stay out of the list and keep their (right) exact scans.
CREATE STATISTICS IF NOT EXISTS memories_owner_stats (mcv, dependencies)
    ON tenant, user_id FROM memories;
-- Extended statistics are empty until the next ANALYZE (a sample: ~1 s on a million rows).
ANALYZE memories;
