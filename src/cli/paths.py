"""A hint for data an earlier memlane left in the current directory (before XDG paths)."""

from __future__ import annotations

import os
from pathlib import Path

from memlane.cli.common import err

LEGACY_DATA_DIR = Path(".memlane") / "pgdata"
LEGACY_KEY = Path("memory_encryption.key")


def hint_legacy_data(cwd: Path | None = None) -> None:
    """Earlier releases kept the embedded database and the key in the current directory;
    they now live in $XDG_DATA_HOME/memlane. Finding the old ones here while the data dir
    is not set, say (on stderr, once) how to keep using them instead of a fresh database."""
    base = cwd or Path.cwd()
    if "MEMLANE_DATABASE__DATA_DIR" in os.environ:
        return
    if not (base / LEGACY_DATA_DIR / "PG_VERSION").is_file():
        return
    err.print(
        f"[yellow]memlane: note:[/] {base / LEGACY_DATA_DIR} holds a database of an earlier "
        "memlane; the default is now $XDG_DATA_HOME/memlane. To keep using it, set "
        f"MEMLANE_DATABASE__DATA_DIR={base / LEGACY_DATA_DIR} and "
        f"MEMLANE_MEMORY__ENCRYPTION_KEY_PATH={base / LEGACY_KEY} (or database.data_dir and "
        "memory.encryption_key_path in config.toml).",
        markup=True, highlight=False,
    )
