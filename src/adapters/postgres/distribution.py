"""Where each table goes when the schema is spread over Citus nodes (docs/scaling.md).

Every table holds one owner's rows, keyed by `owner_key` (migration 0230), except the ones
named here. This is the one place that says so: the catalog test
(tests/integration/test_postgres_distribution_keys.py) fails on any table outside this list
whose primary key or unique index lacks the owner key, and on any table in it that has the
owner columns without saying why they do not make it an owner's table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

OWNER_KEY = "owner_key"
OWNER_KEY_EXPRESSION = "memlane_owner_hash(tenant, user_id)"


class Placement(StrEnum):
    """How Citus holds a table that is not distributed by owner."""

    REFERENCE = "reference"  # create_reference_table: a copy on every node
    COORDINATOR = "coordinator"  # citus_add_local_table_to_metadata: on the coordinator only


@dataclass(frozen=True, slots=True)
class SharedTable:
    """A table not distributed by owner: where it goes and why."""

    placement: Placement
    reason: str
    # Set only for a table that has tenant and user_id columns: why its rows still are not
    # an owner's rows. The catalog test fails on such a table without it.
    owner_columns: str = ""


# Migration 0230 skipped these names when it keyed every table with tenant and user_id.
SHARED_TABLES: Mapping[str, SharedTable] = {
    "memlane_meta": SharedTable(
        Placement.REFERENCE,
        "installation facts (key fingerprint, embedding model and dimension), read by every "
        "node's checks and written at installation and upgrade only",
    ),
    "tenants": SharedTable(
        Placement.REFERENCE,
        "one small row per tenant, joined by every API key check; written when a key is made",
    ),
    "api_keys": SharedTable(
        Placement.COORDINATOR,
        "the key check runs on the coordinator before any owner is known, and as a reference "
        "table every last_used_at touch would be written on every node",
        owner_columns="a key is found by its token's hash, before any owner is known; its "
        "user_id only narrows whom the key may act for, and is NULL for a tenant-wide key",
    ),
    "schema_migrations": SharedTable(
        Placement.COORDINATOR,
        "the migration runner's ledger: migrations run on the coordinator, which passes "
        "their DDL on to the workers",
    ),
}
