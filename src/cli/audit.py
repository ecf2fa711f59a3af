"""`memlane verify-audit`: check every audit chain and report breaks (exit 1 when broken)."""

from __future__ import annotations

import json
import sys

import click

from memlane.cli.common import EXIT_ERROR, reach_of, run_async, say_scope, scope_options
from memlane.domain.model import Owner

SHOWN_BREAKS = 50


@click.command("verify-audit", short_help="Check every owner's audit hash chain.")
@scope_options
@run_async
async def verify_audit(tenant: str | None, user_id: str | None, all_tenants: bool) -> None:
    """Check the hash chain of every owner's audit events; exit 0 intact, 1 broken."""
    from memlane.composition.openers import open_audit_log
    from memlane.service.security import verify_chains

    reach = reach_of(tenant, user_id, all_tenants)
    async with open_audit_log() as log:
        report = await verify_chains(
            log, None if reach is None else reach.tenant,
            reach.user_id if isinstance(reach, Owner) else None,
        )
    summary = {
        "owners": report.owners,
        "events": report.events,
        "tombstones": report.tombstones,
        "broken": report.broken,
        "intact": report.intact,
    }
    click.echo(json.dumps(summary))
    say_scope(reach)
    for found in report.breaks[:SHOWN_BREAKS]:
        click.echo(
            f"broken: tenant={found.owner.tenant} user={found.owner.user_id} "
            f"seq={found.seq} event={found.event_id}: {found.reason}"
        )
    if report.broken > SHOWN_BREAKS:
        click.echo(f"... and {report.broken - SHOWN_BREAKS} more")
    if not report.intact:
        sys.exit(EXIT_ERROR)
