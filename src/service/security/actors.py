"""Who is acting: a per-task slot the API (its key), CLI or jobs fill, and the audit reads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from memlane.domain.security import IN_PROCESS, is_actor


@dataclass
class _Slot:
    actor: str


# A context variable: each request or task sees its own actor, no parameter crosses the
# domain. Unset, the caller is a host calling memlane in-process.
_CURRENT: ContextVar[_Slot | None] = ContextVar("memlane_actor", default=None)


@contextmanager
def acting_as(actor: str) -> Iterator[None]:
    """Record changes made inside as done by `actor` (nested: the inner one wins)."""
    if not is_actor(actor):
        raise ValueError(f"unknown actor {actor!r}")
    token = _CURRENT.set(_Slot(actor))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def become(actor: str) -> None:
    """Name the actor of the enclosing `acting_as` (the API learns the key after routing);
    outside any `acting_as` there is no slot to fill and the caller stays `in-process`."""
    if not is_actor(actor):
        raise ValueError(f"unknown actor {actor!r}")
    slot = _CURRENT.get()
    if slot is not None:
        slot.actor = actor


def current_actor() -> str:
    slot = _CURRENT.get()
    return IN_PROCESS if slot is None else slot.actor
