"""`memlane verify`: check every ciphertext, list the damaged memories, quarantine them."""

from __future__ import annotations

import json

import click

from memlane.cli.common import EXIT_ERROR, err, run_async


@click.command()
@click.option(
    "--quarantine",
    is_flag=True,
    help="Move the memories that do not decrypt into the quarantine table (kept whole).",
)
@click.option("--batch-rows", default=500, show_default=True, type=click.IntRange(1, 100_000))
@run_async
async def verify(quarantine: bool, batch_rows: int) -> None:
    """Decrypt every memory's sealed fields; print one JSON line per damaged memory (id,
    tenant, user, fields) and a summary. Exits 1 while damaged memories stay live."""
    from memlane.container import open_verifier

    async with open_verifier() as verifier:
        report = await verifier.verify(batch_rows=batch_rows, quarantine=quarantine)
    for row in report.unreadable:
        click.echo(json.dumps({
            "id": str(row.memory_id), "tenant": row.owner.tenant, "user_id": row.owner.user_id,
            "fields": list(row.fields), "quarantined": quarantine,
        }))
    err.print(
        f"verify: {report.checked} memories checked, {len(report.unreadable)} unreadable, "
        f"{report.quarantined} quarantined"
    )
    if not report.clean:
        raise SystemExit(EXIT_ERROR)
