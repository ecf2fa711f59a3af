"""Data in and out: the export/import records, chat exports, and rows of older schemas."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.domain.portability.chat_import import (
        IMPORT_ACTOR as IMPORT_ACTOR,
        SOURCE_KEY as SOURCE_KEY,
        TITLE_KEY as TITLE_KEY,
        ImportInProgress as ImportInProgress,
        ImportSummary as ImportSummary,
        keyed_messages as keyed_messages,
        plan_chat as plan_chat,
    )
    from memlane.domain.portability.chats import (
        CHAT_SOURCES as CHAT_SOURCES,
        ChatRole as ChatRole,
        ChatSource as ChatSource,
        ImportedChat as ImportedChat,
        ImportedMessage as ImportedMessage,
        ImportFormatError as ImportFormatError,
    )
    from memlane.domain.portability.facts import (
        FACT as FACT,
        exported_fact_id as exported_fact_id,
        fact_to_record as fact_to_record,
        record_to_fact as record_to_fact,
    )
    from memlane.domain.portability.graph import (
        EDGE as EDGE,
        ENTITY as ENTITY,
        MEMORY as MEMORY,
        PortableEntity as PortableEntity,
        check_graph_record as check_graph_record,
        edge_to_record as edge_to_record,
        entity_to_record as entity_to_record,
        record_to_edge as record_to_edge,
        record_to_entity as record_to_entity,
        record_type as record_type,
    )
    from memlane.domain.portability.history import (
        HISTORY_KEY as HISTORY_KEY,
        PortableEvent as PortableEvent,
        event_to_record as event_to_record,
        imported_payload as imported_payload,
        record_to_history as record_to_history,
    )
    from memlane.domain.portability.legacy_rows import (
        LegacyRelation as LegacyRelation,
        LegacyRow as LegacyRow,
        SealedRelation as SealedRelation,
        SealedRow as SealedRow,
        SealPending as SealPending,
        SealReport as SealReport,
    )
    from memlane.domain.portability.memories import (
        Restored as Restored,
        exported_id as exported_id,
        memory_to_record as memory_to_record,
        record_heat as record_heat,
        record_marker as record_marker,
        record_to_new_memory as record_to_new_memory,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "CHAT_SOURCES": "chats",
    "ChatRole": "chats",
    "ChatSource": "chats",
    "EDGE": "graph",
    "ENTITY": "graph",
    "FACT": "facts",
    "HISTORY_KEY": "history",
    "IMPORT_ACTOR": "chat_import",
    "ImportFormatError": "chats",
    "ImportInProgress": "chat_import",
    "ImportSummary": "chat_import",
    "ImportedChat": "chats",
    "ImportedMessage": "chats",
    "LegacyRelation": "legacy_rows",
    "LegacyRow": "legacy_rows",
    "MEMORY": "graph",
    "PortableEntity": "graph",
    "PortableEvent": "history",
    "Restored": "memories",
    "SOURCE_KEY": "chat_import",
    "SealPending": "legacy_rows",
    "SealReport": "legacy_rows",
    "SealedRelation": "legacy_rows",
    "SealedRow": "legacy_rows",
    "TITLE_KEY": "chat_import",
    "check_graph_record": "graph",
    "edge_to_record": "graph",
    "entity_to_record": "graph",
    "event_to_record": "history",
    "exported_fact_id": "facts",
    "exported_id": "memories",
    "fact_to_record": "facts",
    "imported_payload": "history",
    "keyed_messages": "chat_import",
    "memory_to_record": "memories",
    "plan_chat": "chat_import",
    "record_heat": "memories",
    "record_marker": "memories",
    "record_to_edge": "graph",
    "record_to_entity": "graph",
    "record_to_fact": "facts",
    "record_to_history": "history",
    "record_to_new_memory": "memories",
    "record_type": "graph",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
