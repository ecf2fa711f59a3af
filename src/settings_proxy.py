"""The `[proxy]` settings: the upstream model server, its key's source, timeouts, learning."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from memlane.domain.errors import ConfigurationError
from memlane.domain.retrieval import MAX_ACTIVE_CONTEXT

DEFAULT_KEY_ENV = "MEMLANE_UPSTREAM_KEY"


class ProxySettings(BaseModel):
    """The memory proxy (docs/proxy.md). An empty `upstream_url` leaves its routes answering
    503 with what to set. The upstream's key is never a setting here: it is read from the
    environment variable `upstream_key_env` names, or from `upstream_key_file`."""

    model_config = ConfigDict(extra="forbid")

    upstream_url: str = ""
    upstream_key_env: str = Field(DEFAULT_KEY_ENV, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    upstream_key_file: Path | None = None
    connect_timeout_s: float = Field(5.0, gt=0, le=600)
    first_byte_timeout_s: float = Field(600.0, gt=0, le=86_400)
    chunk_gap_timeout_s: float = Field(120.0, gt=0, le=86_400)
    max_connections: int = Field(64, ge=1, le=10_000)
    learn_concurrency: int = Field(2, ge=1, le=64)
    learn_queue_size: int = Field(256, ge=1, le=100_000)
    drain_timeout_s: float = Field(10.0, ge=0, le=3600)
    active_exchanges: int = Field(MAX_ACTIVE_CONTEXT, ge=0, le=MAX_ACTIVE_CONTEXT)

    @model_validator(mode="before")
    @classmethod
    def _no_key_in_plain_text(cls, data: Any) -> Any:
        if isinstance(data, dict) and ("upstream_key" in data or "api_key" in data):
            raise ValueError(
                "the upstream key is never a setting: put it in the MEMLANE_UPSTREAM_KEY "
                "environment variable (or the one proxy.upstream_key_env names) or in a "
                "file named by proxy.upstream_key_file"
            )
        return data

    @model_validator(mode="after")
    def _http_url(self) -> ProxySettings:
        url = self.upstream_url.strip()
        if url and not url.lower().startswith(("http://", "https://")):
            raise ValueError("proxy.upstream_url must start with http:// or https://")
        return self

    def upstream_key(self) -> str | None:
        """The key from the secret file when one is named, else from the environment."""
        if self.upstream_key_file is not None:
            path = self.upstream_key_file.expanduser()
            try:
                return path.read_text(encoding="utf-8").strip() or None
            except OSError as error:
                raise ConfigurationError(
                    f"proxy.upstream_key_file {path} cannot be read: {error.strerror}"
                ) from None
        return os.environ.get(self.upstream_key_env, "").strip() or None
