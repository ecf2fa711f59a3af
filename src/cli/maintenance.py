"""Maintenance commands: migrate, db-url, decay, cleanup, consolidate, backfill, reembed,
stats."""

from __future__ import annotations

import json

import click

from memlane.cli.common import reach_of, run_async, say_scope, scope_options
from memlane.cli.progress import progress_bar, progress_option


@click.command(short_help="Apply pending database migrations.")
@run_async
async def migrate() -> None:
    """Apply pending database migrations (also done automatically at start)."""
    from memlane.composition.openers import open_database

    async with open_database() as database:
        applied = database.applied_migrations
    click.echo(
        f"migrate: {len(applied)} migration(s) applied"
        + (f": {', '.join(applied)}" if applied else "")
    )


@click.command("db-url", short_help="Print the PostgreSQL DSN in use.")
@run_async
async def db_url() -> None:
    """Print the PostgreSQL DSN in use (starting the embedded server if needed)."""
    from memlane.composition.openers import resolve_database_url

    click.echo(await resolve_database_url())


@click.command(short_help="Materialise decayed importance now.")
@scope_options
@progress_option
@run_async
async def decay(
    tenant: str | None, user_id: str | None, all_tenants: bool, show_progress: bool | None
) -> None:
    """Materialise decayed importance now (idempotent); prints rows changed."""
    from memlane.container import open_memlane

    owner = reach_of(tenant, user_id, all_tenants)
    async with open_memlane(load_model=False) as memlane:
        # Over everyone it is one set-based statement: the bar runs (elapsed time) until it
        # returns, with no count to show before.
        with progress_bar("decay", show_progress if owner is None else False):
            changed = await memlane.service.decay(owner)
    click.echo(f"decay: {changed} memories updated")
    say_scope(owner)


@click.command(short_help="Delete the memories that have faded.")
@scope_options
@progress_option
@run_async
async def cleanup(
    tenant: str | None, user_id: str | None, all_tenants: bool, show_progress: bool | None
) -> None:
    """Delete unpinned memories at or below memory.min_importance (never one that carries a
    current fact of a single-valued relation); prints rows deleted."""
    from memlane.container import open_memlane

    owner = reach_of(tenant, user_id, all_tenants)
    async with open_memlane(load_model=False) as memlane:
        # Judged by each memory's importance now: no decay run needed first.
        with progress_bar("cleanup", show_progress if owner is None else False):
            deleted = await memlane.service.cleanup(owner)
    click.echo(f"cleanup: {deleted} memories deleted")
    say_scope(owner)


@click.command(short_help="Run the sleep cycle: merge, weave, prune.")
@scope_options
@click.option("--batch-size", type=click.IntRange(1, 100_000), default=1_000, show_default=True,
              help="Memories read per batch; each batch's progress is kept when it is done.")
@click.option("--budget", type=click.IntRange(1, None), default=None,
              help="Read at most this many memories; the next run goes on from there "
                   "(default: every memory pending).")
@progress_option
@run_async
async def consolidate(
    tenant: str | None, user_id: str | None, all_tenants: bool, batch_size: int,
    budget: int | None, show_progress: bool | None,
) -> None:
    """The sleep cycle over the memories written or edited since the last one: merge
    near-duplicates into consolidated memories (the originals stay as history), link
    conversation memories about the same name in time order, remove faded links. Resumable
    and idempotent; prints what it did as JSON."""
    from memlane.container import open_memlane
    from memlane.domain.reach import describe

    owner = reach_of(tenant, user_id, all_tenants)
    async with open_memlane() as memlane:  # with the model: a merged memory is embedded
        cycle = memlane.service.sleep
        pending = await cycle.pending(owner)
        total = pending if budget is None else min(pending, budget)
        with progress_bar("consolidate", show_progress, total) as bar:
            report = await cycle.run(owner, bar.advance, batch_size, budget)
    click.echo(json.dumps({"scope": describe(owner), **report.as_dict()}))
    say_scope(owner)


@click.command(short_help="Print memory counts as JSON.")
@scope_options
@run_async
async def stats(tenant: str | None, user_id: str | None, all_tenants: bool) -> None:
    """Print memory counts as JSON (one user, one tenant, or every tenant)."""
    from memlane.container import open_memlane

    reach = reach_of(tenant, user_id, all_tenants)
    async with open_memlane(load_model=False) as memlane:
        result = await memlane.service.stats(reach)
    click.echo(
        json.dumps(
            {
                "total": result.total,
                "by_type": dict(result.by_type),
                "with_embeddings": result.with_embeddings,
                "avg_importance": round(result.avg_importance, 4),
            }
        )
    )
    say_scope(reach)


@click.command(short_help="Embed memories stored without an embedding.")
@click.option("--batch-size", type=click.IntRange(1, 4096), default=256, show_default=True)
@progress_option
@run_async
async def backfill(batch_size: int, show_progress: bool | None) -> None:
    """Embed memories that were stored while the embedder was down."""
    from memlane.container import open_memlane

    async with open_memlane() as memlane:
        total = await _embed_all_missing(memlane, batch_size, show_progress)
    click.echo(f"backfill: {total} memories embedded")


@click.command(short_help="Embed every memory again after a model change.")
@click.option("--batch-size", type=click.IntRange(1, 4096), default=256, show_default=True)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@progress_option
@run_async
async def reembed(batch_size: int, yes: bool, show_progress: bool | None) -> None:
    """Drop every embedding and embed all memories again with the configured model.

    Needed after changing memory.embedding.model or dimension; the column is
    resized to the model's dimension.
    """
    from memlane.container import open_memlane

    if not yes:
        click.confirm("Re-embed every memory with the configured model?", abort=True, err=True)
    async with open_memlane(check_embeddings=False) as memlane:
        await memlane.reset_embeddings()
        total = await _embed_all_missing(memlane, batch_size, show_progress)
    click.echo(f"reembed: {total} memories embedded with {memlane.embedder.model}")


async def _embed_all_missing(  # type: ignore[no-untyped-def]
    memlane, batch_size: int, show_progress: bool | None
) -> int:
    """Backfill in batches until nothing is missing, with a progress bar on stderr."""
    current = await memlane.service.stats(None)
    missing = current.total - current.with_embeddings
    done = 0
    with progress_bar("embedding", show_progress, max(missing, 0)) as bar:
        while True:
            count = await memlane.service.backfill(batch_size)
            if count == 0:
                break
            done += count
            bar.update(done)
    return done
