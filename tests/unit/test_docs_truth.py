"""What the docs tell a new user about privacy and names holds (issue 31's walkthrough)."""

from __future__ import annotations

from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_mcp_docs_never_call_the_knowledge_graphs_tags_plaintext() -> None:
    text = (DOCS / "mcp.md").read_text(encoding="utf-8")
    assert "plaintext)" not in text and "tags (plaintext" not in text
    header = next(line for line in text.splitlines() if line.startswith("| reference |"))
    assert "tags (sealed" in header


def test_the_changelog_names_the_deprecated_alias_and_its_replacement() -> None:
    text = (DOCS.parent / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "`fact_type`" in text and "`type` is still read" in text and "deprecated" in text
