"""`memlane upgrade`: an older installation's data brought up to date in one command, by the
services of `memlane migrate`, `memlane seal-existing`, the topic index's backfill and
`memlane keys migrate`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractAsyncContextManager, contextmanager
from typing import Any

import click

from memlane.cli.common import EXIT_ERROR, err, run_async
from memlane.cli.progress import progress_bar, progress_option
from memlane.domain.errors import MemlaneError

AGAIN = "run `memlane upgrade` again"


@click.command(short_help="Bring the data of an older memlane up to date.")
@click.option("--dry-run", is_flag=True, help="Count what each step would touch; change nothing.")
@click.option("--batch-rows", default=500, show_default=True, type=click.IntRange(1, 100_000))
@progress_option
@run_async
async def upgrade(dry_run: bool, batch_rows: int, show_progress: bool | None) -> None:
    """Bring the data of an older memlane up to date, in order: apply the schema migrations;
    replay the erasure journal (owners erased since a restored backup are erased again); seal
    the tags, metadata, conversation ids and fact relations stored in plaintext
    (`seal-existing`); fill the topic index of memories stored before it (`topic-index`);
    store the levels of detail and traits of memories stored before them (`tiers`);
    re-seal version-1 ciphertexts under their owners' data keys (`keys migrate`). Each step
    works in committed batches: safe to stop and run again, and the service may keep running.
    Prints one line per step; a second run finds nothing. Exits 1 when something is left
    (ciphertexts that do not decrypt: see `memlane verify`)."""
    if dry_run:
        await _report_pending()
        return
    await _migrate()
    await _replay_erasures()
    left = await _seal(batch_rows, show_progress)
    await _index_topics(batch_rows, show_progress)
    await _fill_tiers(batch_rows, show_progress)
    unreadable = await _reseal(batch_rows, show_progress)
    if unreadable:
        err.print(
            f"[red]upgrade:[/] {unreadable} ciphertexts do not decrypt and were left as they "
            "are (version 1): `memlane verify` lists them, `memlane verify --quarantine` moves "
            f"the damaged memories aside; then {AGAIN}"
        )
    if left:
        err.print(
            f"[red]upgrade:[/] {left} memories were stored unsealed meanwhile, by a process of "
            f"an older memlane: restart it on this version, then {AGAIN}"
        )
    if unreadable or left:
        raise SystemExit(EXIT_ERROR)
    click.echo("upgrade: up to date")


@contextmanager
def _step(name: str) -> Iterator[None]:
    """A step that fails says which one, before the usual error line and exit code."""
    try:
        yield
    except MemlaneError:
        err.print(f"[red]upgrade:[/] {name} did not finish (the steps before it did); {AGAIN} "
                  "to resume")
        raise


async def _migrate() -> None:
    from memlane.composition.openers import open_database

    with _step("migrate"):
        async with open_database() as database:
            applied = database.applied_migrations
    click.echo(f"migrate: {len(applied)} migrations applied"
               + (f" ({', '.join(applied)})" if applied else ""))


async def _replay_erasures() -> None:
    """Before any other step reads the data: a database restored from before an erasure
    loses the erased owners again (it runs at every start too)."""
    from memlane.composition.openers import open_erasure_replay

    with _step("erasure-replay"):
        async with open_erasure_replay() as replay:
            report = await replay.replay()
    click.echo(f"erasure-replay: {report.erased} erased owners erased again "
               f"({report.memories} memories; {report.records} journal records, "
               f"{report.keys_checked} data keys checked)")


async def _seal(batch_rows: int, show_progress: bool | None) -> int:
    """Plaintext first: it is readable without any key, a version-1 ciphertext is not. The
    rows are sealed under their owners' data keys (version 2), so they add no work to the
    re-sealing step. Returns the memories still unsealed."""
    from memlane.composition.openers import open_legacy_sealer

    with _step("seal-existing"):
        async with open_legacy_sealer() as sealer:
            pending = await sealer.pending()
            with progress_bar("seal-existing", show_progress, pending.memories) as bar:
                report = await sealer.seal_existing(batch_rows=batch_rows, progress=bar.update)
    click.echo(
        f"seal-existing: {report.sealed + report.quarantined_sealed} memories sealed "
        f"({report.quarantined_sealed} of them quarantined), {report.relations_sealed} fact "
        "relations sealed"
    )
    return report.remaining


async def _index_topics(batch_rows: int, show_progress: bool | None) -> None:
    """After sealing (it opens the attributes either way): the memories stored before topic
    tokens were kept get theirs; until then the topic reads open them the old way."""
    from memlane.composition.openers import open_topic_indexer

    await _fill("topic-index", open_topic_indexer(), batch_rows, show_progress,
                "memories indexed by topic", "left out of topics, as before")


async def _fill_tiers(batch_rows: int, show_progress: bool | None) -> None:
    """The abstract, overview and traits a write would have given each older memory; until
    then the reads derive the tiers from the content (docs/levels.md)."""
    from memlane.composition.openers import open_tier_filler

    await _fill("tiers", open_tier_filler(), batch_rows, show_progress,
                "memories given their levels of detail", "left as they are")


async def _fill(
    name: str, opened: AbstractAsyncContextManager[Any], batch_rows: int,
    show_progress: bool | None, filled: str, unreadable: str,
) -> None:
    """A backfill step: what is pending, filled in committed batches with a progress bar."""
    with _step(name):
        async with opened as filler:
            pending = await filler.pending()
            with progress_bar(name, show_progress, pending) as bar:
                report = await filler.fill(batch_rows=batch_rows, progress=bar.update)
    click.echo(f"{name}: {report.filled} {filled}"
               + (f", {report.unreadable} unreadable ({unreadable})" if report.unreadable else ""))


async def _reseal(batch_rows: int, show_progress: bool | None) -> int:
    """Last, as the one step that can find damage: it holds up nothing else. Returns how
    many ciphertexts did not open."""
    from memlane.composition.openers import open_key_migration

    with _step("keys migrate"):
        async with open_key_migration() as migration:
            pending = await migration.pending()
            done: dict[str, int] = {}
            with progress_bar("keys migrate", show_progress, sum(pending.values())) as bar:

                def advance(column: str, count: int) -> None:
                    done[column] = count
                    bar.update(sum(done.values()))

                report = await migration.run(batch=batch_rows, progress=advance)
    if not pending:  # no columns at all: encryption is off
        click.echo("keys migrate: encryption is off, nothing to re-seal")
    else:
        click.echo(f"keys migrate: {report.total} ciphertexts re-sealed under data keys"
                   f"{_by_column(report.resealed)}, {report.unreadable} unreadable")
    return report.unreadable


async def _report_pending() -> None:
    """Counts only: no migration is applied and no row written. The data steps are counted
    on the current schema, so only once no migration is pending."""
    from memlane.composition.openers import (
        open_erasure_replay,
        open_key_migration,
        open_legacy_sealer,
        open_tier_filler,
        open_topic_indexer,
        pending_migrations,
    )

    migrations = await pending_migrations()
    click.echo(f"migrate: {len(migrations)} migrations pending"
               + (f" ({', '.join(migrations)})" if migrations else ""))
    if migrations:
        for step in ("erasure-replay", "seal-existing", "topic-index", "tiers", "keys migrate"):
            click.echo(f"{step}: counted once the migrations are applied "
                       "(`memlane migrate`, or any memlane start)")
        return
    async with open_erasure_replay(read_only=True) as replay:
        erasures = await replay.pending()
    click.echo(f"erasure-replay: {erasures.erased} erased owners to erase again "
               f"({erasures.records} journal records, {erasures.keys_checked} data keys checked)")
    async with open_legacy_sealer() as sealer:
        seal = await sealer.pending()
    async with open_topic_indexer() as indexer:
        untokened = await indexer.pending()
    async with open_tier_filler() as filler:
        untiered = await filler.pending()
    async with open_key_migration() as migration:
        keys = await migration.pending()
    click.echo(f"seal-existing: {seal.memories} memories and {seal.relations} fact relations "
               "to seal")
    click.echo(f"topic-index: {untokened} memories to index by topic")
    click.echo(f"tiers: {untiered} memories to give their levels of detail")
    if not keys:
        click.echo("keys migrate: encryption is off, nothing to re-seal")
    else:
        click.echo(f"keys migrate: {sum(keys.values())} version-1 ciphertexts to re-seal"
                   f"{_by_column(keys)}")


def _by_column(counts: Mapping[str, int]) -> str:
    """` (memory_content 3, memory_summary 3)`: the columns with something in them."""
    found = [f"{column} {count}" for column, count in counts.items() if count]
    return f" ({', '.join(found)})" if found else ""
