"""The schema migrations still to apply, read without applying them (`memlane upgrade
--dry-run`). An entry point like those of memlane.container, kept here while that module is
being restructured; it belongs beside `open_database` there."""

from __future__ import annotations

from memlane.settings import Settings, load_settings


async def pending_migrations(settings: Settings | None = None) -> list[str]:
    """The names of the migrations the next start (or `memlane migrate`) would apply."""
    from memlane.adapters.postgres.database import read_pending_migrations

    return await read_pending_migrations((settings or load_settings()).database)
