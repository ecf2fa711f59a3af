"""What the embedded PostgreSQL may write to its log: never a statement, parameter or value."""

from __future__ import annotations

import logging
from pathlib import Path

from memlane.adapters.postgres.buffer_cache import run_psql

_log = logging.getLogger(__name__)

# Each of these can put a caller's data into the server log: a logged statement or its bind
# parameters (log_statement, the duration and sample settings, log_parameter_max_length*),
# the statement of a failed command (log_min_error_statement), and the DETAIL, HINT, QUERY
# and CONTEXT lines of an error, which quote key values, rows, JSON input and PL/pgSQL
# variables (log_error_verbosity = terse keeps the message line alone). Even that line can
# quote input ('invalid input syntax for type integer: "..."'), so a client's errors and
# warnings are not logged at all (log_min_messages = log keeps the server's own LOG, FATAL and
# PANIC lines: start, stop, checkpoints); the client gets the error, and memlane's own log
# names its kind without the values. All are reloadable.
NO_VALUE_LOGGING: dict[str, str] = {
    "log_statement": "none",
    "log_duration": "off",
    "log_min_duration_statement": "-1",
    "log_min_duration_sample": "-1",
    "log_transaction_sample_rate": "0",
    "log_parameter_max_length": "0",
    "log_parameter_max_length_on_error": "0",
    "log_min_error_statement": "panic",
    "log_error_verbosity": "terse",
    "log_min_messages": "log",
    "log_replication_commands": "off",
    "debug_print_parse": "off",
    "debug_print_rewritten": "off",
    "debug_print_plan": "off",
}

_CURRENT = "SELECT string_agg(name || '=' || setting, ',' ORDER BY name) FROM pg_settings " \
    "WHERE name = ANY(string_to_array(:'names', ','))"


def quiet_server_log(psql: Path, dsn: str) -> None:
    """Set NO_VALUE_LOGGING (ALTER SYSTEM, so it holds at every later start) and reload;
    nothing is written when the server already has it."""
    names = ",".join(sorted(NO_VALUE_LOGGING))
    current = dict(
        item.split("=", 1) for item in run_psql(psql, dsn, _CURRENT, names=names).split(",")
    )
    stale = {k: v for k, v in NO_VALUE_LOGGING.items() if current.get(k) != v}
    if not stale:
        return
    statements = "".join(f"ALTER SYSTEM SET {name} = '{value}';\n" for name, value in stale.items())
    run_psql(psql, dsn, statements + "SELECT pg_reload_conf();")
    _log.info("embedded PostgreSQL: %d logging settings set so no value is logged", len(stale))
