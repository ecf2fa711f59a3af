-- pgvector's type defaults to EXTERNAL storage, and a memory row (1.5 kB of embedding, the
-- sealed content and summary, the terms) passes PostgreSQL's 2 kB toast threshold, so every
-- embedding went out of line: each distance computed outside the HNSW index (the cosine of
-- a search hit, a near-duplicate check scanning a small owner's rows) fetched it from the
-- toast table, ~3 us a row. MAIN keeps it in the row unless the row cannot fit a page even
-- then (a vector of over ~2,000 dimensions), and rows stay whole up to a page; larger
-- content still moves out of line. Applies to rows written from now on (existing rows move
-- when rewritten, e.g. by VACUUM FULL memories). `memlane reembed` sets it again after
-- resizing the column.
ALTER TABLE memories ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE memories SET (toast_tuple_target = 8160);
