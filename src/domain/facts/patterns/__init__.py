"""Fact patterns per language (EN/DE) and the word lists they consult."""
