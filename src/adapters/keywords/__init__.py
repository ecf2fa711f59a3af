"""Keyword adapters: text to stemmed lexical index terms (Snowball)."""
