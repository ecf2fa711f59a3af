"""Form and query input of the inspector turned into domain values, with readable refusals."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

from litestar.enums import RequestEncodingType
from litestar.params import Body

from memlane.domain.errors import InvalidMemory
from memlane.domain.model import MemoryFilter, MemoryPatch, MemoryType

MAX_QUERY_CHARS = 4096
# A posted HTML form, as handlers receive it.
Form = Annotated[dict[str, str], Body(media_type=RequestEncodingType.URL_ENCODED)]


def memory_type(value: str | None) -> MemoryType | None:
    """'' (any type) is None; an unknown name is refused."""
    if value is None or not value.strip():
        return None
    try:
        return MemoryType(value.strip())
    except ValueError:
        names = ", ".join(t.value for t in MemoryType)
        raise InvalidMemory(f"type must be one of {names}") from None


def importance(value: str | None) -> float | None:
    """'' is None; anything else must be a number within [0, 1]."""
    if value is None or not value.strip():
        return None
    try:
        number = float(value)
    except ValueError:
        raise InvalidMemory("importance must be a number between 0 and 1") from None
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise InvalidMemory("importance must be between 0 and 1")
    return number


def tags(value: str | None) -> tuple[str, ...]:
    """Comma-separated tags, blanks dropped (the service checks count and length)."""
    return tuple(t.strip() for t in (value or "").split(",") if t.strip())


def patch(form: Mapping[str, str]) -> MemoryPatch:
    """The edit form: content, type, tags and importance, each as the form shows it."""
    return MemoryPatch(
        content=form.get("content", ""),
        memory_type=memory_type(form.get("memory_type")),
        importance=importance(form.get("importance")),
        tags=tags(form.get("tags")),
    )


@dataclass(frozen=True, slots=True)
class ListQuery:
    """The list page's filters and search, as given and as the service takes them."""

    memory_type: str = ""
    tag: str = ""
    min_importance: str = ""
    q: str = ""
    current: str = ""  # "true": what holds, "false": what was replaced, "": both

    def filters(self) -> MemoryFilter:
        return MemoryFilter(
            memory_type=memory_type(self.memory_type),
            tag=self.tag.strip() or None,
            min_importance=importance(self.min_importance),
            current={"true": True, "false": False}.get(self.current.strip()),
        )

    def query(self) -> str | None:
        text = self.q.strip()
        if len(text) > MAX_QUERY_CHARS:
            raise InvalidMemory(f"a search has at most {MAX_QUERY_CHARS} characters")
        return text or None

    def as_params(self) -> dict[str, str]:
        """The non-empty parts, for links to other pages of the same list."""
        pairs = {"type": self.memory_type, "tag": self.tag,
                 "min_importance": self.min_importance, "q": self.q, "current": self.current}
        return {k: v for k, v in pairs.items() if v}
