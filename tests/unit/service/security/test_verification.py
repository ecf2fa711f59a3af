"""The Verifier: every sealed field of every owner checked in batches; only the damaged rows
are reported (id, owner, fields) and, when asked, quarantined."""

from __future__ import annotations

from dataclasses import replace

import pytest

from memlane.domain.model import Owner
from memlane.service.security.sealing import CONTENT, SUMMARY, Sealer, binding
from memlane.service.security.verification import Verifier
from tests.contract.builders import insert, stored
from tests.fakes.encryption import FakeEncryption
from tests.fakes.integrity import FakeIntegrity
from tests.fakes.keywords import FakeKeywords
from tests.fakes.memory_table import fake_memory_ports

BASE_RATE = 0.05


async def test_only_the_damaged_rows_are_reported_and_quarantined_across_batches() -> None:
    ports = fake_memory_ports(8)
    integrity = FakeIntegrity(ports.store._table)  # type: ignore[attr-defined]
    encryption = FakeEncryption()
    sealer = Sealer(encryption, FakeKeywords(), BASE_RATE)
    owners = [Owner("a", "ann"), Owner("a", "bob"), Owner("b", "ann")]
    rows = []
    for owner in owners:
        for index in range(3):
            row = stored(owner)
            rows.append(replace(
                row,
                content=encryption.seal(f"note {index}", binding(owner, row.id, CONTENT)),
                summary=encryption.seal(f"note {index}", binding(owner, row.id, SUMMARY)),
            ))
    flipped = bytes([rows[4].content[0] ^ 1]) + rows[4].content[1:]  # one bit of the envelope
    damaged = replace(rows[4], content=flipped)
    swapped = replace(rows[7], summary=rows[1].summary)  # another row's field: bound elsewhere
    await insert(ports.store, *rows[:4], damaged, *rows[5:7], swapped, *rows[8:])

    report = await Verifier(integrity, sealer).verify(batch_rows=2)
    assert report.checked == 9
    assert {(r.memory_id, r.owner, r.fields) for r in report.unreadable} == {
        (damaged.id, damaged.owner, ("content",)),
        (swapped.id, swapped.owner, ("summary",)),
    }
    assert report.quarantined == 0 and not report.clean

    moved = await Verifier(integrity, sealer).verify(batch_rows=4, quarantine=True)
    assert moved.quarantined == 2 and moved.clean
    assert {memory_id for _, memory_id in integrity.quarantined} == {damaged.id, swapped.id}
    again = await Verifier(integrity, sealer).verify()
    assert again.checked == 7 and again.unreadable == ()


async def test_a_batch_size_below_one_is_refused() -> None:
    ports = fake_memory_ports(8)
    verifier = Verifier(
        FakeIntegrity(ports.store._table),  # type: ignore[attr-defined]
        Sealer(FakeEncryption(), FakeKeywords(), BASE_RATE),
    )
    with pytest.raises(ValueError, match="batch_rows"):
        await verifier.verify(batch_rows=0)
