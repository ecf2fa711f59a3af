"""Shared plumbing of the CLI: async bodies, exit codes, owner options."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape

from memlane.domain.errors import (
    ConfigurationError,
    EmbeddingDimensionMismatch,
    EmbeddingModelMismatch,
    EmbeddingUnavailable,
    MemlaneError,
    StorageUnavailable,
    WrongEncryptionKey,
)
from memlane.domain.model import DEFAULT_TENANT, Owner
from memlane.domain.security import CLI
from memlane.service.security import acting_as

T = TypeVar("T")
err = Console(stderr=True, soft_wrap=True)

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_UNAVAILABLE = 69  # EX_UNAVAILABLE: database or embedder down
EXIT_CONFIG = 78  # EX_CONFIG: settings, key or model do not fit the data


@contextmanager
def exit_on_errors() -> Iterator[None]:
    """memlane errors in the block become one red line and a meaningful exit code."""
    try:
        yield
    except (StorageUnavailable, EmbeddingUnavailable) as exc:
        err.print(f"[red]memlane: unavailable:[/] {escape(str(exc))}")
        sys.exit(EXIT_UNAVAILABLE)
    except (
        ConfigurationError, WrongEncryptionKey, EmbeddingDimensionMismatch,
        EmbeddingModelMismatch,
    ) as exc:
        err.print(f"[red]memlane: configuration:[/] {escape(str(exc))}")
        sys.exit(EXIT_CONFIG)
    except MemlaneError as exc:
        err.print(f"[red]memlane:[/] {escape(str(exc))}")
        sys.exit(EXIT_ERROR)


def run_async(func: Callable[..., Coroutine[Any, Any, T]]) -> Callable[..., T]:
    """Run an async command body under exit_on_errors."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        with exit_on_errors(), acting_as(CLI):  # a command's changes are done by `cli`
            return asyncio.run(func(*args, **kwargs))

    return wrapper


def owner_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--tenant and --user; without --user a maintenance command covers every user."""
    func = click.option("--user", "user_id", default=None, help="Only this user.")(func)
    return click.option("--tenant", default=DEFAULT_TENANT, show_default=True)(func)


def owner_or_none(tenant: str, user_id: str | None) -> Owner | None:
    return Owner(tenant, user_id) if user_id else None
