"""API key use cases: create (token shown once), list, revoke, authenticate with a short cache."""

from __future__ import annotations

import base64
import hashlib
import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from memlane.domain.security import ApiKey, KeyPrefixError, Principal, Scope, key_by_prefix
from memlane.ports.clock import Clock, system_clock
from memlane.ports.security import ApiKeyPort

TOKEN_PREFIX = "ml_"
TOKEN_BYTES = 32  # 256 bits of randomness
DEFAULT_CACHE_TTL_S = 10.0
DEFAULT_TOUCH_INTERVAL_S = 60.0
MAX_CACHE_ENTRIES = 10_000
_TOKEN_CHARS = 43  # base64url of 32 bytes, unpadded


def new_token() -> str:
    """A fresh random token: `ml_` + 43 base64url characters (256 bits)."""
    raw = secrets.token_bytes(TOKEN_BYTES)
    return TOKEN_PREFIX + base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def hash_token(token: str) -> bytes:
    """The only form a token is ever stored in: its SHA-256 digest.

    A plain hash is enough (no salt, no slow KDF) because the token is 256 random bits,
    not a guessable password, and a deterministic hash lets lookup use a unique index.
    """
    return hashlib.sha256(token.encode()).digest()


def looks_like_token(token: str) -> bool:
    """Cheap shape check so garbage never reaches the database."""
    return (
        token.startswith(TOKEN_PREFIX)
        and len(token) == len(TOKEN_PREFIX) + _TOKEN_CHARS
        and all(c.isalnum() or c in "-_" for c in token[len(TOKEN_PREFIX) :])
    )


@dataclass(frozen=True, slots=True)
class CreatedKey:
    """A new key and its token; the token exists only here, once."""

    key: ApiKey
    token: str


class KeyService:
    """Manages API keys and turns bearer tokens into principals.

    Successful authentications are cached in-process for `cache_ttl_s`, so most requests
    cost no database round trip. A key revoked through this service is dropped from the
    cache at once; one revoked elsewhere (the CLI, another replica) stops working within
    `cache_ttl_s`. Unknown tokens are not cached, so a new key works immediately.
    """

    def __init__(
        self,
        keys: ApiKeyPort,
        clock: Clock = system_clock,
        cache_ttl_s: float = DEFAULT_CACHE_TTL_S,
        touch_interval_s: float = DEFAULT_TOUCH_INTERVAL_S,
    ) -> None:
        self._keys = keys
        self._clock = clock
        self._cache_ttl = timedelta(seconds=cache_ttl_s)
        self._touch_after = timedelta(seconds=touch_interval_s)
        self._cache: dict[bytes, tuple[Principal, float]] = {}

    async def create(
        self,
        tenant: str,
        scopes: Iterable[Scope],
        user_id: str | None = None,
        name: str = "",
        trusts_openwebui_headers: bool = False,
    ) -> CreatedKey:
        """A new key for the tenant (optionally pinned to one user; optionally trusting Open
        WebUI's user and chat headers on the memory proxy); returns its token once."""
        granted = frozenset(scopes)
        if not tenant.strip():
            raise ValueError("tenant must not be empty")
        if not granted:
            raise ValueError("a key needs at least one scope")
        if user_id is not None and not user_id.strip():
            raise ValueError("user_id must not be empty when given")
        token = new_token()
        key = ApiKey(
            id=uuid.uuid4(),
            tenant=tenant,
            name=name,
            scopes=granted,
            created_at=self._clock(),
            user_id=user_id,
            trusts_openwebui_headers=trusts_openwebui_headers,
        )
        await self._keys.create(key, hash_token(token))
        return CreatedKey(key=key, token=token)

    async def list(self, tenant: str | None = None) -> list[ApiKey]:
        """Keys of a tenant (or all), revoked ones included; never their tokens."""
        return await self._keys.list(tenant)

    async def revoke(self, key_id: uuid.UUID) -> bool:
        """Revoke a key; it stops authenticating here immediately."""
        revoked = await self._keys.revoke(key_id, self._clock())
        self._cache = {h: e for h, e in self._cache.items() if e[0].key_id != key_id}
        return revoked

    async def revoke_by_prefix(self, prefix: str) -> ApiKey:
        """Revoke the one active key whose id starts with `prefix` (domain.auth.key_by_prefix)."""
        key = key_by_prefix(await self._keys.list(None), prefix)
        if not await self.revoke(key.id):
            raise KeyPrefixError(f"key {key.id} was revoked meanwhile")
        return key

    async def authenticate(self, token: str) -> Principal | None:
        """The principal for a bearer token, or None when it is unknown, malformed or revoked."""
        if not looks_like_token(token):
            return None
        token_hash = hash_token(token)
        now = self._clock()
        cached = self._cache.get(token_hash)
        if cached is not None and cached[1] > now.timestamp():
            return cached[0]
        key = await self._keys.find_active(token_hash, now, self._touch_after)
        if key is None:
            self._cache.pop(token_hash, None)
            return None
        principal = Principal(
            key_id=key.id, tenant=key.tenant, user_id=key.user_id, scopes=key.scopes,
            trusts_openwebui_headers=key.trusts_openwebui_headers,
        )
        if self._cache_ttl > timedelta(0):
            if len(self._cache) >= MAX_CACHE_ENTRIES:
                self._cache.clear()  # bounded memory; the next requests simply refill it
            self._cache[token_hash] = (principal, (now + self._cache_ttl).timestamp())
        return principal

