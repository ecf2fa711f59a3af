"""Cosine similarity in SQL, the one guarded expression every query uses."""

from __future__ import annotations


def similarity_from_distance(distance: str) -> str:
    """1 - cosine distance, as SQL. pgvector's distance is NaN when a vector is all zeros;
    the domain's cosine says 0 there, and NaN would sort above every real similarity."""
    return f"coalesce(nullif(1 - ({distance}), 'NaN'), 0)"


def cosine(left: str, right: str) -> str:
    """The cosine similarity of two vector expressions, as SQL."""
    return similarity_from_distance(f"{left} <=> {right}")
