"""CPU time of the processes that serve a request (bench/scale.py): this process or `memlane
serve`, and the embedded PostgreSQL's, read from /proc/<pid>/stat. Not the whole machine
(other work may share it) and not the load generator."""

from __future__ import annotations

import os
import re
from pathlib import Path

TICKS_PER_S = os.sysconf("SC_CLK_TCK")
# /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
STAT = re.compile(r"^\d+ \(.*\) (?P<rest>.*)$", re.S)


def _fields(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # exited meanwhile
        return None
    match = STAT.match(text)
    return match["rest"].split() if match else None


def cpu_ms(pid: int) -> float:
    """utime + stime of one process so far (0 once it has exited)."""
    fields = _fields(pid)
    # After the comm: state(0) ppid(1) ... utime(11) stime(12).
    return (int(fields[11]) + int(fields[12])) * 1000 / TICKS_PER_S if fields else 0.0


def postgres_pids(pgdata: Path) -> list[int]:
    """The postmaster (first line of postmaster.pid) and its children: backends, walwriter,
    checkpointer, autovacuum."""
    postmaster = int((pgdata / "postmaster.pid").read_text().split()[0])
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _fields(int(entry.name))
            if fields and int(fields[1]) == postmaster:
                children.append(int(entry.name))
    return [postmaster, *children]


class CpuMeter:
    """CPU of `service_pid` and of PostgreSQL, in ms, between `start()` and `stop()`."""

    def __init__(self, pgdata: Path, service_pid: int | None = None) -> None:
        self._pgdata = pgdata
        self._service = service_pid or os.getpid()
        self._before: dict[int, float] = {}
        self.service_ms = 0.0
        self.postgres_ms = 0.0

    def _sample(self) -> dict[int, float]:
        pids = [self._service, *postgres_pids(self._pgdata)]
        return {pid: cpu_ms(pid) for pid in pids}

    def start(self) -> None:
        self._before = self._sample()

    def stop(self) -> CpuMeter:
        after = self._sample()
        # A backend started meanwhile counts from 0; one that exited is lost (pool
        # connections stay open for the whole measurement).
        delta = {pid: ms - self._before.get(pid, 0.0) for pid, ms in after.items()}
        self.service_ms = delta.pop(self._service, 0.0)
        self.postgres_ms = sum(delta.values())
        return self

    @property
    def total_ms(self) -> float:
        return self.service_ms + self.postgres_ms
