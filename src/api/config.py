"""ApiConfig: the knobs of the HTTP edge, separate from the memory rules."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ApiConfig:
    """How the HTTP API behaves; defaults suit production.

    With `auth_enabled=False` every request acts as an all-scopes principal of
    `default_tenant`; it must still name the user unless `default_user_id` is set.
    """

    auth_enabled: bool = True
    default_tenant: str = "default"
    default_user_id: str | None = None
    default_page_limit: int = 50
    max_page_limit: int = 200
    max_search_limit: int = 100
    max_context_limit: int = 50
    max_batch_items: int = 256
    max_request_bytes: int = 16 * 1024 * 1024
    max_import_bytes: int = 256 * 1024 * 1024  # POST /v1/imports bounds its own body
    readiness_timeout_ms: int = 2_000
    retry_after_s: int = 5
    debug: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.default_page_limit <= self.max_page_limit:
            raise ValueError("default_page_limit must be within 1..max_page_limit")
        if self.max_batch_items < 1:
            raise ValueError("max_batch_items must be positive")
