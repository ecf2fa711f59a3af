"""API keys, scopes and the principal a request acts as."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from memlane.domain.errors import MemlaneError


class Scope(StrEnum):
    """What a key may do. `admin` implies read and write and reaches every user of the key's
    tenant; `operator` implies all of them and reaches every tenant (created only by the CLI)."""

    READ = "memories:read"
    WRITE = "memories:write"
    ADMIN = "admin"
    OPERATOR = "operator"


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A stored key: never the token itself, only what it grants and its history.

    `user_id=None` means the key may act for any user of its tenant (it must name one).
    """

    id: UUID
    tenant: str
    name: str
    scopes: frozenset[Scope]
    created_at: datetime
    user_id: str | None = None
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None
    # The memory proxy may take the user and chat from Open WebUI's forwarded headers.
    trusts_openwebui_headers: bool = False

    @property
    def active(self) -> bool:
        return self.revoked_at is None


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a request acts as: a tenant, maybe a pinned user, and the granted scopes."""

    key_id: UUID | None
    tenant: str
    user_id: str | None
    scopes: frozenset[Scope]
    trusts_openwebui_headers: bool = False

    def allows(self, scope: Scope) -> bool:
        """Whether the principal holds the scope (admin holds read and write, operator all)."""
        if scope in self.scopes or Scope.OPERATOR in self.scopes:
            return True
        return Scope.ADMIN in self.scopes and scope is not Scope.OPERATOR

    @property
    def is_admin(self) -> bool:
        """Whether the key may act for every user of its tenant without naming one."""
        return self.allows(Scope.ADMIN)

    @property
    def is_operator(self) -> bool:
        """Whether the key may act across every tenant (maintenance, installation totals)."""
        return Scope.OPERATOR in self.scopes


def parse_scopes(names: object) -> frozenset[Scope]:
    """Scope names to scopes; raises ValueError naming the first unknown one."""
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list | tuple | set | frozenset):
        raise ValueError("scopes must be a list of names")
    result: set[Scope] = set()
    for name in names:
        try:
            result.add(Scope(name))
        except ValueError:
            valid = ", ".join(s.value for s in Scope)
            raise ValueError(f"unknown scope {name!r}; valid scopes: {valid}") from None
    return frozenset(result)


class KeyPrefixError(MemlaneError):
    """A key id prefix that names no active key, or more than one."""


class AmbiguousKeyPrefix(KeyPrefixError):
    """The prefix starts the ids of several active keys."""


def key_by_prefix(keys: Sequence[ApiKey], prefix: str) -> ApiKey:
    """The one active key whose id starts with `prefix` (case and hyphens ignored, as a
    user copies an id); raises KeyPrefixError for none, AmbiguousKeyPrefix for several."""
    wanted = prefix.strip().lower().replace("-", "")
    if not wanted:
        raise KeyPrefixError("give a key id or a prefix of one")
    found = [k for k in keys if k.revoked_at is None and k.id.hex.startswith(wanted)]
    if not found:
        raise KeyPrefixError(f"no active key starts with {prefix}")
    if len(found) > 1:
        listed = ", ".join(str(k.id) for k in found[:5])
        raise AmbiguousKeyPrefix(f"{prefix} starts {len(found)} active keys ({listed}); give more")
    return found[0]
