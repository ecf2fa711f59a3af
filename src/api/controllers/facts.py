"""A user's facts (/v1/facts), the "do not forget" profile (/v1/profile), topics (/v1/topics)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, Parameter, QueryParameter
from litestar.status_codes import HTTP_201_CREATED

from memlane.api.config import ApiConfig
from memlane.api.cursor import decode_cursor, encode_cursor
from memlane.api.deps import MEMORIES, OWNER, Memories, owner_from_body
from memlane.api.fact_schemas import (
    FactIn,
    FactOut,
    FactPageOut,
    FactPatchIn,
    ProfileOut,
    TopicDetailOut,
    TopicsOut,
    fact_out,
    profile_out,
    to_fact_patch,
    to_new_fact,
    topic_detail_out,
    topic_out,
)
from memlane.api.openapi import FACT_UNREADABLE
from memlane.api.params import (
    CURRENT,
    ERRORS,
    READ,
    WRITE,
    CurrentParam,
    CursorParam,
    PageLimitParam,
    aliased,
    bounded_limit,
)
from memlane.domain.facts import FactFilter, FactType
from memlane.domain.model import Owner
from memlane.service.facts import DEFAULT_TOPICS, MAX_TOPICS


class FactsController(Controller):
    """Facts read from a user's memories or stated directly; subject and object sealed."""

    path = "/v1/facts"
    tags = ["facts"]
    dependencies = {"memories": MEMORIES, "owner": OWNER}

    @get("/", operation_id="listFacts", opt=READ, raises=ERRORS)
    async def list_facts(
        self,
        memories: Memories,
        owner: NamedDependency[Owner],
        config: NamedDependency[ApiConfig],
        fact_type: Annotated[
            FactType | None, Parameter(description="Only this fact type.")
        ] = None,
        type_alias: Annotated[FactType | None, QueryParameter(
            name="type", description="Deprecated: `fact_type` (removed in the next release)."
        )] = None,
        current: CurrentParam = "true",
        cursor: CursorParam = None,
        limit: PageLimitParam = None,
    ) -> FactPageOut:
        """List a user's facts, newest first, with keyset pagination (`current` true by
        default: the facts that hold now)."""
        size = bounded_limit(limit, config.default_page_limit, config.max_page_limit)
        position = decode_cursor(cursor) if cursor else None
        chosen = aliased("fact_type", fact_type, "type", type_alias)
        page = await memories.facts.list(
            owner, FactFilter(chosen, CURRENT[current]), position, size
        )
        return FactPageOut(
            items=[fact_out(f) for f in page.items],
            next_cursor=encode_cursor(page.next_cursor) if page.next_cursor else None,
        )

    @post("/", operation_id="stateFact", opt=WRITE, raises=ERRORS, status_code=HTTP_201_CREATED,
          dependencies={"owner": owner_from_body(FactIn)})
    async def state_fact(
        self, data: JSONBody[FactIn], memories: Memories, owner: NamedDependency[Owner]
    ) -> FactOut:
        """State a fact directly (subject defaults to the user). A functional relation's new
        object supersedes the current fact; a fact that already holds is returned as is."""
        return fact_out(await memories.facts.state(owner, to_new_fact(data)))

    @get("/{fact_id:uuid}", operation_id="getFact", opt=READ, raises=ERRORS,
         responses={409: FACT_UNREADABLE})
    async def get_fact(
        self, fact_id: FromPath[UUID], memories: Memories, owner: NamedDependency[Owner]
    ) -> FactOut:
        """One fact (404 when it is not this user's)."""
        return fact_out(await memories.facts.get(owner, fact_id))

    @patch("/{fact_id:uuid}", operation_id="updateFact", opt=WRITE, raises=ERRORS,
           responses={409: FACT_UNREADABLE})
    async def update_fact(
        self,
        fact_id: FromPath[UUID],
        data: JSONBody[FactPatchIn],
        memories: Memories,
        owner: NamedDependency[Owner],
    ) -> FactOut:
        """Edit object, type, time span or user_fact_score (0-10; null removes it)."""
        return fact_out(await memories.facts.update(owner, fact_id, to_fact_patch(data)))

    @delete("/{fact_id:uuid}", operation_id="deleteFact", opt=WRITE, raises=ERRORS)
    async def delete_fact(
        self, fact_id: FromPath[UUID], memories: Memories, owner: NamedDependency[Owner]
    ) -> None:
        """Delete a fact (204): a person's delete, so a fact it had superseded holds again."""
        await memories.facts.delete(owner, fact_id)


class ProfileController(Controller):
    """The user's "do not forget" profile, derived from their current facts at read time."""

    path = "/v1/profile"
    tags = ["facts"]
    dependencies = {"memories": MEMORIES, "owner": OWNER}

    @get("/", operation_id="getProfile", opt=READ, raises=ERRORS)
    async def profile(self, memories: Memories, owner: NamedDependency[Owner]) -> ProfileOut:
        """Current facts by type (identity, commitment, constraint, preference, trait,
        event), ranked by user_fact_score then confidence x importance, capped per tier."""
        return profile_out(await memories.facts.profile(owner))


class TopicsController(Controller):
    """Topics of a user's memories (tags, imported chats' titles), derived at read time."""

    path = "/v1/topics"
    tags = ["facts"]
    dependencies = {"memories": MEMORIES, "owner": OWNER}

    @get("/", operation_id="listTopics", opt=READ, raises=ERRORS)
    async def list_topics(
        self,
        memories: Memories,
        owner: NamedDependency[Owner],
        limit: Annotated[int, Parameter(ge=1, le=MAX_TOPICS, description=(
            "At most this many topics, most recently active first."))] = DEFAULT_TOPICS,
    ) -> TopicsOut:
        """The topics with their memory count and last activity, most recently active first,
        at most `limit` (default 100, up to 500); `truncated` says whether there are more."""
        found, truncated = await memories.topics.listing(owner, limit)
        return TopicsOut(topics=[topic_out(t) for t in found], truncated=truncated)

    @get("/{topic:str}", operation_id="getTopic", opt=READ, raises=ERRORS)
    async def get_topic(
        self,
        topic: Annotated[str, Parameter(min_length=1, max_length=200)],
        memories: Memories,
        owner: NamedDependency[Owner],
    ) -> TopicDetailOut:
        """One topic (case-blind): current facts, commitments as next actions, the user's
        questions no later memory answered, last activity. 404 when no memory carries it."""
        return topic_detail_out(await memories.topics.topic(owner, topic))
