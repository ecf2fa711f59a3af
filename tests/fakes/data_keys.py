"""FakeDataKeys: an in-memory DataKeyPort with the adapter's rules (one key per owner, the
root only into an empty table, compare-and-set rewraps)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from memlane.domain.model import Owner
from memlane.domain.security.keyring import ROOT, WrappedKey
from memlane.ports.security.keyring import DataKeyPort


def _order(owner: Owner) -> tuple[str, str]:
    return owner.tenant, owner.user_id


class FakeDataKeys(DataKeyPort):
    def __init__(self) -> None:
        self.rows: dict[Owner, WrappedKey] = {}

    async def load(self, owners: Sequence[Owner]) -> list[WrappedKey]:
        return [self.rows[o] for o in dict.fromkeys(owners) if o in self.rows]

    async def create(self, keys: Sequence[WrappedKey]) -> list[WrappedKey]:
        empty = not self.rows
        for key in keys:
            if key.owner == ROOT and not empty:
                continue
            self.rows.setdefault(key.owner, key)
        return await self.load([k.owner for k in keys])

    async def destroy(self, owner: Owner) -> bool:
        return self.rows.pop(owner, None) is not None

    async def stale(self, master_id: str, after: Owner | None, limit: int) -> list[WrappedKey]:
        found = sorted(
            (k for k in self.rows.values()
             if k.master_id != master_id and (after is None or _order(k.owner) > _order(after))),
            key=lambda k: _order(k.owner),
        )
        return found[:limit]

    async def rewrap(self, keys: Sequence[WrappedKey], was: Sequence[str], now: datetime) -> int:
        changed = 0
        for key, old in zip(keys, was, strict=True):
            stored = self.rows.get(key.owner)
            if stored is not None and stored.id == key.id and stored.master_id == old:
                self.rows[key.owner] = replace(stored, master_id=key.master_id,
                                               envelope=key.envelope)
                changed += 1
        return changed
