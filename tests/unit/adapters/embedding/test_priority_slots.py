"""PrioritySlots: bounded concurrency where a waiting query goes before waiting documents."""

from __future__ import annotations

import asyncio

import pytest

from memlane.adapters.embedding.slots import DOCUMENT, QUERY, PrioritySlots


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def hold(slots: PrioritySlots, priority: int, name: str, log: list[str],
               release: asyncio.Event) -> None:
    async with slots.slot(priority):
        log.append(name)
        await release.wait()


async def test_no_more_than_size_holders_at_once_and_queries_jump_the_queue() -> None:
    slots = PrioritySlots(2)
    log: list[str] = []
    gates = {name: asyncio.Event() for name in ["d1", "d2", "d3", "d4", "q1", "q2"]}
    tasks = [asyncio.create_task(hold(slots, DOCUMENT, n, log, gates[n]))
             for n in ["d1", "d2", "d3", "d4"]]
    await settle()
    tasks += [asyncio.create_task(hold(slots, QUERY, n, log, gates[n])) for n in ["q1", "q2"]]
    await settle()
    assert log == ["d1", "d2"]
    gates["d1"].set()
    await settle()
    assert log == ["d1", "d2", "q1"]  # before d3, which waited longer
    gates["d2"].set()
    gates["q1"].set()
    await settle()
    assert log == ["d1", "d2", "q1", "q2", "d3"]
    for gate in gates.values():
        gate.set()
    await asyncio.gather(*tasks)
    assert log[-1] == "d4"


async def test_a_waiter_cancelled_before_its_turn_does_not_take_a_slot() -> None:
    slots = PrioritySlots(1)
    log: list[str] = []
    first, second, third = asyncio.Event(), asyncio.Event(), asyncio.Event()
    holder = asyncio.create_task(hold(slots, DOCUMENT, "a", log, first))
    await settle()
    gone = asyncio.create_task(hold(slots, QUERY, "gone", log, second))
    later = asyncio.create_task(hold(slots, DOCUMENT, "b", log, third))
    await settle()
    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone
    first.set()
    third.set()
    await asyncio.gather(holder, later)
    assert log == ["a", "b"]
    # Every slot came back: a new holder gets one at once.
    async with slots.slot(QUERY):
        log.append("c")
    assert log == ["a", "b", "c"]


async def test_idle_slots_are_taken_only_while_no_slot_is_held_and_nobody_waits() -> None:
    slots = PrioritySlots(2)
    async with slots.idle_slots(2) as taken:
        assert taken and not slots.idle
        log: list[str] = []
        release = asyncio.Event()
        waiter = asyncio.create_task(hold(slots, DOCUMENT, "d", log, release))
        await settle()
        assert log == []  # both slots are the idle query's
    await settle()
    assert log == ["d"]  # handed over when the query finished
    async with slots.idle_slots(2) as again:
        assert not again  # a document holds a slot: the query takes the ordinary way
    release.set()
    await waiter
    assert slots.idle


async def test_idle_slots_never_take_more_than_there_are() -> None:
    slots = PrioritySlots(1)
    async with slots.idle_slots(2) as taken:
        assert not taken and slots.idle
    async with slots.idle_slots(0) as none:
        assert not none
