"""KeyringService: owners' data keys made ready (loaded, or created by a write) before use."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from memlane.domain.model import Owner
from memlane.domain.security import ROOT, KeyRef, UnknownMasterKey, WrappedKey
from memlane.ports.clock import Clock, system_clock
from memlane.ports.security import DataKeyPort, ErasureJournalPort, KeyringPort

P = ParamSpec("P")
R = TypeVar("R")


class KeyringService:
    """The EncryptionPort seals and opens synchronously with keys this service put in the
    keyring's cache. Reads make keys ready (`ready`: load, never create); a write makes its
    owner's key ready inside the owner's transaction (`ready_for_write`: checked against the
    row under the owner's lock, created if missing), so a key destroyed by an erasure in
    another process is never written under."""

    def __init__(
        self, store: DataKeyPort, keyring: KeyringPort, clock: Clock = system_clock,
        journal: ErasureJournalPort | None = None,
    ):
        self._store = store
        self._keyring = keyring
        self._clock = clock
        self._journal = journal

    @property
    def enabled(self) -> bool:
        return self._keyring.enabled

    def journal_erasures_in(self, journal: ErasureJournalPort | None) -> KeyringService:
        """From now on a destroyed key is recorded in `journal` first (the composition
        attaches it once the master key has been checked)."""
        self._journal = journal
        return self

    async def start(self) -> None:
        """Load (or, on an installation without data keys, create) the root key."""
        if not self.enabled:
            return
        found = await self._store.load([ROOT]) or await self._store.create(
            [self._keyring.mint(ROOT)]
        )
        if not found:
            raise RuntimeError(
                "the root key row of data_keys (the empty owner) is gone while other data keys "
                "exist: blind indexes and version-1 envelopes cannot be opened without it. "
                "Restore it from a backup"
            )
        await self._install(found, ())

    async def ready(self, owners: Sequence[Owner]) -> None:
        """Cache these owners' keys, or that they have none; one query for all the missing."""
        began = self._clock()
        missing = self._keyring.missing(owners, began)
        if not missing:
            return
        found = await self._store.load(missing)
        have = {k.owner for k in found}
        # Stamped with when the load began: a key a concurrent write creates meanwhile is
        # newer than this load's "none" and is kept.
        await self._install(found, [o for o in missing if o not in have], began)

    async def ready_for_write(self, owners: Sequence[Owner]) -> None:
        """Inside the owners' write transaction (or a batch job): the stored key, created now
        if there is none, replaces whatever the cache held."""
        if not self.enabled or not owners:
            return
        found = await self._store.load(owners)
        have = {k.owner for k in found}
        if lacking := [o for o in dict.fromkeys(owners) if o not in have]:
            found += await self._store.create([self._keyring.mint(o) for o in lacking])
        await self._install(found, ())

    async def destroy(self, owner: Owner) -> bool:
        """Delete the owner's key (inside the erasure's transaction): whatever was sealed
        under it, in backups and old WAL too, no longer opens. With a journal, the key's id is
        recorded there first, durably: a database restored from before this erasure is
        erased again at its next start (service/security/erasure.py)."""
        if not self.enabled:
            return False
        if self._journal is not None:
            for key in await self._store.load([owner]):
                await self._journal.record(KeyRef(owner, key.id))
        destroyed = await self._store.destroy(owner)
        self._keyring.forget(owner)
        return destroyed

    async def _install(
        self, keys: Sequence[WrappedKey], absent: Sequence[Owner], at: datetime | None = None
    ) -> None:
        at = self._clock() if at is None else at
        try:
            self._keyring.install(keys, absent, at)
        except UnknownMasterKey:
            # A rotation wrapped them by the new master: read its key file, once, off the loop.
            await asyncio.to_thread(self._keyring.refresh)
            self._keyring.install(keys, absent, at)


class HasKeyring(Protocol):
    """A service whose entry points make the owner's key ready (None: no keys in play)."""

    _keyring: KeyringService | None


S = TypeVar("S", bound=HasKeyring)


def keyed(
    method: Callable[Concatenate[S, Owner, P], Awaitable[R]],
) -> Callable[Concatenate[S, Owner, P], Awaitable[R]]:
    """An entry point taking the owner first: its key is ready before the body runs."""

    @functools.wraps(method)
    async def call(self: S, owner: Owner, *args: P.args, **kwargs: P.kwargs) -> R:
        if self._keyring is not None:
            await self._keyring.ready([owner])
        return await method(self, owner, *args, **kwargs)

    return call


def keyed_stream(
    method: Callable[Concatenate[S, Owner, P], AsyncIterator[R]],
) -> Callable[Concatenate[S, Owner, P], AsyncIterator[R]]:
    """`keyed` for an async generator (an export streamed)."""

    @functools.wraps(method)
    async def call(self: S, owner: Owner, *args: P.args, **kwargs: P.kwargs) -> AsyncIterator[R]:
        if self._keyring is not None:
            await self._keyring.ready([owner])
        async for item in method(self, owner, *args, **kwargs):
            yield item

    return call


def owners_of(rows: Sequence[Any]) -> list[Owner]:
    """The distinct owners of rows carrying an `owner` (batch jobs make them ready at once)."""
    return list(dict.fromkeys(r.owner for r in rows))
