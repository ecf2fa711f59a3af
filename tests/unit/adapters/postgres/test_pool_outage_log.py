"""asyncpg's reconnect warnings during an outage: one line, no traceback; a bug keeps its own."""

from __future__ import annotations

import logging

import pytest

from memlane.adapters.postgres import embedded, pool


def floor_warning(error: BaseException) -> logging.LogRecord:
    try:
        raise error
    except BaseException as raised:
        record = logging.LogRecord("asyncpg.pool", logging.WARNING, __file__, 1,
                                   "Failed to restore the pool connection floor; retrying",
                                   (), (type(raised), raised, raised.__traceback__))
    return record


@pytest.fixture
def no_embedded_watch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedded, "_watches", {})


def test_an_outage_is_one_line_a_minute_naming_the_error(no_embedded_watch: None) -> None:
    outage = pool._OneLineFloorWarnings(every_s=60)
    first = floor_warning(ConnectionRefusedError(111, "Connection refused"))
    assert outage.filter(first)
    assert first.exc_info is None and "ConnectionRefusedError" in first.getMessage()
    assert not outage.filter(floor_warning(ConnectionRefusedError(111, "again")))


def test_the_embedded_servers_watch_speaks_for_its_outages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(embedded, "_watches", {"somewhere": object()})
    assert not pool._OneLineFloorWarnings().filter(floor_warning(ConnectionResetError()))


def test_a_failure_that_is_not_an_outage_keeps_its_traceback(no_embedded_watch: None) -> None:
    bug = floor_warning(KeyError("not an outage"))
    assert pool._OneLineFloorWarnings().filter(bug)
    assert bug.exc_info is not None
