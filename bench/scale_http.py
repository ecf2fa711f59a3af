"""HTTP side of bench/scale.py: `memlane serve` as its own process and a loopback load generator."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
from bench.scale_stats import percentile

START_TIMEOUT_S = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`memlane serve` on 127.0.0.1 against the bench's data dir (the embedded server is shared)."""

    def __init__(self, data_dir: Path, key_path: Path, model: str | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._env = {
            **os.environ,
            "MEMLANE_DATABASE__DATA_DIR": str(data_dir),
            "MEMLANE_MEMORY__ENCRYPTION_KEY_PATH": str(key_path),
            # The daily decay worker would start a full decay 30 s in: not what is measured here.
            "MEMLANE_WORKER__ENABLED": "false",
            "MEMLANE_LOGGING__LEVEL": "WARNING",
            # The model the bench loaded its vectors for (unset: the default's).
            **({"MEMLANE_MEMORY__EMBEDDING__MODEL": model} if model else {}),
        }
        self._process: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        memlane = Path(sys.executable).with_name("memlane")
        # Popen returns at once (fork/exec); the wait for readiness below is async.
        self._process = subprocess.Popen(  # noqa: ASYNC220
            [str(memlane), "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            env=self._env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        async with httpx.AsyncClient() as client:
            while time.monotonic() < deadline:
                if self._process.poll() is not None:
                    raise RuntimeError(f"memlane serve exited with {self._process.returncode}")
                try:
                    if (await client.get(f"{self.url}/readyz", timeout=2)).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.25)
        raise RuntimeError("memlane serve did not become ready in time")

    @property
    def pid(self) -> int:
        assert self._process is not None
        return self._process.pid

    def peak_rss_mb(self) -> float:
        """VmHWM: the peak resident set of the server process so far."""
        assert self._process is not None
        for line in Path(f"/proc/{self._process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmHWM in /proc status")

    def stop(self) -> None:
        if self._process is None or self._process.poll() is not None:
            return
        self._process.send_signal(signal.SIGINT)
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


Request = Callable[[httpx.AsyncClient, int], Awaitable[httpx.Response]]


async def drive(
    url: str, token: str, request: Request, *, concurrency: int, duration_s: float
) -> dict[str, float]:
    """Closed-loop load: `concurrency` clients each send the next request as soon as the last
    one answered, for `duration_s`; latencies of successful answers only (failures raise)."""
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, limits=limits) as client:
        # Warm every connection and the server's caches before the clock starts.
        await asyncio.gather(*(request(client, i) for i in range(concurrency)))
        stop_at = time.perf_counter() + duration_s

        async def worker(offset: int) -> None:
            n = offset
            while time.perf_counter() < stop_at:
                started = time.perf_counter()
                response = await request(client, n)
                if response.status_code >= 400:
                    raise RuntimeError(f"HTTP {response.status_code}: {response.text[:200]}")
                latencies.append((time.perf_counter() - started) * 1000)
                n += concurrency

        started = time.perf_counter()
        await asyncio.gather(*(worker(i) for i in range(concurrency)))
        elapsed = time.perf_counter() - started
    return {
        "rps": round(len(latencies) / elapsed, 1),
        "p50_ms": round(percentile(latencies, 50), 2),
        "p99_ms": round(percentile(latencies, 99), 2),
        "requests": len(latencies),
    }


async def open_loop(
    url: str, token: str, request: Request, *, rate: float, duration_s: float, seed: int = 0
) -> dict[str, float]:
    """Open-loop load: Poisson arrivals at `rate` per second for `duration_s`, each request
    sent at its scheduled time whatever the ones before it are doing; latency counted from
    the scheduled send, so a server falling behind shows as queueing, not as a lower rate."""
    rng = random.Random(seed)
    latencies: list[float] = []
    failures = 0
    limits = httpx.Limits(max_connections=256, max_keepalive_connections=64)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, limits=limits,
                                 timeout=60) as client:
        async def one(n: int, due: float) -> None:
            nonlocal failures
            response = await request(client, n)
            if response.status_code >= 400:
                failures += 1
            else:
                latencies.append((time.perf_counter() - due) * 1000)

        tasks = []
        start = time.perf_counter()
        due, n = start, 0
        while (due := due + rng.expovariate(rate)) < start + duration_s:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            tasks.append(asyncio.create_task(one(n, due)))
            n += 1
        await asyncio.gather(*tasks)
    return {"rate": rate, "p50_ms": round(percentile(latencies, 50), 2),
            "p99_ms": round(percentile(latencies, 99), 2), "requests": len(latencies),
            "failures": failures}
