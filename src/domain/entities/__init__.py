"""Entities without an LLM: names found in text, their kinds, and entity nodes."""
