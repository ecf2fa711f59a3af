"""DataKeyPortContract: what every DataKeyPort (fake or PostgreSQL) does.

Subclass it and provide the fixtures `data_keys` (a DataKeyPort) and `owner` (fresh per
test). The root's rule (only into an empty table) is checked where the table is empty."""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import UTC, datetime
from uuid import uuid4

from memlane.domain.model import Owner
from memlane.domain.security.keyring import WrappedKey
from memlane.ports.security.keyring import DataKeyPort

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def wrapped(owner: Owner, master: str = "00aa00aa00aa00aa") -> WrappedKey:
    return WrappedKey(owner, uuid4(), master, os.urandom(81))


class DataKeyPortContract:
    async def test_a_created_key_loads_back_and_an_owner_without_one_loads_nothing(
        self, data_keys: DataKeyPort, owner: Owner
    ) -> None:
        key = wrapped(owner)
        assert await data_keys.create([key]) == [key]
        other = replace(owner, user_id=owner.user_id + "-other")
        assert await data_keys.load([owner, other]) == [key]

    async def test_creating_again_keeps_the_first_key_and_returns_it(
        self, data_keys: DataKeyPort, owner: Owner
    ) -> None:
        first, second = wrapped(owner), wrapped(owner)
        await data_keys.create([first])
        assert await data_keys.create([second]) == [first]
        assert await data_keys.load([owner]) == [first]

    async def test_destroying_a_key_deletes_only_that_owners_key(
        self, data_keys: DataKeyPort, owner: Owner
    ) -> None:
        other = replace(owner, user_id=owner.user_id + "-other")
        mine, theirs = wrapped(owner), wrapped(other)
        await data_keys.create([mine, theirs])
        assert await data_keys.destroy(owner)
        assert not await data_keys.destroy(owner)
        assert await data_keys.load([owner, other]) == [theirs]

    async def test_stale_lists_keys_of_other_masters_in_owner_order_after_a_cursor(
        self, data_keys: DataKeyPort, owner: Owner
    ) -> None:
        owners = [replace(owner, user_id=f"{owner.user_id}-{i}") for i in range(3)]
        keys = [wrapped(o, "11111111aaaaaaaa") for o in owners]
        keys[1] = wrapped(owners[1], "22222222bbbbbbbb")
        await data_keys.create(keys)
        start = Owner(owner.tenant, "")
        found = [k for k in await data_keys.stale("22222222bbbbbbbb", start, 100)
                 if k.owner.tenant == owner.tenant]
        assert found == [keys[0], keys[2]]
        after_first = await data_keys.stale("22222222bbbbbbbb", owners[0], 1)
        assert after_first == [keys[2]]

    async def test_a_rewrap_changes_only_keys_still_under_the_master_it_expects(
        self, data_keys: DataKeyPort, owner: Owner
    ) -> None:
        key = wrapped(owner, "11111111aaaaaaaa")
        await data_keys.create([key])
        moved = replace(key, master_id="33333333cccccccc", envelope=os.urandom(81))
        assert await data_keys.rewrap([moved], ["99999999ffffffff"], NOW) == 0
        assert await data_keys.load([owner]) == [key]
        assert await data_keys.rewrap([moved], ["11111111aaaaaaaa"], NOW) == 1
        assert await data_keys.load([owner]) == [moved]
        assert await data_keys.rewrap([moved], ["11111111aaaaaaaa"], NOW) == 0
