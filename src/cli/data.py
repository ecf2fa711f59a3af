"""`memlane export` / `memlane import`: a user's memories as NDJSON, out and back in."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any
from uuid import UUID

import click

from memlane.cli.common import EXIT_USAGE, err, run_async
from memlane.cli.progress import progress_bar, progress_option
from memlane.domain.errors import InvalidMemory
from memlane.domain.model import DEFAULT_TENANT, NewMemory, Owner
from memlane.domain.portable import memory_to_record, record_to_new_memory
from memlane.domain.portable_graph import MEMORY, check_graph_record, record_type

IMPORT_BATCH = 256
PROGRESS_STEP = 256  # memories between progress bar updates


@click.command()
@click.option("--tenant", default=DEFAULT_TENANT, show_default=True)
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
            ids = []
            async for memory in memlane.service.export(owner):
                out.write(json.dumps(memory_to_record(memory), ensure_ascii=False) + "\n")
                ids.append(memory.id)
                if len(ids) % PROGRESS_STEP == 0:
                    bar.update(len(ids))
            bar.update(len(ids))
            count = len(ids)
            # The graph follows the memories it joins (edges, entities and their mentions).
            async for record in memlane.service.export_graph(owner, ids):
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                links += 1
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


@click.command("import")
@click.option("--tenant", default=DEFAULT_TENANT, show_default=True)
@click.option("--user", "user_id", required=True, help="Whose memories these become.")
@click.argument("source", type=click.File("r", encoding="utf-8"), default="-")
@progress_option
@run_async
async def import_(
    tenant: str, user_id: str, source: IO[str], show_progress: bool | None
) -> None:
    """Store memories from NDJSON (as written by `memlane export`) for a user.

    The whole file is validated before anything is stored; similar memories
    merge as on any write.
    """
    from memlane.container import open_memlane

    items, exported, graph = _read_records(source)
    owner = Owner(tenant, user_id)
    stored = merged = 0
    ids: dict[UUID, UUID] = {}
    async with open_memlane() as memlane:
        with progress_bar("importing", show_progress, len(items)) as bar:
            for start in range(0, len(items), IMPORT_BATCH):
                results = await memlane.service.remember_many(
                    owner, items[start : start + IMPORT_BATCH]
                )
                stored += sum(not r.merged for r in results)
                merged += sum(r.merged for r in results)
                batch = exported[start : start + IMPORT_BATCH]
                for old, result in zip(batch, results, strict=True):
                    if old is not None:
                        ids[old] = result.memory.id
                bar.advance(len(results))
        edges, mentions = await memlane.service.import_graph(owner, graph, ids)
        facts = await memlane.service.import_facts(owner, graph, ids)
    click.echo(
        f"import: {stored} stored, {merged} merged into existing memories; "
        f"{edges} edges, {mentions} entity mentions, {facts} facts"
    )


def _read_records(
    source: IO[str],
) -> tuple[list[NewMemory], list[UUID | None], list[dict[str, Any]]]:
    """The memories, the ids they were exported with, and the graph records; every line
    is checked before anything is stored."""
    items: list[NewMemory] = []
    exported: list[UUID | None] = []
    graph: list[dict[str, Any]] = []
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise InvalidMemory("not a memlane export record: not an object")
            if record_type(record) == MEMORY:
                items.append(record_to_new_memory(record))
                exported.append(_exported_id(record))
            else:
                check_graph_record(record)
                graph.append(record)
        except (json.JSONDecodeError, InvalidMemory) as exc:
            err.print(f"[red]memlane: import: line {number}:[/] {exc}")
            raise SystemExit(EXIT_USAGE) from exc
    return items, exported, graph


def _exported_id(record: dict[str, Any]) -> UUID | None:
    try:
        return UUID(str(record["id"])) if record.get("id") else None
    except ValueError as exc:
        raise InvalidMemory(f"not a memlane export record: id {record['id']!r}") from exc
