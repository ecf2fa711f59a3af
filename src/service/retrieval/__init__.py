"""Retrieval use cases: candidates, fusion, expansion and the selection of context."""
