"""Affect adapters: the emotional charge of a text from a lexicon library."""
