"""ApiConfig: the knobs of the HTTP edge, separate from the memory rules."""

from __future__ import annotations

from dataclasses import dataclass

# The largest page, search and batch sizes; the OpenAPI document states them as ranges.
MAX_PAGE_LIMIT = 200
MAX_SEARCH_LIMIT = 100
MAX_BATCH_ITEMS = 256


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
    max_page_limit: int = MAX_PAGE_LIMIT
    max_search_limit: int = MAX_SEARCH_LIMIT
    max_context_limit: int = 50
    max_batch_items: int = MAX_BATCH_ITEMS
    max_request_bytes: int = 16 * 1024 * 1024
    max_import_bytes: int = 256 * 1024 * 1024  # POST /v1/imports bounds its own body
    readiness_timeout_ms: int = 2_000
    retry_after_s: int = 5
    debug: bool = False
    ui_enabled: bool = True  # the web inspector at /ui
    cors_origins: tuple[str, ...] = ()  # browser origins allowed (CORS); none: CORS off

    def __post_init__(self) -> None:
        if not 1 <= self.default_page_limit <= self.max_page_limit:
            raise ValueError("default_page_limit must be within 1..max_page_limit")
        if self.max_batch_items < 1:
            raise ValueError("max_batch_items must be positive")
