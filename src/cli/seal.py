"""`memlane seal-existing`: seal the plaintext tags, metadata and conversation ids of memories
stored before they were sealed at rest (resumable, batched)."""

from __future__ import annotations

import click

from memlane.cli.common import err, run_async


@click.command("seal-existing", short_help="Seal what an older memlane stored in clear.")
@click.option("--batch-rows", default=500, show_default=True, type=click.IntRange(1, 100_000))
@run_async
async def seal_existing(batch_rows: int) -> None:
    """Seal the tags, metadata and conversation id of every memory stored before memlane
    sealed them, a committed batch at a time: safe to stop and run again, and the service
    may keep running. Afterwards the old values survive only in dead row versions and WAL
    until VACUUM and checkpoints recycle them (docs/security.md). `memlane upgrade` runs
    this too, with the migrations and `keys migrate`."""
    from memlane.composition.openers import open_legacy_sealer

    async with open_legacy_sealer() as sealer:
        report = await sealer.seal_existing(batch_rows=batch_rows)
    err.print(
        f"seal-existing: {report.sealed} memories, {report.quarantined_sealed} quarantined "
        f"rows and {report.relations_sealed} fact relations sealed, {report.remaining} "
        "memories left"
    )
