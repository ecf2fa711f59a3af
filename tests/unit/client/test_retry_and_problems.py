"""The client's retry policy and problem+json mapping, against stub transports (no server)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from uuid import uuid4

import httpx
import pytest
from hypothesis import given, strategies as st

from memlane.client import (
    AsyncMemlaneClient,
    Forbidden,
    MemlaneClient,
    NotFound,
    RetryPolicy,
    ServiceUnavailable,
    Unauthorized,
)
from memlane.client.retry import parse_retry_after
from memlane.domain.errors import ConfigurationError, InvalidMemory, MemoryNotFound

PROBLEM = "application/problem+json"
STATS = {"total": 1, "by_type": {"fact": 1}, "with_embeddings": 1, "avg_importance": 0.5}


def problem(status: int, slug: str, detail: str = "no", **extra: object) -> httpx.Response:
    body = {"type": f"urn:memlane:problem:{slug}", "title": "t", "status": status,
            "detail": detail, **extra}
    return httpx.Response(status, json=body, headers={"content-type": PROBLEM})


def unavailable(retry_after: str | None = "0") -> httpx.Response:
    response = problem(503, "unavailable", "the database is unavailable; retry shortly")
    if retry_after is not None:
        response.headers["Retry-After"] = retry_after
    return response


class Script:
    """A stub server answering each request with the next scripted response."""

    def __init__(self, *answers: httpx.Response) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.answers.pop(0)


def sync_client(script: Script, retry: RetryPolicy | None = None) -> MemlaneClient:
    return MemlaneClient("http://stub", "ml_token", transport=httpx.MockTransport(script),
                         retry=retry or RetryPolicy(default_delay_s=0.0))


def test_a_503_is_retried_after_its_retry_after_until_the_server_answers() -> None:
    script = Script(unavailable(), unavailable(), httpx.Response(200, json=STATS))
    with sync_client(script) as client:
        assert client.stats().total == 1
    assert len(script.requests) == 3
    assert script.requests[0].headers["authorization"] == "Bearer ml_token"


async def test_the_async_client_retries_a_503_the_same_way() -> None:
    script = Script(unavailable(), httpx.Response(200, json=STATS))
    async with AsyncMemlaneClient("http://stub", transport=httpx.MockTransport(script),
                                  retry=RetryPolicy(default_delay_s=0.0)) as client:
        assert (await client.stats()).total == 1
    assert len(script.requests) == 2 and "authorization" not in script.requests[0].headers


def test_after_the_last_attempt_a_503_is_service_unavailable_with_its_problem() -> None:
    script = Script(unavailable(), unavailable(), unavailable())
    with sync_client(script, RetryPolicy(attempts=3)) as client, pytest.raises(
        ServiceUnavailable
    ) as raised:
        client.stats()
    assert len(script.requests) == 3
    assert raised.value.problem is not None and raised.value.problem.slug == "unavailable"


def test_a_retry_after_beyond_the_time_budget_is_not_waited_for() -> None:
    script = Script(unavailable("120"), httpx.Response(200, json=STATS))
    policy = RetryPolicy(max_total_s=5.0, max_delay_s=60.0)
    with sync_client(script, policy) as client, pytest.raises(ServiceUnavailable):
        client.stats()
    assert len(script.requests) == 1


def test_readiness_503_is_an_answer_not_a_retry() -> None:
    body = {"status": "unavailable", "checks": {"database": False, "embedder": True}}
    script = Script(httpx.Response(503, json=body, headers={"Retry-After": "0"}))
    with sync_client(script) as client:
        readiness = client.ready()
    assert not readiness.ready and readiness.checks["database"] is False
    assert len(script.requests) == 1


@pytest.mark.parametrize(
    ("answer", "error"),
    [
        (problem(401, "unauthorized", "invalid or revoked token"), Unauthorized),
        (problem(403, "forbidden", "this key lacks the 'memories:write' scope"), Forbidden),
        (problem(404, "not-found", "no such user within this key's reach"), NotFound),
        (problem(422, "validation", "bad limit", errors=[{"key": "limit"}]), InvalidMemory),
        (problem(400, "malformed-body", "the request body is not valid JSON"), InvalidMemory),
        (problem(500, "internal", "internal error"), ServiceUnavailable),
        (httpx.Response(502, text="<html>bad gateway</html>"), ServiceUnavailable),
    ],
)
def test_problems_are_raised_as_memlanes_exceptions(
    answer: httpx.Response, error: type[Exception]
) -> None:
    with sync_client(Script(answer)) as client, pytest.raises(error) as raised:
        client.stats()
    assert getattr(raised.value, "problem").status == answer.status_code  # noqa: B009


def test_auth_and_reach_errors_are_configuration_errors_like_the_adapter_raised() -> None:
    for status, slug in ((401, "unauthorized"), (403, "forbidden"), (404, "not-found")):
        with sync_client(Script(problem(status, slug))) as client, pytest.raises(
            ConfigurationError
        ):
            client.stats()


def test_a_missing_memory_is_memory_not_found_naming_it() -> None:
    memory_id = uuid4()
    answer = problem(404, "memory-not-found", "no such memory", memory_id=str(memory_id))
    with sync_client(Script(answer)) as client, pytest.raises(MemoryNotFound) as raised:
        client.get(memory_id=memory_id)
    assert raised.value.memory_id == str(memory_id)


def test_validation_problems_keep_the_servers_field_errors() -> None:
    answer = problem(422, "validation", "bad", errors=[{"key": "limit", "message": "1..200"}])
    with sync_client(Script(answer)) as client, pytest.raises(InvalidMemory) as raised:
        client.list(limit=1000)
    assert raised.value.problem.extensions["errors"][0]["key"] == "limit"  # type: ignore[attr-defined]


def test_an_unreachable_server_is_service_unavailable() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    stub = httpx.MockTransport(refuse)
    with MemlaneClient("http://stub", transport=stub) as client, pytest.raises(
        ServiceUnavailable
    ):
        client.health()


def test_retry_after_reads_seconds_and_http_dates() -> None:
    now = datetime(2030, 1, 1, tzinfo=UTC)
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(format_datetime(now + timedelta(seconds=30)), now) == 30.0
    assert parse_retry_after(format_datetime(now - timedelta(seconds=30)), now) == 0.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None


@given(
    retry_after=st.one_of(st.none(), st.integers(0, 10_000).map(str), st.text(max_size=5)),
    attempt=st.integers(1, 10),
    waited_s=st.floats(0, 100),
)
def test_a_wait_never_exceeds_the_cap_or_the_budget_or_the_attempts(
    retry_after: str | None, attempt: int, waited_s: float
) -> None:
    policy = RetryPolicy(attempts=4, max_total_s=30.0, default_delay_s=1.0, max_delay_s=10.0)
    delay = policy.delay_s(503, retry_after, attempt, waited_s)
    if delay is not None:
        assert 0.0 <= delay <= 10.0 and waited_s + delay <= 30.0 and attempt < 4
    assert policy.delay_s(500, retry_after, attempt, waited_s) is None


def test_a_retry_after_of_non_ascii_digits_is_ignored_not_an_error() -> None:
    assert parse_retry_after("²") is None
    assert parse_retry_after("٣") is None
