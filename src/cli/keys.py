"""`memlane keys`: create (prints the token alone), list and revoke API keys."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from memlane.cli.common import EXIT_ERROR, EXIT_USAGE, err, run_async, tenant_option
from memlane.domain.security import AmbiguousKeyPrefix, KeyPrefixError, Scope

DEFAULT_SCOPES = (Scope.READ.value, Scope.WRITE.value)
UNBOUNDED = 10_000  # columns to measure the table's natural width in


@click.group(short_help="Manage API keys, the master key and data keys.")
def keys() -> None:
    """Manage API keys (Bearer tokens for the /v1 API), the master key and data keys."""


@keys.command("create", short_help="Create a key and print its token.")
@tenant_option
@click.option(
    "--user",
    "user_id",
    default=None,
    help="Pin the key to this user (omit: the key may name any user of the tenant).",
)
@click.option(
    "--scope",
    "scopes",
    multiple=True,
    type=click.Choice([s.value for s in Scope]),
    help="Repeatable; default: memories:read and memories:write.",
)
@click.option("--name", default="", help="A label to recognise the key by.")
@click.option(
    "--trust-openwebui-headers",
    is_flag=True,
    help="Memory proxy: let Open WebUI's X-OpenWebUI-User-Id and -Chat-Id headers name the "
    "user and chat (an unpinned key behind one Open WebUI; docs/proxy.md).",
)
@run_async
async def create(
    tenant: str, user_id: str | None, scopes: tuple[str, ...], name: str,
    trust_openwebui_headers: bool,
) -> None:
    """Create a key and print its token, alone, on stdout (it is not stored: keep it)."""
    from memlane.composition.openers import open_keys

    try:
        async with open_keys() as service:
            created = await service.create(
                tenant, [Scope(s) for s in scopes or DEFAULT_SCOPES], user_id=user_id, name=name,
                trusts_openwebui_headers=trust_openwebui_headers,
            )
    except ValueError as exc:
        err.print(f"[red]memlane: keys create:[/] {exc}")
        raise SystemExit(EXIT_USAGE) from exc
    click.echo(created.token)
    pinned = f"user {user_id}" if user_id else "any user (must name one per request)"
    err.print(
        f"key {created.key.id} for tenant {tenant}, {pinned}, scopes: "
        + ", ".join(sorted(s.value for s in created.key.scopes))
        + (", trusts Open WebUI's user headers" if trust_openwebui_headers else "")
    )


@keys.command("list", short_help="List keys (never their tokens).")
@click.option("--tenant", default=None, help="Only this tenant.")
@click.option("--all-tenants", is_flag=True,
              help="Every tenant's keys; the scope when --tenant is not given.")
@run_async
async def list_(tenant: str | None, all_tenants: bool) -> None:
    """List keys (never their tokens), of every tenant or of one."""
    from memlane.composition.openers import open_keys

    if all_tenants and tenant:
        raise click.UsageError("--all-tenants covers every tenant: leave out --tenant")
    async with open_keys() as service:
        found = await service.list(tenant)
    table = Table("id", "tenant", "user", "scopes", "name", "created", "last used", "revoked")
    for key in found:
        table.add_row(
            str(key.id),
            key.tenant,
            (key.user_id or "*")
            + (" (Open WebUI headers)" if key.trusts_openwebui_headers else ""),
            " ".join(sorted(key.scopes)),
            key.name,
            f"{key.created_at:%Y-%m-%d %H:%M}",
            f"{key.last_used_at:%Y-%m-%d %H:%M}" if key.last_used_at else "-",
            f"{key.revoked_at:%Y-%m-%d %H:%M}" if key.revoked_at else "-",
        )
    console = Console()
    # Never narrower than the table: rich would cut the ids ("3f2a…") to fit a small
    # terminal, and a cut id cannot be revoked. Long lines wrap in the terminal instead.
    width = console.measure(table, options=console.options.update_width(UNBOUNDED)).maximum
    Console(width=max(console.width, width)).print(table)
    if tenant is None:
        err.print("memlane: that was every tenant (--tenant narrows it)")


@keys.command("revoke", short_help="Revoke a key by its id or a unique prefix.")
@click.argument("key_id")
@run_async
async def revoke(key_id: str) -> None:
    """Revoke a key by its id or a unique prefix of it (as `keys list` shows); it stops
    working at once here and within seconds elsewhere."""
    from memlane.composition.openers import open_keys

    try:
        async with open_keys() as service:
            key = await service.revoke_by_prefix(key_id)
    except AmbiguousKeyPrefix as exc:
        err.print(f"[red]memlane: keys revoke:[/] {exc}")
        raise SystemExit(EXIT_USAGE) from exc
    except KeyPrefixError as exc:
        err.print(f"[red]memlane: keys revoke:[/] {exc}")
        raise SystemExit(EXIT_ERROR) from exc
    click.echo(f"revoked {key.id}")
