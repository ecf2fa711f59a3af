"""`memlane import-chats`: ChatGPT or Claude chat history into a user's conversations."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import click
from rich.markup import escape

from memlane.cli.common import EXIT_USAGE, err, run_async, tenant_option
from memlane.cli.progress import progress_bar, progress_option
from memlane.domain.model import Owner
from memlane.domain.portability import CHAT_SOURCES, ChatSource, ImportFormatError
from memlane.domain.security import SYSTEM_IMPORT
from memlane.service.security import acting_as


@click.command("import-chats", short_help="Import a ChatGPT or Claude chat export.")
@click.option(
    "--format", "source", type=click.Choice(sorted(CHAT_SOURCES)), required=True,
    help="Whose export FILE is.",
)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@tenant_option
@click.option("--user", "user_id", required=True, help="Whose memories the chats become.")
@click.option(
    "--titles/--no-titles", default=True, show_default=True,
    help="Keep each chat's title in its memories' metadata (sealed, like all metadata).",
)
@progress_option
@run_async
async def import_chats(
    source: ChatSource, file: Path, tenant: str, user_id: str, titles: bool,
    show_progress: bool | None,
) -> None:
    """Import FILE (conversations.json, or the export zip as downloaded) for a user.

    Each chat becomes a conversation, each exchange one memory. The whole file is checked
    first (a malformed one exits 2, storing nothing); importing it again adds nothing.
    Prints a JSON summary on stdout.
    """
    from memlane.container import open_memlane

    owner = Owner(tenant, user_id)
    # The audit trail records the imported memories as done by the import, not by hand.
    async with open_memlane() as memlane:
        with progress_bar("importing chats", show_progress) as bar, acting_as(SYSTEM_IMPORT):
            try:
                summary = await memlane.imports.import_file(
                    owner, file, source, titles=titles, progress=bar
                )
            except ImportFormatError as exc:
                err.print(f"[red]memlane: import-chats: {escape(file.name)}:[/] {escape(str(exc))}")
                raise SystemExit(EXIT_USAGE) from exc
    click.echo(json.dumps(asdict(summary)))
