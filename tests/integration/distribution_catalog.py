"""The catalog read behind the owner-key tests: what stops a migrated schema from being
distributed by owner as docs/scaling.md plans (tables named in adapters/postgres/distribution.py
aside)."""

from __future__ import annotations

import re
from collections.abc import Mapping

import asyncpg

from memlane.adapters.postgres.distribution import (
    OWNER_KEY,
    OWNER_KEY_EXPRESSION,
    SHARED_TABLES,
    SharedTable,
)

# The schema's own tables: not the extensions' (pgvector has none today, Citus has some).
TABLES = """
SELECT c.oid, c.relname FROM pg_class AS c
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
  AND NOT c.relispartition
  AND NOT EXISTS (SELECT 1 FROM pg_depend AS d WHERE d.classid = 'pg_class'::regclass
                  AND d.objid = c.oid AND d.deptype = 'e')
"""
COLUMNS = """
SELECT a.attname, a.attgenerated::text, pg_get_expr(d.adbin, d.adrelid) AS expression
FROM pg_attribute AS a
LEFT JOIN pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped
"""
# Key columns only (not an index's INCLUDE columns); an expression's place is NULL.
UNIQUE_KEYS = """
SELECT x.relname AS name, array_agg(a.attname ORDER BY k.n) AS columns
FROM pg_index AS i
JOIN pg_class AS x ON x.oid = i.indexrelid
CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
LEFT JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
WHERE i.indrelid = $1 AND i.indisunique AND k.n <= i.indnkeyatts
GROUP BY x.relname
"""
FOREIGN_KEYS = """
SELECT conname,
       ARRAY(SELECT attname FROM pg_attribute WHERE attrelid = conrelid
             AND attnum = ANY(conkey)) AS columns,
       ARRAY(SELECT attname FROM pg_attribute WHERE attrelid = confrelid
             AND attnum = ANY(confkey)) AS referenced
FROM pg_constraint WHERE conrelid = $1 AND contype = 'f'
"""


async def _owner_table_problems(
    connection: asyncpg.Connection, name: str, oid: int
) -> list[str]:
    """What stops `name` from being distributed by the owner key, [] when nothing."""
    columns = {r["attname"]: r for r in await connection.fetch(COLUMNS, oid)}
    problems = []
    if OWNER_KEY not in columns:
        problems.append(f"{name} has no {OWNER_KEY} column")
    elif {"tenant", "user_id"} <= columns.keys() and (
        columns[OWNER_KEY]["attgenerated"] != "s"
        or columns[OWNER_KEY]["expression"] != OWNER_KEY_EXPRESSION
    ):
        problems.append(f"{name}.{OWNER_KEY} is not stored as {OWNER_KEY_EXPRESSION}")
    keys = await connection.fetch(UNIQUE_KEYS, oid)
    problems += [
        f"{name}: unique index {k['name']} {list(k['columns'])} lacks {OWNER_KEY}"
        for k in keys if OWNER_KEY not in k["columns"]
    ]
    if not keys:
        problems.append(f"{name} has no primary key")
    problems += [
        f"{name}: foreign key {f['conname']} lacks {OWNER_KEY} on one side"
        for f in await connection.fetch(FOREIGN_KEYS, oid)
        if OWNER_KEY not in f["columns"] or OWNER_KEY not in f["referenced"]
    ]
    return problems


async def distribution_problems(
    connection: asyncpg.Connection, shared: Mapping[str, SharedTable] = SHARED_TABLES
) -> list[str]:
    """Every reason the catalog could not be distributed by owner as docs/scaling.md plans."""
    tables = {r["relname"]: r["oid"] for r in await connection.fetch(TABLES)}
    problems = [f"{name} is listed as shared but does not exist" for name in shared
                if name not in tables]
    for name, oid in sorted(tables.items()):
        entry = shared.get(name)
        if entry is None:
            problems += await _owner_table_problems(connection, name, oid)
            continue
        if not entry.reason.strip():
            problems.append(f"{name} is listed as shared without a reason")
        names = {r["attname"] for r in await connection.fetch(COLUMNS, oid)}
        if {"tenant", "user_id"} <= names and not entry.owner_columns.strip():
            problems.append(f"{name} has tenant and user_id but is listed as shared "
                            "without saying why its rows are not an owner's")
    return problems


# An upsert's table and its ON CONFLICT columns, within one SQL text (a module constant or
# a function body): the arbiter must be exactly a unique index's columns.
_UPSERT = re.compile(
    r'INSERT INTO\s+(\w+)(?:(?!INSERT INTO|""").)*?ON CONFLICT\s*\(([^)]*)\)', re.S | re.I)
FUNCTION_BODIES = """
SELECT p.proname, p.prosrc FROM pg_proc AS p
WHERE p.pronamespace = current_schema()::regnamespace
"""


def upserts(text: str) -> list[tuple[str, frozenset[str]]]:
    return [(m.group(1), frozenset(c.strip() for c in m.group(2).split(",")))
            for m in _UPSERT.finditer(text)]


async def unmatched_arbiters(
    connection: asyncpg.Connection, sources: Mapping[str, str]
) -> list[str]:
    """Each ON CONFLICT (...) target in `sources` (name -> SQL text) and in the database's
    functions that names no unique index of its table."""
    texts = dict(sources)
    texts.update({f"function {r['proname']}": r["prosrc"]
                  for r in await connection.fetch(FUNCTION_BODIES)})
    tables = {r["relname"]: r["oid"] for r in await connection.fetch(TABLES)}
    problems = []
    for name, text in sorted(texts.items()):
        for table, columns in upserts(text):
            keys = [] if table not in tables else await connection.fetch(
                UNIQUE_KEYS, tables[table])
            if columns not in {frozenset(k["columns"]) for k in keys}:
                problems.append(f"{name}: ON CONFLICT ({', '.join(sorted(columns))}) "
                                f"matches no unique index of {table}")
    return problems
