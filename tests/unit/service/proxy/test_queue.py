"""The proxy's learning queue: bounded workers and length, drops counted, drained on stop."""

from __future__ import annotations

import asyncio

from memlane.domain.model import Owner
from memlane.service.proxy.memory import LearnJob
from memlane.service.proxy.queue import LearningQueue

OWNER = Owner("t", "u")


def job(conversation: str, turn: str = "1") -> LearnJob:
    return LearnJob(OWNER, conversation, turn, "question", "answer")


class Gate:
    """A learn function that records what runs and holds every job until opened."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.running = 0
        self.most = 0
        self.started = asyncio.Event()
        self.done: list[LearnJob] = []

    async def learn(self, item: LearnJob) -> None:
        self.running += 1
        self.most = max(self.most, self.running)
        self.started.set()
        try:
            await self.open.wait()
            self.done.append(item)
        finally:
            self.running -= 1


async def test_no_more_exchanges_are_learned_at_once_than_the_concurrency() -> None:
    gate = Gate()
    queue = LearningQueue(gate.learn, concurrency=2, max_queued=64)
    queue.start()
    for index in range(12):
        assert queue.submit(job(f"c{index}"))
    for _ in range(20):
        await asyncio.sleep(0)
    assert gate.running <= 2
    gate.open.set()
    await queue.stop()
    assert gate.most <= 2 and len(gate.done) == 12 and queue.stored == 12


async def test_a_full_queue_drops_and_counts_instead_of_waiting() -> None:
    gate = Gate()
    queue = LearningQueue(gate.learn, concurrency=1, max_queued=2)
    queue.start()
    queue.submit(job("a"))
    await gate.started.wait()  # the first is being learned; two more fit in the queue
    assert queue.submit(job("b")) and queue.submit(job("c"))
    assert not queue.submit(job("d"))
    assert queue.dropped == 1 and queue.depth == 2
    gate.open.set()
    await queue.stop()
    assert [j.conversation_id for j in gate.done] == ["a", "b", "c"]


async def test_stop_drains_what_is_queued_and_a_conversation_keeps_its_order() -> None:
    done: list[str] = []

    async def learn(item: LearnJob) -> None:
        await asyncio.sleep(0)
        done.append(item.turn)

    queue = LearningQueue(learn, concurrency=3, max_queued=30)
    queue.start()
    for turn in range(10):
        queue.submit(job("same", str(turn)))
    await queue.stop()
    assert done == [str(t) for t in range(10)] and queue.stored == 10


async def test_a_failing_exchange_is_counted_and_the_worker_goes_on() -> None:
    async def learn(item: LearnJob) -> None:
        if item.conversation_id == "bad":
            raise RuntimeError("database said no")

    queue = LearningQueue(learn, concurrency=1, max_queued=8)
    queue.start()
    queue.submit(job("bad"))
    queue.submit(job("good"))
    await queue.drained()
    assert (queue.failed, queue.stored) == (1, 1)
    await queue.stop()


async def test_what_cannot_drain_in_time_is_counted_as_dropped() -> None:
    gate = Gate()
    queue = LearningQueue(gate.learn, concurrency=1, max_queued=8, drain_timeout_s=0.01)
    queue.start()
    for name in "abc":
        queue.submit(job(name))
    await gate.started.wait()
    await queue.stop()  # the gate never opens
    assert queue.dropped == 2 and queue.stored == 0
