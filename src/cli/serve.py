"""`memlane serve`: the HTTP API under uvicorn, with the decay worker."""

from __future__ import annotations

import errno
import signal
import socket
import sys

import click

from memlane.cli.common import EXIT_ERROR, EXIT_PORT_IN_USE, err, exit_on_errors, run_async
from memlane.settings import Settings


@click.command(short_help="Start the HTTP API and the background decay worker.")
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
    from uvicorn.supervisors import Multiprocess

    host = host or settings.server.host
    port = settings.server.port if port is None else port
    workers = workers or settings.server.workers
    # Bound here, before anything starts: a busy port is one line and its own exit code, and
    # "listening" is said only once the socket is ours. uvicorn serves on it (every worker).
    sock = _bound(host, port)
    _preflight(settings)
    config = uvicorn.Config(
        "memlane.asgi:create_app", factory=True, host=host, port=port, workers=workers,
        log_level=settings.logging.level.lower(), access_log=False, lifespan="on",
    )
    click.echo(f"memlane listening on http://{host}:{port} (OpenAPI: http://{host}:{port}/schema)")
    if settings.auth.enabled:
        click.echo(
            "create an API key: .venv/bin/memlane keys create --tenant default --user <user_id>"
        )
    server = uvicorn.Server(config)
    try:
        if workers > 1:
            Multiprocess(config, sockets=[sock]).run()
            return
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn re-raises the SIGINT it shut down on: a clean stop
        return
    if not server.started:  # the app's startup failed (uvicorn logged why)
        sys.exit(EXIT_ERROR)


def _bound(host: str, port: int) -> socket.socket:
    """A listening-ready socket on host:port, or one line on stderr and an exit code."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            err.print(f"memlane: cannot listen on {host}:{port}: the port is in use; stop what "
                      "holds it or choose another port (--port, server.port)")
            sys.exit(EXIT_PORT_IN_USE)
        err.print(f"memlane: cannot listen on {host}:{port}: {exc.strerror or exc}")
        sys.exit(EXIT_ERROR)
    sock.set_inheritable(True)
    return sock


def _exit_on_sigterm(signum: int, frame: object) -> None:
    sys.exit(0)  # a requested stop; `finally` blocks and exit hooks run


@run_async
async def _preflight(settings: Settings) -> None:
    """Database, migrations, key and model dimension, checked before uvicorn starts: a
    problem is one clear line and exit code instead of a traceback from the app's lifespan."""
    from memlane.container import open_memlane

    async with open_memlane(settings, load_model=False):
        settings.proxy.upstream_key()  # an unreadable key file is a configuration error now
