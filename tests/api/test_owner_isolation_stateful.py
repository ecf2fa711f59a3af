"""Random operations by 3 tenants x 3 users through the real app: after every step no
response of one owner holds another's marker or ids, and no owner's state moved but by its
own operations (issue 15, standing test)."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar
from uuid import uuid4

import httpx
import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    rule,
    run_state_machine_as_test,
)

from memlane.domain.security.auth import Scope
from memlane.service.security.api_keys import KeyService
from tests.api.conftest import bearer

pytestmark = pytest.mark.integration

T = TypeVar("T")
TENANTS, USERS = 3, 3
OWNERS = st.integers(0, TENANTS * USERS - 1)
PICK = st.integers(0, 1_000)
# Shared by every owner on purpose: a filter or chain that ignored the owner would mix them.
TAGS = st.sampled_from(["travel", "work", "health"])
CONVERSATIONS = st.sampled_from(["c1", "c2"])
SENTENCES = st.sampled_from([
    "I live in Lisbon near the river",
    "I work as a nurse at the city hospital",
    "I am allergic to peanuts and shellfish",
    "My sister Priya visits from Toronto next week",
    "We hiked in the Alps and the views were stunning",
    "The dentist appointment moved to Thursday afternoon",
    "I prefer green tea over coffee in the morning",
    "Our team ships the billing release on Friday",
])
RELATIONS = st.sampled_from(["likes", "dislikes", "lives_in"])
MARKER = re.compile(r"mk[0-9a-f]{12}")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
CALL_TIMEOUT_S = 300
STEPS_PER_RUN, RUNS = 30, 24


@dataclass
class Model:
    """What one owner should have: its memories (id -> content, tags), facts (id -> object)."""

    headers: dict[str, str]
    marker: str
    memories: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)
    facts: dict[str, str] = field(default_factory=dict)
    edges: set[tuple[str, str]] = field(default_factory=set)  # stated causal edges
    ever: set[str] = field(default_factory=set)  # every id this owner ever had
    written: int = 0

    def text(self, sentence: str) -> str:
        self.written += 1
        return f"{self.marker} note {self.written}: {sentence}"

    def keep(self, memory: dict[str, Any]) -> None:
        self.memories[memory["id"]] = (memory["content"], frozenset(memory["tags"]))
        self.ever.add(memory["id"])


def pick(items: Any, index: int) -> str | None:
    ordered = sorted(items)
    return ordered[index % len(ordered)] if ordered else None


class Isolation(RuleBasedStateMachine):
    """Each run gets 3 fresh tenants, each with users u0..u2 (the same names in every
    tenant), one pinned read+write key per user, made through the KeyService."""

    loop: ClassVar[asyncio.AbstractEventLoop]
    client: ClassVar[httpx.AsyncClient]
    keys: ClassVar[KeyService]
    steps: ClassVar[int] = 0
    requests: ClassVar[Counter[str]] = Counter()  # by route pattern and status, for the report

    def __init__(self) -> None:
        super().__init__()
        self.actor: int | None = None
        self.models = self.call(self._owners())

    async def _owners(self) -> list[Model]:
        models = []
        for _ in range(TENANTS):
            tenant = f"tenant-{uuid4().hex[:12]}"
            for user in range(USERS):
                key = await self.keys.create(tenant, [Scope.READ, Scope.WRITE], f"u{user}")
                models.append(Model(bearer(key.token), f"mk{uuid4().hex[:12]}"))
        return models

    def call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run on the test's event loop, where the app and its pool live."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(CALL_TIMEOUT_S)

    def send(self, who: int, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """One request of owner `who`, with the leak check on its response."""
        response = self.call(
            self.client.request(method, url, headers=self.models[who].headers, **kwargs)
        )
        assert response.status_code < 500, (method, url, response.text)
        Isolation.requests[f"{method} {UUID.sub('{id}', url)} {response.status_code}"] += 1
        # A 404 names the path it was asked for: that id came from the caller.
        self.check_no_leak(who, response.text, asked=set(UUID.findall(url + str(kwargs))))
        return response

    def check_no_leak(self, who: int, text: str, asked: frozenset[str] | set[str] = frozenset(),
                      ) -> None:
        assert set(MARKER.findall(text)) <= {self.models[who].marker}, text
        seen = set(UUID.findall(text)) - asked
        for other, model in enumerate(self.models):
            if other != who:
                assert not seen & model.ever, (who, other, text)

    def holder(self, index: int, kind: str, but: int | None = None) -> int | None:
        """An owner (other than `but`) that has memories, facts or edges (`kind`)."""
        holders = [i for i, m in enumerate(self.models) if getattr(m, kind) and i != but]
        return holders[index % len(holders)] if holders else None

    def act_as_holder(self, index: int, kind: str) -> tuple[int, Model] | None:
        """The step's actor: an owner that has memories, facts or edges, if any has.

        Not a precondition: what an owner holds comes from the server (facts are extracted,
        near-duplicates merge), and Hypothesis refuses rule choices that depend on state it
        does not generate ("FlakyStrategyDefinition") when it replays a prefix."""
        who = self.holder(index, kind)
        return None if who is None else (who, self.act(who))

    def act(self, who: int) -> Model:
        Isolation.steps += 1
        self.actor = who
        return self.models[who]

    # --- memories -------------------------------------------------------------------

    @rule(who=OWNERS, sentence=SENTENCES, tag=TAGS)
    def store(self, who: int, sentence: str, tag: str) -> None:
        model = self.act(who)
        response = self.send(who, "POST", "/v1/memories",
                             json={"content": model.text(sentence), "tags": [tag]})
        assert response.status_code in (200, 201), response.text
        body = response.json()
        assert body["merged"] == (body["memory"]["id"] in model.memories)
        model.keep(body["memory"])

    @rule(who=OWNERS, sentences=st.lists(SENTENCES, min_size=1, max_size=3), tag=TAGS)
    def batch(self, who: int, sentences: list[str], tag: str) -> None:
        model = self.act(who)
        items = [{"content": model.text(s), "tags": [tag]} for s in sentences]
        response = self.send(who, "POST", "/v1/memories/batch", json={"memories": items})
        results = response.json()["results"]
        # 201 when every item is new, 200 when any merged into a near-duplicate.
        expected = 200 if any(r["merged"] for r in results) else 201
        assert response.status_code == expected, response.text
        for result in results:
            model.keep(result["memory"])

    @rule(who=OWNERS, conversation=CONVERSATIONS, sentences=st.lists(SENTENCES, min_size=1,
                                                                      max_size=2))
    def converse(self, who: int, conversation: str, sentences: list[str]) -> None:
        model = self.act(who)
        messages = []
        for sentence in sentences:
            messages += [{"role": "user", "content": model.text(sentence)},
                         {"role": "assistant", "content": model.text("Noted, thank you.")}]
        response = self.send(who, "POST", f"/v1/conversations/{conversation}/messages",
                             json={"messages": messages})
        assert response.status_code == 201, response.text
        body = response.json()
        for memory in body["memories"]:
            model.keep(memory)
        assert {e["source"] for e in body["edges"]} | {e["target"] for e in body["edges"]} \
            <= set(model.memories)

    @rule(holder=PICK, index=PICK)
    def get(self, holder: int, index: int) -> None:
        acting = self.act_as_holder(holder, "memories")
        if acting is None:
            return
        who, model = acting
        memory_id = pick(model.memories, index)
        if memory_id is None:
            return
        response = self.send(who, "GET", f"/v1/memories/{memory_id}")
        assert response.status_code == 200, response.text
        assert response.json()["content"] == model.memories[memory_id][0]

    @rule(holder=PICK, index=PICK, sentence=SENTENCES, tag=TAGS)
    def patch(self, holder: int, index: int, sentence: str, tag: str) -> None:
        acting = self.act_as_holder(holder, "memories")
        if acting is None:
            return
        who, model = acting
        memory_id = pick(model.memories, index)
        if memory_id is None:
            return
        response = self.send(who, "PATCH", f"/v1/memories/{memory_id}",
                             json={"content": model.text(sentence), "tags": [tag]})
        assert response.status_code == 200, response.text
        model.keep(response.json())

    @rule(holder=PICK, index=PICK)
    def delete(self, holder: int, index: int) -> None:
        acting = self.act_as_holder(holder, "memories")
        if acting is None:
            return
        who, model = acting
        memory_id = pick(model.memories, index)
        if memory_id is None:
            return
        assert self.send(who, "DELETE", f"/v1/memories/{memory_id}").status_code == 204
        del model.memories[memory_id]
        model.edges = {e for e in model.edges if memory_id not in e}
        assert self.send(who, "GET", f"/v1/memories/{memory_id}").status_code == 404

    @rule(holder=PICK, first=PICK, second=PICK, sentence=st.none() | SENTENCES,
          delete_sources=st.booleans())
    def consolidate(self, holder: int, first: int, second: int, sentence: str | None,
                    delete_sources: bool) -> None:
        acting = self.act_as_holder(holder, "memories")
        if acting is None:
            return
        who, model = acting
        sources = [pick(model.memories, first), pick(model.memories, second)]
        if None in sources or sources[0] == sources[1]:
            return
        body: dict[str, Any] = {"sources": sources, "delete_sources": delete_sources}
        if sentence is not None:
            body["content"] = model.text(sentence)
        response = self.send(who, "POST", "/v1/memories/consolidate", json=body)
        assert response.status_code == 201, response.text
        done = response.json()
        assert set(done["sources"]) == set(sources)
        assert frozenset(done["memory"]["tags"]) == frozenset().union(
            *(model.memories[s][1] for s in sources))
        model.keep(done["memory"])
        if delete_sources:
            for gone in sources:
                del model.memories[gone]  # type: ignore[arg-type]
                model.edges = {e for e in model.edges if gone not in e}

    @rule(who=OWNERS, tag=TAGS)
    def list_by_tag(self, who: int, tag: str) -> None:
        model = self.act(who)
        response = self.send(who, "GET", "/v1/memories", params={"tag": tag, "limit": 200})
        assert response.status_code == 200, response.text
        assert {m["id"] for m in response.json()["items"]} == {
            i for i, (_, tags) in model.memories.items() if tag in tags
        }

    @rule(who=OWNERS, conversation=CONVERSATIONS)
    def list_by_conversation(self, who: int, conversation: str) -> None:
        model = self.act(who)
        response = self.send(who, "GET", "/v1/memories",
                             params={"conversation_id": conversation, "limit": 200})
        assert response.status_code == 200, response.text
        assert {m["id"] for m in response.json()["items"]} <= set(model.memories)

    @rule(who=OWNERS, query=SENTENCES)
    def search(self, who: int, query: str) -> None:
        model = self.act(who)
        response = self.send(who, "GET", "/v1/memories/search", params={"q": query})
        assert response.status_code == 200, response.text
        assert {h["memory"]["id"] for h in response.json()["results"]} <= set(model.memories)

    @rule(who=OWNERS, query=SENTENCES, conversation=st.none() | CONVERSATIONS)
    def context(self, who: int, query: str, conversation: str | None) -> None:
        model = self.act(who)
        body: dict[str, Any] = {"query": query}
        if conversation:
            body |= {"conversation_id": conversation, "include_current": True}
        response = self.send(who, "POST", "/v1/context", json=body)
        assert response.status_code == 200, response.text
        assert {m["id"] for m in response.json()["memories"]} <= set(model.memories)

    # --- graph -----------------------------------------------------------------------

    @rule(holder=PICK, index=PICK, depth=st.integers(1, 3))
    def graph(self, holder: int, index: int, depth: int) -> None:
        acting = self.act_as_holder(holder, "memories")
        if acting is None:
            return
        who, model = acting
        memory_id = pick(model.memories, index)
        if memory_id is None:
            return
        response = self.send(who, "GET", f"/v1/memories/{memory_id}/graph",
                             params={"depth": depth})
        assert response.status_code == 200, response.text
        body = response.json()
        # Entity nodes (what the memories name) are the owner's own, never a memory id.
        entities = {n["id"] for n in body["nodes"] if n["kind"] == "entity"}
        memories = {n["id"] for n in body["nodes"] if n["kind"] == "memory"}
        ends = {e["source"] for e in body["edges"]} | {e["target"] for e in body["edges"]}
        assert memories | (ends - entities) <= set(model.memories)
        assert not entities & {i for m in self.models for i in m.ever}

    @rule(holder=PICK, first=PICK, second=PICK)
    def connect(self, holder: int, first: int, second: int) -> None:
        acting = self.act_as_holder(holder, "memories")
        if acting is None:
            return
        who, model = acting
        start, end = pick(model.memories, first), pick(model.memories, second)
        if start is None or end is None or start == end:
            return
        response = self.send(who, "POST", f"/v1/memories/{start}/edges",
                             json={"target": end, "kind": "causal"})
        assert response.status_code == 201, response.text
        model.edges.add((start, end))

    @rule(holder=PICK, index=PICK)
    def disconnect(self, holder: int, index: int) -> None:
        acting = self.act_as_holder(holder, "edges")
        if acting is None:
            return
        who, model = acting
        if not model.edges:
            return
        start, end = sorted(model.edges)[index % len(model.edges)]
        response = self.send(who, "DELETE", f"/v1/memories/{start}/edges/{end}",
                             params={"kind": "causal"})
        assert response.status_code == 204, response.text
        model.edges.discard((start, end))

    # --- facts -----------------------------------------------------------------------

    @rule(who=OWNERS, relation=RELATIONS, sentence=SENTENCES)
    def state_fact(self, who: int, relation: str, sentence: str) -> None:
        model = self.act(who)
        obj = f"{model.marker} {sentence.split()[-1]} {model.written}"
        model.written += 1
        response = self.send(who, "POST", "/v1/facts", json={"relation": relation,
                                                             "object": obj})
        assert response.status_code == 201, response.text
        assert response.json()["object"] == obj
        model.ever.add(response.json()["id"])

    @rule(holder=PICK, index=PICK)
    def edit_fact(self, holder: int, index: int) -> None:
        acting = self.act_as_holder(holder, "facts")
        if acting is None:
            return
        who, model = acting
        fact_id = pick(model.facts, index)
        if fact_id is None:
            return
        obj = f"{model.marker} edited {model.written}"
        model.written += 1
        response = self.send(who, "PATCH", f"/v1/facts/{fact_id}",
                             json={"object": obj, "user_fact_score": 7})
        assert response.status_code == 200, response.text
        assert response.json()["object"] == obj

    @rule(holder=PICK, index=PICK)
    def delete_fact(self, holder: int, index: int) -> None:
        acting = self.act_as_holder(holder, "facts")
        if acting is None:
            return
        who, model = acting
        fact_id = pick(model.facts, index)
        if fact_id is None:
            return
        assert self.send(who, "DELETE", f"/v1/facts/{fact_id}").status_code == 204
        assert self.send(who, "GET", f"/v1/facts/{fact_id}").status_code == 404

    @rule(who=OWNERS)
    def profile(self, who: int) -> None:
        model = self.act(who)
        response = self.send(who, "GET", "/v1/profile")
        assert response.status_code == 200, response.text
        body = response.json()
        found = {f["id"] for f in body["core"] + body["secondary"]}
        assert found <= model.ever

    @rule(who=OWNERS, tag=TAGS)
    def topics(self, who: int, tag: str) -> None:
        # Every owner uses the same tag names: a topic read that ignored the owner would
        # carry another owner's marker or ids, which send() refuses.
        self.act(who)
        listed = self.send(who, "GET", "/v1/topics")
        assert listed.status_code == 200, listed.text
        one = self.send(who, "GET", f"/v1/topics/{tag}")
        assert one.status_code in (200, 404), one.text
        named = {t["topic"] for t in listed.json()["topics"]}
        assert (one.status_code == 200) == (tag in named), one.text

    # --- another owner's objects -------------------------------------------------------

    @rule(who=OWNERS, other=PICK, index=PICK, own=PICK)
    def reach_for_anothers_memory(self, who: int, other: int, index: int, own: int) -> None:
        model = self.act(who)
        victim = self.holder(other, "memories", but=who)
        if victim is None:
            return
        theirs = pick(self.models[victim].memories, index)
        mine = pick(model.memories, own)
        attempts: list[tuple[str, str, dict[str, Any]]] = [
            ("GET", f"/v1/memories/{theirs}", {}),
            ("PATCH", f"/v1/memories/{theirs}", {"json": {"content": model.text("taken")}}),
            ("GET", f"/v1/memories/{theirs}/graph", {}),
            # (to itself would be a 422 before any lookup: an edge needs two memories)
            ("POST", f"/v1/memories/{theirs}/edges", {"json": {"target": mine or str(uuid4()),
                                                              "kind": "causal"}}),
            ("DELETE", f"/v1/memories/{theirs}", {}),
        ]
        if mine is not None:
            attempts.append(("POST", f"/v1/memories/{mine}/edges",
                             {"json": {"target": theirs, "kind": "causal"}}))
            attempts.append(("POST", "/v1/memories/consolidate",
                             {"json": {"sources": [mine, theirs], "delete_sources": True}}))
        for method, url, kwargs in attempts:
            assert self.send(who, method, url, **kwargs).status_code == 404, (method, url)

    @rule(who=OWNERS, other=PICK, index=PICK)
    def reach_for_anothers_fact(self, who: int, other: int, index: int) -> None:
        model = self.act(who)
        victim = self.holder(other, "facts", but=who)
        if victim is None:
            return
        theirs = pick(self.models[victim].facts, index)
        attempts: list[tuple[str, dict[str, Any]]] = [
            ("GET", {}), ("PATCH", {"json": {"object": f"{model.marker} taken"}}),
            ("DELETE", {}),
        ]
        for method, kwargs in attempts:
            response = self.send(who, method, f"/v1/facts/{theirs}", **kwargs)
            assert response.status_code == 404, (method, response.text)

    # --- after every step --------------------------------------------------------------

    @invariant()
    def every_owner_holds_exactly_its_own(self) -> None:
        """Each owner's memories match its model; facts moved only for the step's actor."""
        pages = self.call(self._read_all())
        for who, (memories, facts) in enumerate(pages):
            model = self.models[who]
            for response in (memories, facts):
                assert response.status_code == 200, response.text
                assert response.json()["next_cursor"] is None
                self.check_no_leak(who, response.text)
            held = {m["id"]: (m["content"], frozenset(m["tags"]))
                    for m in memories.json()["items"]}
            assert held == model.memories, who
            stated = {f["id"]: f["object"] for f in facts.json()["items"]}
            if who == self.actor:
                model.facts = stated
                model.ever |= set(stated)
            else:
                assert stated == model.facts, (who, self.actor)

    async def _read_all(self) -> list[tuple[httpx.Response, httpx.Response]]:
        async def read(model: Model) -> tuple[httpx.Response, httpx.Response]:
            memories = await self.client.get("/v1/memories", headers=model.headers,
                                             params={"limit": 200})
            facts = await self.client.get("/v1/facts", headers=model.headers,
                                          params={"current": "all", "limit": 200})
            return memories, facts

        return list(await asyncio.gather(*(read(m) for m in self.models)))


async def test_random_operations_of_nine_owners_never_leak_or_touch_another_owner(
    client: httpx.AsyncClient, key_service: KeyService
) -> None:
    Isolation.loop = asyncio.get_running_loop()
    Isolation.client = client
    Isolation.keys = key_service
    Isolation.steps = 0
    Isolation.requests = Counter()
    budget = settings(
        max_examples=RUNS, stateful_step_count=STEPS_PER_RUN, derandomize=True,
        database=None, deadline=None, print_blob=False,
        suppress_health_check=list(HealthCheck),
    )
    # Hypothesis drives the machine synchronously; the app lives on this loop, so the
    # machine runs in a thread and hands each request back here.
    await asyncio.to_thread(run_state_machine_as_test, Isolation, settings=budget)
    print(f"stateful isolation: {Isolation.steps} steps by {TENANTS * USERS} owners")
    for route, times in sorted(Isolation.requests.items()):
        print(f"  {times:5d}  {route}")
    assert Isolation.steps >= RUNS * 2
