-- A memory holding only the assistant's words (a conversation segment with no user message:
-- a reply sent on its own, or a named assistant's turn of a transcript) has provenance
-- 'replied' (docs/recall.md, "The assistant's words"): ranking gives it less weight than
-- what the user said.
ALTER TABLE memory_heat DROP CONSTRAINT IF EXISTS memory_heat_provenance_check;
ALTER TABLE memory_heat ADD CONSTRAINT memory_heat_provenance_check
    CHECK (provenance IN ('stated', 'extracted', 'replied', 'inferred', 'consolidated'));
