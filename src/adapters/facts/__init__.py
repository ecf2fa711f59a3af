"""Fact extraction adapters: the heuristic patterns (default) and an optional Ollama model."""
