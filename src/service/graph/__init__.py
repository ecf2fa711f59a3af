"""Graph use cases: linking memories as written, reading a neighbourhood, the knowledge graph."""
