"""The response body of POST /v1/imports, mapped from the domain's ImportSummary."""

from __future__ import annotations

from dataclasses import asdict

import msgspec

from memlane.domain.portability import ImportSummary


class ImportSummaryOut(msgspec.Struct, kw_only=True):
    """What the import did. A repeated import answers messages_added 0 and every message
    under messages_known."""

    chats: int
    chats_added: int
    messages_added: int
    messages_known: int
    messages_shortened: int
    memories_added: int


def import_summary_out(summary: ImportSummary) -> ImportSummaryOut:
    return ImportSummaryOut(**asdict(summary))
