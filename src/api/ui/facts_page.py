"""The inspector's facts: the "do not forget" profile, every fact, and the user's scores."""

from __future__ import annotations

import math
from typing import Annotated, Any
from urllib.parse import urlencode
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, QueryParameter

from memlane.api.cursor import decode_cursor, encode_cursor
from memlane.api.deps import MEMORIES, Memories
from memlane.api.ui.forms import Form
from memlane.api.ui.rendering import page, see_other
from memlane.api.ui.session import UI_PATH, WRITING, UiSession, current_session
from memlane.domain.errors import InvalidMemory
from memlane.domain.facts import MAX_USER_FACT_SCORE, FactFilter, FactPatch, FactType

FACTS_PATH = f"{UI_PATH}/facts"
PAGE_SIZE = 25
_HOLDING = {"true": True, "false": False, "all": None}


def _fact_type(value: str) -> FactType | None:
    try:
        return FactType(value) if value else None
    except ValueError:
        raise InvalidMemory(f"type must be one of {', '.join(FactType)}") from None


def score_patch(value: str | None) -> FactPatch:
    """The score form: blank removes the user's score, else a number 0-10."""
    text = (value or "").strip()
    if not text:
        return FactPatch(clear_score=True)
    try:
        score = float(text)
    except ValueError:
        raise InvalidMemory(f"a score is a number from 0 to {MAX_USER_FACT_SCORE:g}") from None
    if math.isnan(score):
        raise InvalidMemory(f"a score is a number from 0 to {MAX_USER_FACT_SCORE:g}")
    return FactPatch(user_fact_score=score)


class FactPagesController(Controller):
    """/ui/facts for the signed-in key's user."""

    path = FACTS_PATH
    include_in_schema = False
    dependencies = {"memories": MEMORIES, "session": Provide(current_session)}

    @get("/")
    async def facts(
        self,
        memories: Memories,
        session: NamedDependency[UiSession],
        fact_type: Annotated[str, QueryParameter(name="type", max_length=40)] = "",
        holding: Annotated[str, QueryParameter(name="current", max_length=5)] = "true",
        cursor: Annotated[str | None, QueryParameter(max_length=400)] = None,
        done: Annotated[str, QueryParameter(max_length=20)] = "",
    ) -> Response[Any]:
        """The profile as prompts get it, then the facts, newest first, with a score form."""
        try:
            service = memories.facts
        except InvalidMemory:  # this memlane runs without facts
            return page("facts.html", session, enabled=False)
        if holding not in _HOLDING:
            raise InvalidMemory("current must be true, false or all")
        filters = FactFilter(_fact_type(fact_type), _HOLDING[holding])
        position = decode_cursor(cursor) if cursor else None
        listed = await service.list(session.owner, filters, position, PAGE_SIZE)
        params = {k: v for k, v in (("type", fact_type), ("current", holding)) if v}
        next_link = (
            f"{FACTS_PATH}?{urlencode({**params, 'cursor': encode_cursor(listed.next_cursor)})}"
            if listed.next_cursor is not None else None
        )
        return page(
            "facts.html", session, enabled=True, profile=await service.profile(session.owner),
            facts=listed.items, types=list(FactType), fact_type=fact_type, holding=holding,
            next_link=next_link, first_link=f"{FACTS_PATH}?{urlencode(params)}" if cursor else None,
            done=done, max_score=MAX_USER_FACT_SCORE,
        )

    @post("/{fact_id:uuid}/score", status_code=303, dependencies=WRITING)
    async def score(
        self, fact_id: FromPath[UUID], data: Form, memories: Memories,
        session: NamedDependency[UiSession],
    ) -> Response[Any]:
        """Set the user's score (10: never forget, 0: wrong, hide it) or remove it."""
        await memories.facts.update(session.owner, fact_id, score_patch(data.get("score")))
        return see_other(f"{FACTS_PATH}?done=scored#fact-{fact_id}")
