"""`memlane serve`: the HTTP API under uvicorn, with the decay worker."""

from __future__ import annotations

import signal
import sys

import click

from memlane.cli.common import exit_on_errors, run_async
from memlane.settings import Settings


@click.command()
@click.option("--host", default=None, help="Interface to bind (default: server.host).")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=None, help="Port (default: server.port)."
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="Worker processes (default: server.workers).",
)
def serve(host: str | None, port: int | None, workers: int | None) -> None:
    """Start the HTTP API (and the background decay worker)."""
    from memlane.composition.openers import hold_database_server
    from memlane.settings import load_settings

    # uvicorn re-raises SIGTERM once it has shut down; with the default action the process
    # would die on the spot, skipping the release of the embedded server below.
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    with exit_on_errors():
        settings = load_settings()
        with hold_database_server(settings):
            _serve(settings, host, port, workers)


def _serve(settings: Settings, host: str | None, port: int | None, workers: int | None) -> None:
    import uvicorn

    _preflight(settings)
    host = host or settings.server.host
    port = settings.server.port if port is None else port
    workers = workers or settings.server.workers
    click.echo(f"memlane listening on http://{host}:{port} (OpenAPI: http://{host}:{port}/schema)")
    if settings.auth.enabled:
        click.echo(
            "create an API key: .venv/bin/memlane keys create --tenant default --user <user_id>"
        )
    uvicorn.run(
        "memlane.asgi:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=settings.logging.level.lower(),
        access_log=False,
        lifespan="on",
    )


def _exit_on_sigterm(signum: int, frame: object) -> None:
    sys.exit(0)  # a requested stop; `finally` blocks and exit hooks run


@run_async
async def _preflight(settings: Settings) -> None:
    """Database, migrations, key and model dimension, checked before uvicorn starts: a
    problem is one clear line and exit code instead of a traceback from the app's lifespan."""
    from memlane.container import open_memlane

    async with open_memlane(settings, load_model=False):
        settings.proxy.upstream_key()  # an unreadable key file is a configuration error now
