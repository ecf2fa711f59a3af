"""Choosing memories for a question: relevance scoring and the rendered context block."""
