"""Adapters at the edge: PostgreSQL, embeddings, encryption, HTTP client."""
