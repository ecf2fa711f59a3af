-- Decay rewrites every memory's heat row daily and a cleanup deletes the faded memories with
-- their postings: with the default thresholds (20 % dead rows) a cleanup of 13 % of a million
-- memories left 3.3M dead postings, 264k dead heat rows and 129k dead memories unvacuumed,
-- and context queries ran 10 ms -> 13 ms over them until a manual VACUUM. Vacuum sooner.
ALTER TABLE memory_heat SET (autovacuum_vacuum_scale_factor = 0.05);
ALTER TABLE memories SET (autovacuum_vacuum_scale_factor = 0.05);
ALTER TABLE memory_postings SET (autovacuum_vacuum_scale_factor = 0.02);
