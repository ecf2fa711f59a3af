"""Memory use cases: writing, conversations, consolidation, maintenance, reads and edits."""
