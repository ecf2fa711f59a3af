"""The `memlane` command: serve, migrate, upgrade, maintenance, keys, data, the model."""

from __future__ import annotations

import click

from memlane.cli import master_keys  # noqa: F401  (adds `keys rotate-master`, `keys migrate`)
from memlane.cli.audit import verify_audit
from memlane.cli.chats import import_chats
from memlane.cli.data import export, import_
from memlane.cli.keys import keys
from memlane.cli.maintenance import (
    backfill,
    cleanup,
    consolidate,
    db_url,
    decay,
    migrate,
    reembed,
    stats,
)
from memlane.cli.mcp import mcp
from memlane.cli.model import prepare_model
from memlane.cli.paths import hint_legacy_data
from memlane.cli.seal import seal_existing
from memlane.cli.serve import serve
from memlane.cli.upgrade import upgrade
from memlane.cli.verify import verify


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="memlane")
def main() -> None:
    """memlane: private long-term memory for AI assistants.

    Settings come from ./config.toml (or the file named by MEMLANE_CONFIG) and
    MEMLANE_* environment variables, e.g. MEMLANE_DATABASE__DATA_DIR. Data and key live in
    $XDG_DATA_HOME/memlane (~/.local/share/memlane) unless configured.
    """
    hint_legacy_data()


for command in (
    serve,
    migrate,
    upgrade,
    db_url,
    decay,
    cleanup,
    consolidate,
    backfill,
    reembed,
    stats,
    keys,
    export,
    import_,
    import_chats,
    prepare_model,
    verify,
    verify_audit,
    seal_existing,
    mcp,
):
    main.add_command(command)
