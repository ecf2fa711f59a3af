"""The pipeline runner: stages in order, an early finish, closing stages, background work."""

from __future__ import annotations

import asyncio

import pytest

from memlane.service.retrieval.pipeline import Pipeline, Retrieval
from tests.unit.service.retrieval.stage_builders import request


class Note:
    """A stage that notes its name in the query's log."""

    def __init__(self, log: list[str], name: str, finish: bool = False) -> None:
        self._log, self._name, self._finish = log, name, finish

    async def __call__(self, r: Retrieval) -> None:
        self._log.append(self._name)
        if self._finish:
            r.finish()


async def test_stages_run_in_the_declared_order() -> None:
    log: list[str] = []
    await Pipeline([Note(log, "a"), Note(log, "b"), Note(log, "c")]).run(request())
    assert log == ["a", "b", "c"]


async def test_a_finished_retrieval_skips_the_stages_after_but_not_the_closing_ones() -> None:
    log: list[str] = []
    pipeline = Pipeline([Note(log, "a", finish=True), Note(log, "b")], closing=[Note(log, "z")])
    result = await pipeline.run(request())
    assert log == ["a", "z"] and result.finished


async def test_work_started_by_one_stage_is_awaited_by_a_later_one() -> None:
    async def start(r: Retrieval) -> None:
        r.start("answer", asyncio.sleep(0, result=42))

    seen: list[int] = []

    async def wait(r: Retrieval) -> None:
        seen.append(await r.result("answer", 0))
        seen.append(await r.result("never started", -1))

    await Pipeline([start, wait]).run(request())
    assert seen == [42, -1]


async def test_a_closing_stage_may_wait_for_work_started_before_the_retrieval_finished() -> None:
    async def start(r: Retrieval) -> None:
        r.start("answer", asyncio.sleep(0.01, result=42))
        r.finish()

    seen: list[int] = []

    async def close(r: Retrieval) -> None:
        seen.append(await r.result("answer", 0))

    await Pipeline([start], closing=[close]).run(request())
    assert seen == [42]


async def test_a_failing_stage_skips_the_closing_stages() -> None:
    log: list[str] = []

    async def fail(r: Retrieval) -> None:
        raise LookupError("failed")

    with pytest.raises(LookupError):
        await Pipeline([fail], closing=[Note(log, "z")]).run(request())
    assert log == []


async def test_work_nobody_waited_for_is_cancelled_when_the_pipeline_ends() -> None:
    started = asyncio.Event()
    cancelled = asyncio.Event()

    async def forever() -> None:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    async def start(r: Retrieval) -> None:
        r.start("slow", forever())
        await started.wait()

    async def give_up(r: Retrieval) -> None:
        r.finish()

    await asyncio.wait_for(Pipeline([start, give_up]).run(request()), timeout=5)
    assert cancelled.is_set()


async def test_a_failing_stage_raises_its_own_error_and_cancels_the_background_work() -> None:
    cancelled = asyncio.Event()

    async def doomed() -> None:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    async def start(r: Retrieval) -> None:
        r.start("doomed", doomed())
        await asyncio.sleep(0)

    async def fail(r: Retrieval) -> None:
        raise LookupError("the stage's own error")

    with pytest.raises(LookupError, match="own error"):
        await Pipeline([start, fail]).run(request())
    assert cancelled.is_set()


async def test_a_background_failure_no_stage_waited_for_is_not_raised() -> None:
    async def broken() -> None:
        raise RuntimeError("nobody asked")

    async def start(r: Retrieval) -> None:
        r.start("broken", broken())
        await asyncio.sleep(0)

    result = await Pipeline([start]).run(request())
    assert not result.finished
