"""The portable form of an owner's facts: NDJSON records beside the memories, naming their
source memory and the fact that superseded them by exported ids."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts import Fact, FactType, InvalidFact, TimeSpan
from memlane.domain.portability.memories import FORMAT_VERSION

FACT = "fact"
RECORD_KEY = "record"  # the same key portable_graph reads


def _time(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _id(value: UUID | None) -> str | None:
    return None if value is None else str(value)


def fact_to_record(fact: Fact) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        RECORD_KEY: FACT,
        "id": str(fact.id),
        "subject": fact.subject,
        "relation": fact.relation,
        "object": fact.object,
        "fact_type": fact.fact_type.value,
        "time_span": fact.time_span.value,
        "confidence": fact.confidence,
        "user_fact_score": fact.user_fact_score,
        "source_memory": _id(fact.source_memory_id),
        "source_time": _time(fact.source_time),
        "valid_from": fact.valid_from.isoformat(),
        "valid_until": _time(fact.valid_until),
        "superseded_by": _id(fact.superseded_by),
        "created_at": fact.created_at.isoformat(),
        "updated_at": fact.updated_at.isoformat(),
    }


def _optional(record: Mapping[str, Any], key: str, parse: Any) -> Any:
    value = record.get(key)
    return None if value is None else parse(value)


def record_to_fact(
    record: Mapping[str, Any], new_id: UUID, memories: Mapping[UUID, UUID]
) -> Fact:
    """The fact under `new_id`, its source the memory the exported one became (None when
    that memory was not imported); `superseded_by` is left as exported (the caller maps
    it once every fact has its new id). InvalidMemory when malformed."""
    try:
        source = _optional(record, "source_memory", UUID)
        created = datetime.fromisoformat(record["created_at"])
        return Fact(
            id=new_id,
            subject=record["subject"], relation=record["relation"], object=record["object"],
            fact_type=FactType(record["fact_type"]), time_span=TimeSpan(record["time_span"]),
            confidence=float(record["confidence"]),
            user_fact_score=_optional(record, "user_fact_score", float),
            source_memory_id=None if source is None else memories.get(source),
            source_time=_optional(record, "source_time", datetime.fromisoformat),
            valid_from=datetime.fromisoformat(record["valid_from"]),
            valid_until=_optional(record, "valid_until", datetime.fromisoformat),
            superseded_by=_optional(record, "superseded_by", UUID),
            created_at=created,
            updated_at=datetime.fromisoformat(record.get("updated_at") or record["created_at"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError, InvalidFact) as exc:
        raise InvalidMemory(f"not a memlane fact record: {exc}") from exc


def exported_fact_id(record: Mapping[str, Any]) -> UUID:
    try:
        return UUID(str(record["id"]))
    except (KeyError, ValueError) as exc:
        raise InvalidMemory(f"not a memlane fact record: {exc}") from exc


def check_fact_record(record: Mapping[str, Any]) -> None:
    """Raise InvalidMemory when a fact record is malformed (ids unmapped)."""
    record_to_fact(record, exported_fact_id(record), {})
