"""`memlane export` / `memlane import`: a user's memories as NDJSON, out and back in."""

from __future__ import annotations

import json
from typing import IO

import click

from memlane.cli.common import EXIT_USAGE, err, run_async
from memlane.domain.errors import InvalidMemory
from memlane.domain.model import DEFAULT_TENANT, NewMemory, Owner
from memlane.domain.portable import memory_to_record, record_to_new_memory

IMPORT_BATCH = 256


@click.command()
@click.option("--tenant", default=DEFAULT_TENANT, show_default=True)
@click.option("--user", "user_id", required=True, help="Whose memories to export.")
@click.option(
    "--output",
    "-o",
    type=click.File("w", encoding="utf-8"),
    default="-",
    help="File to write (default: stdout).",
)
@run_async
async def export(tenant: str, user_id: str, output: IO[str]) -> None:
    """Write every memory of a user as NDJSON (plaintext: keep the file safe)."""
    from memlane.container import open_memlane

    count = 0
    async with open_memlane(load_model=False) as memlane:
        async for memory in memlane.service.export(Owner(tenant, user_id)):
            output.write(json.dumps(memory_to_record(memory), ensure_ascii=False) + "\n")
            count += 1
    err.print(f"export: {count} memories")


@click.command("import")
@click.option("--tenant", default=DEFAULT_TENANT, show_default=True)
@click.option("--user", "user_id", required=True, help="Whose memories these become.")
@click.argument("source", type=click.File("r", encoding="utf-8"), default="-")
@run_async
async def import_(tenant: str, user_id: str, source: IO[str]) -> None:
    """Store memories from NDJSON (as written by `memlane export`) for a user.

    The whole file is validated before anything is stored; similar memories
    merge as on any write.
    """
    from memlane.container import open_memlane

    items = _read_records(source)
    owner = Owner(tenant, user_id)
    stored = merged = 0
    async with open_memlane() as memlane:
        for start in range(0, len(items), IMPORT_BATCH):
            results = await memlane.service.remember_many(
                owner, items[start : start + IMPORT_BATCH]
            )
            stored += sum(not r.merged for r in results)
            merged += sum(r.merged for r in results)
    click.echo(f"import: {stored} stored, {merged} merged into existing memories")


def _read_records(source: IO[str]) -> list[NewMemory]:
    items: list[NewMemory] = []
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            items.append(record_to_new_memory(json.loads(line)))
        except (json.JSONDecodeError, InvalidMemory) as exc:
            err.print(f"[red]memlane: import: line {number}:[/] {exc}")
            raise SystemExit(EXIT_USAGE) from exc
    return items
