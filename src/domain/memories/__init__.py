"""A memory's own rules: importance and type, decay, summaries, segments, consolidation."""
