"""Supersession chains in the fakes: where a survivor points once the memories or facts it
pointed at are deleted (the database's repoint triggers do the same)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID


def head_past(start: UUID | None, gone: Mapping[UUID, Any]) -> UUID | None:
    """`start` followed on along the deleted chain `gone` (items with `superseded_by`) to the
    first one that survives, or to the last deleted one that points nowhere."""
    head, seen = start, set()
    while head in gone and head not in seen:
        seen.add(head)
        following = gone[head].superseded_by
        if following is None:
            break
        head = following
    return head
