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
    """Report what a replay of the erasure journal would erase (one JSON line per owner, kind
    `erasure_replay`; nothing is written). Decrypt every memory's, fact's and audit event's
    sealed fields; print one JSON line per damaged record (id, tenant, user, fields; facts
    and events with their kind) and a summary. Exits 1 while damaged records stay live (only
    memories can be quarantined)."""
    from memlane.composition.openers import open_erasure_replay, open_verifier

    async with open_erasure_replay(read_only=True) as replay:
        erasures = await replay.pending()  # read only: the next start (or upgrade) erases
    for owner in erasures.owners:
        click.echo(json.dumps({
            "kind": "erasure_replay", "tenant": owner.tenant, "user_id": owner.user_id,
        }))
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
        f"verify: erasure journal: {erasures.records} records, {erasures.keys_checked} data "
        f"keys checked, {erasures.erased} erased owners a replay would erase again "
        f"(at the next start, or `memlane upgrade`)"
        + (f", {erasures.damaged_lines} damaged lines" if erasures.damaged_lines else "")
    )
    err.print(
        f"verify: {report.checked} memories checked, {len(report.unreadable)} unreadable, "
        f"{report.quarantined} quarantined; {report.facts_checked} facts checked, "
        f"{len(report.unreadable_facts)} unreadable; {report.events_checked} audit events "
        f"checked, {len(report.unreadable_events)} unreadable"
    )
    if not report.clean:
        raise SystemExit(EXIT_ERROR)
