"""Opaque pagination cursors: base64url of (created_at, id), the keyset position."""

from __future__ import annotations

import base64
import binascii
from datetime import datetime
from uuid import UUID

from memlane.domain.model import Cursor


class BadCursor(ValueError):
    """A cursor that this API did not issue (or that was mangled on the way)."""


def encode_cursor(cursor: Cursor) -> str:
    raw = f"{cursor.created_at.isoformat()}|{cursor.id}".encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def decode_cursor(text: str) -> Cursor:
    """The cursor behind the opaque string; raises BadCursor when it is not one of ours."""
    if len(text) > 200:
        raise BadCursor("cursor too long")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
        stamp, _, ident = raw.partition("|")
        created_at = datetime.fromisoformat(stamp)
        if created_at.tzinfo is None:
            raise ValueError("naive timestamp")
        return Cursor(created_at=created_at, id=UUID(ident))
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise BadCursor("malformed cursor; pass back next_cursor exactly as received") from exc
