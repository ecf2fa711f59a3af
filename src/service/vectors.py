"""Vector arithmetic the service needs without a database (kept in the domain, re-exported)."""

from __future__ import annotations

from memlane.domain.vectors import cosine, cosine_or_zero

__all__ = ["cosine", "cosine_or_zero"]
