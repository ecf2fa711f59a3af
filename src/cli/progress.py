"""Progress bars of long CLI jobs: on stderr, when it is a terminal or --progress asks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from memlane.cli.common import err


class Bar:
    """One task's bar; without a Progress (disabled) every call does nothing."""

    def __init__(self, progress: Progress | None, task: TaskID | None) -> None:
        self._progress = progress
        self._task = task

    def start(self, total: int) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, total=total)

    def advance(self, count: int) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, count)

    def update(self, completed: int) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, completed=completed)


def progress_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """--progress/--no-progress; unset, a bar shows when stderr is a terminal."""
    return click.option(
        "--progress/--no-progress",
        "show_progress",
        default=None,
        help="Show a progress bar on stderr (default: when stderr is a terminal).",
    )(func)


@contextmanager
def progress_bar(label: str, show: bool | None, total: int | None = None) -> Iterator[Bar]:
    """A bar on stderr for the block; stdout stays what the command prints (JSON, a count)."""
    if not (err.is_terminal if show is None else show):
        yield Bar(None, None)
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=False) as progress:
        yield Bar(progress, progress.add_task(label, total=total))
