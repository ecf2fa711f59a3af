"""`memlane verify`: check every ciphertext, list the damaged memories, quarantine them."""

from __future__ import annotations

import json

import click

from memlane.cli.common import EXIT_ERROR, err, run_async


@click.command(short_help="Decrypt everything sealed and list the damage.")
@click.option(
    "--quarantine",
    is_flag=True,
    help="Move the memories that do not decrypt into the quarantine table (kept whole).",
)
@click.option("--batch-rows", default=500, show_default=True, type=click.IntRange(1, 100_000))
@run_async
async def verify(quarantine: bool, batch_rows: int) -> None:
    """Decrypt every memory's, fact's and audit event's sealed fields; print one JSON line per
    damaged record (id, tenant, user, fields; facts and events with their kind) and a summary.
    Exits 1 while damaged records stay live (only memories can be quarantined)."""
    from memlane.composition.openers import open_verifier

    async with open_verifier() as verifier:
        report = await verifier.verify(batch_rows=batch_rows, quarantine=quarantine)
    for row in report.unreadable:
        click.echo(json.dumps({
            "id": str(row.memory_id), "tenant": row.owner.tenant, "user_id": row.owner.user_id,
            "fields": list(row.fields), "quarantined": quarantine,
        }))
    others = (("fact", report.unreadable_facts), ("audit_event", report.unreadable_events))
    for kind, rows in others:
        for row in rows:
            click.echo(json.dumps({
                "kind": kind, "id": str(row.memory_id), "tenant": row.owner.tenant,
                "user_id": row.owner.user_id, "fields": list(row.fields),
            }))
    err.print(
        f"verify: {report.checked} memories checked, {len(report.unreadable)} unreadable, "
        f"{report.quarantined} quarantined; {report.facts_checked} facts checked, "
        f"{len(report.unreadable_facts)} unreadable; {report.events_checked} audit events "
        f"checked, {len(report.unreadable_events)} unreadable"
    )
    if not report.clean:
        raise SystemExit(EXIT_ERROR)
