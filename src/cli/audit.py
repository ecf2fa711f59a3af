"""`memlane verify-audit`: check every audit chain and report breaks (exit 1 when broken)."""

from __future__ import annotations

import json
import sys

import click

from memlane.cli.common import EXIT_ERROR, run_async

SHOWN_BREAKS = 50


@click.command("verify-audit")
@click.option("--tenant", default=None, help="Only this tenant (default: every tenant).")
@click.option("--user", "user_id", default=None, help="Only this user.")
@run_async
async def verify_audit(tenant: str | None, user_id: str | None) -> None:
    """Check the hash chain of every owner's audit events; exit 0 intact, 1 broken."""
    from memlane.composition.openers import open_audit_log
    from memlane.service.security import verify_chains

    async with open_audit_log() as log:
        report = await verify_chains(log, tenant, user_id)
    summary = {
        "owners": report.owners,
        "events": report.events,
        "tombstones": report.tombstones,
        "broken": report.broken,
        "intact": report.intact,
    }
    click.echo(json.dumps(summary))
    for found in report.breaks[:SHOWN_BREAKS]:
        click.echo(
            f"broken: tenant={found.owner.tenant} user={found.owner.user_id} "
            f"seq={found.seq} event={found.event_id}: {found.reason}"
        )
    if report.broken > SHOWN_BREAKS:
        click.echo(f"... and {report.broken - SHOWN_BREAKS} more")
    if not report.intact:
        sys.exit(EXIT_ERROR)
