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
from memlane.domain.reach import Reach, TenantReach
from memlane.domain.security import CLI
from memlane.service.security import acting_as

T = TypeVar("T")
err = Console(stderr=True, soft_wrap=True)

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_UNAVAILABLE = 69  # EX_UNAVAILABLE: database or embedder down
EXIT_PORT_IN_USE = 75  # EX_TEMPFAIL: serve's port is held by another process
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


def tenant_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """--tenant of a command that acts within one tenant: the default tenant unless named."""
    return click.option(
        "--tenant", default=DEFAULT_TENANT, show_default=True, help="The tenant acted within."
    )(func)


def scope_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--tenant, --user and --all-tenants of a command that can act on every tenant: it says
    so, and a --tenant it is given always narrows it (reach_of)."""
    func = click.option(
        "--all-tenants", is_flag=True,
        help="Every tenant and user; the scope when neither --tenant nor --user is given.",
    )(func)
    func = click.option(
        "--user", "user_id", default=None,
        help=f"Only this user (of --tenant, else of the tenant '{DEFAULT_TENANT}').",
    )(func)
    return click.option("--tenant", default=None, help="Only this tenant.")(func)


def reach_of(tenant: str | None, user_id: str | None, all_tenants: bool) -> Reach:
    """The scope the options name: one user, one tenant, or every tenant."""
    if all_tenants and (tenant or user_id):
        raise click.UsageError("--all-tenants covers every tenant: leave out --tenant and --user")
    if user_id:
        return Owner(tenant or DEFAULT_TENANT, user_id)
    if tenant:
        return TenantReach(tenant)
    return None


def say_scope(reach: Reach) -> None:
    """After the result, on stderr: a run over every tenant says so."""
    if reach is None:
        err.print("memlane: that was every tenant and user (--tenant or --user narrows it)")
