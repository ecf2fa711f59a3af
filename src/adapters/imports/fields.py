"""Typed reads of export JSON fields that fail with the field's position in the file."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, NoReturn

from memlane.domain.portability import ImportFormatError


def fail(where: str, problem: str) -> NoReturn:
    raise ImportFormatError(f"{where}: {problem}")


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def as_object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        fail(where, f"expected an object, got {_kind(value)}")
    return value


def as_list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        fail(where, f"expected a list, got {_kind(value)}")
    return value


def required(obj: Mapping[str, Any], key: str, where: str) -> object:
    if key not in obj:
        fail(where, f"{key} missing")
    return obj[key]


def required_str(obj: Mapping[str, Any], key: str, where: str) -> str:
    value = required(obj, key, where)
    if not isinstance(value, str) or not value:
        fail(where, f"{key} must be a non-empty string, got {_kind(value)}")
    return value


def optional_str(obj: Mapping[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        fail(where, f"{key} must be a string or null, got {_kind(value)}")
    return value


def required_object(obj: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    return as_object(required(obj, key, where), f"{where}: {key}")


def required_list(obj: Mapping[str, Any], key: str, where: str) -> list[Any]:
    return as_list(required(obj, key, where), f"{where}: {key}")


def optional_list(obj: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = obj.get(key)
    return [] if value is None else as_list(value, f"{where}: {key}")


def epoch_time(obj: Mapping[str, Any], key: str, where: str) -> datetime | None:
    """Seconds since the epoch (ChatGPT), or None when absent or null."""
    value = obj.get(key)
    if value is None:
        return None
    # bool is an int to Python, and json accepts NaN/Infinity: neither is a time.
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        fail(where, f"{key} must be seconds since the epoch or null, got {value!r}")
    try:
        return datetime.fromtimestamp(value, UTC)
    except (OverflowError, OSError, ValueError):
        fail(where, f"{key} {value!r} is out of range")


def iso_time(obj: Mapping[str, Any], key: str, where: str) -> datetime | None:
    """An ISO 8601 string (Claude), or None when absent or null.

    A time without an offset is taken as UTC: the exports write UTC ('Z'), and any other guess
    would depend on the machine doing the import."""
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        fail(where, f"{key} must be an ISO 8601 string or null, got {_kind(value)}")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        fail(where, f"{key} {value!r} is not an ISO 8601 time")
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def text_parts(parts: list[Any]) -> str:
    """The non-blank strings among parts, verbatim, joined by blank lines; other parts (images,
    files) are dropped."""
    return "\n\n".join(p for p in parts if isinstance(p, str) and p.strip())
