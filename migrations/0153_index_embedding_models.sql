-- Which model made the stored vectors, found without reading the table: memlane checks at
-- every start that no memory carries a vector of another model than the configured one
-- (two models' vectors in one index would be compared as if they shared a space). Few
-- distinct values: btree deduplication keeps the index to a few bytes a row, and the
-- column changes only when a memory is embedded, so recording an access stays a HOT update.
CREATE INDEX memories_embedding_model_idx ON memories (embedding_model);
