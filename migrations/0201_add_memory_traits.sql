-- A memory's metadata (issue 24, Chvor and RMG decision 11), kept beside its heat because
-- ranking reads them with the lean candidate rows: provenance (how it came to be),
-- confidence in [0, 1], valence in [-1, 1] and arousal in [0, 1] (its emotional charge,
-- read from the text by a lexicon at write), domain (relationship, project, technical,
-- personal) and whether it is a cluster's summary node made by consolidation.
--
-- Like memory_type and importance these are in clear: they are scores and categories the
-- service derives, not the user's words (the embedding, also in clear, says far more).
-- NULL marks a memory stored before this migration; the `tiers` step of `memlane upgrade`
-- fills them with the tiers, and reads treat a NULL as unknown (no weight in ranking).
ALTER TABLE memory_heat
    ADD COLUMN provenance text NULL
        CHECK (provenance IN ('stated', 'extracted', 'inferred', 'consolidated')),
    ADD COLUMN confidence double precision NULL CHECK (confidence BETWEEN 0 AND 1),
    ADD COLUMN valence real NULL CHECK (valence BETWEEN -1 AND 1),
    ADD COLUMN arousal real NULL CHECK (arousal BETWEEN 0 AND 1),
    ADD COLUMN domain text NULL
        CHECK (domain IN ('relationship', 'project', 'technical', 'personal')),
    ADD COLUMN cluster boolean NOT NULL DEFAULT false;
