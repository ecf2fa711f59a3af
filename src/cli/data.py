"""`memlane export` / `memlane import`: a user's memories as NDJSON, out and back in."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import click

from memlane.cli.common import EXIT_USAGE, err, run_async, tenant_option
from memlane.cli.progress import progress_bar, progress_option
from memlane.domain.errors import InvalidMemory
from memlane.domain.model import Owner
from memlane.domain.portability import MEMORY, record_type

PROGRESS_STEP = 256  # memories between progress bar updates


@click.command(short_help="Write a user's data as NDJSON.")
@tenant_option
@click.option("--user", "user_id", required=True, help="Whose memories to export.")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    default="-",
    help="File to write, readable by you alone (mode 0600); default: stdout.",
)
@progress_option
@run_async
async def export(
    tenant: str, user_id: str, output: Path, show_progress: bool | None
) -> None:
    """Write every memory of a user as NDJSON (plaintext: keep the file safe)."""
    from memlane.container import open_memlane

    count = links = 0
    owner = Owner(tenant, user_id)
    async with open_memlane(load_model=False) as memlane:
        total = (await memlane.service.stats(owner)).total
        with _private_output(output) as out, progress_bar(
            "exporting", show_progress, total
        ) as bar:
            # Memories (with their histories) first, then the graph and the facts.
            async for record in memlane.service.export_records(owner):
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                if record_type(record) != MEMORY:
                    links += 1
                    continue
                count += 1
                if count % PROGRESS_STEP == 0:
                    bar.update(count)
            bar.update(count)
    err.print(f"export: {count} memories, {links} graph and fact records")


@contextmanager
def _private_output(path: Path) -> Iterator[IO[str]]:
    """stdout for '-', else the file created (or truncated) with mode 0600: an export is
    every memory in plaintext."""
    if str(path) == "-":
        yield sys.stdout
        return
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)  # an existing file keeps its mode through O_CREAT
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        yield file


@click.command("import", short_help="Restore a user's data from NDJSON.")
@tenant_option
@click.option("--user", "user_id", required=True, help="Whose memories these become.")
@click.argument("source", type=click.File("r", encoding="utf-8"), default="-")
@progress_option
@run_async
async def import_(
    tenant: str, user_id: str, source: IO[str], show_progress: bool | None
) -> None:
    """Restore memories from NDJSON (as written by `memlane export`) for a user.

    Memories, facts and their histories keep their exported ids; what the user already
    holds is skipped, so importing a file twice (or again after a failure) adds each
    thing once. The whole file is checked before anything is stored.
    """
    from memlane.container import open_memlane

    records = _read_records(source)
    owner = Owner(tenant, user_id)
    memories = sum(record_type(r) == MEMORY for r in records)
    async with open_memlane() as memlane:
        with progress_bar("importing", show_progress, memories) as bar:
            try:
                report = await memlane.service.import_records(owner, records, bar.advance)
            except InvalidMemory as exc:
                err.print(f"[red]memlane: import:[/] {exc}")
                raise SystemExit(EXIT_USAGE) from exc
    done = report.as_dict()
    click.echo(
        f"import: {done['memories_stored']} stored, {done['memories_skipped']} skipped "
        f"(already held); {done['edges']} edges, {done['mentions']} entity mentions, "
        f"{done['facts_stored']} facts stored, {done['facts_skipped']} skipped"
    )


def _read_records(source: IO[str]) -> list[dict[str, Any]]:
    """Every line as a JSON object; a line that is not one stops the import before anything
    is stored (the records themselves are checked by the service, all before storing)."""
    records: list[dict[str, Any]] = []
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise InvalidMemory("not a memlane export record: not an object")
            record_type(record)
        except (json.JSONDecodeError, InvalidMemory) as exc:
            err.print(f"[red]memlane: import: line {number}:[/] {exc}")
            raise SystemExit(EXIT_USAGE) from exc
        records.append(record)
    return records
