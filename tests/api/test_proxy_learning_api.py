"""What a proxied chat teaches memory, through the conversation route, and what it does not."""

from __future__ import annotations

from typing import Any

import pytest

from memlane.domain.security.auth import Scope
from tests.api.conftest import TenantKeys, bearer
from tests.api.proxy_fixtures import ProxyStack, stack
from tests.stubs.openai_upstream import Scripted, chunk

pytestmark = pytest.mark.integration
__all__ = ["stack"]
TOOL_CALL = {"index": 0, "id": "call_1", "type": "function",
             "function": {"name": "weather", "arguments": "{\"city\": \"Oslo\"}"}}


async def post(stack: ProxyStack, headers: dict[str, str], messages: list[Any],
               **body: Any) -> Any:
    response = await stack.http.post(
        "/v1/chat/completions", headers=headers,
        json={"model": "stub-model", "messages": messages, **body},
    )
    assert response.status_code == 200, response.text
    return response


async def memories(stack: ProxyStack, headers: dict[str, str], **params: str) -> list[Any]:
    await stack.learned()
    listed = await stack.http.get("/v1/memories", params=params, headers=headers)
    return list(reversed(listed.json()["items"]))  # oldest first


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


async def test_a_tool_round_and_tool_messages_are_not_learned_but_the_answer_is(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    ask = [user("What is the weather in Oslo today?")]
    stack.upstream.script.append(Scripted(events=[
        chunk(role="assistant", tool_calls=[TOOL_CALL]), chunk(finish="tool_calls"), "[DONE]"
    ]))
    await post(stack, tenant.alice, ask, stream=True, tools=[{"type": "function", "function": {
        "name": "weather", "parameters": {"type": "object"}}}])
    assert await memories(stack, tenant.alice) == []
    assert stack.upstream.chats()[0].body["tools"][0]["function"]["name"] == "weather"
    follow = [*ask, {"role": "assistant", "content": None, "tool_calls": [TOOL_CALL]},
              {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": -3}"}]
    await post(stack, tenant.alice, follow)
    stored = await memories(stack, tenant.alice)
    assert [m["content"] for m in stored] == [
        "user: What is the weather in Oslo today?\nassistant: Reply 2: noted."
    ]  # the tool's output is no part of it
    sent = stack.upstream.chats()[1].body["messages"]
    assert sent[-2]["tool_calls"] == [TOOL_CALL] and sent[-1]["tool_call_id"] == "call_1"


async def test_an_answer_ending_in_an_error_chunk_is_not_learned(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    stack.upstream.script.append(Scripted(events=[
        chunk("I was about to"), {"error": {"message": "out of memory", "type": "server_error"}},
    ]))
    response = await post(stack, tenant.alice, [user("Tell me a long story about dragons.")],
                          stream=True)
    assert "out of memory" in response.text  # the client sees the upstream's own error
    assert await memories(stack, tenant.alice) == []


async def test_images_audio_and_reasoning_never_reach_memory(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    stack.upstream.script.append(Scripted(events=[
        chunk(role="assistant", reasoning_content="secret chain of thought"),
        chunk(reasoning="more thoughts"), chunk("<think>hidden</think>"),
        chunk("A red bicycle."), chunk(finish="stop"), "[DONE]",
    ]))
    parts = [
        {"type": "text", "text": "What is on this photo of my new bike?"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgoAAAA"}},
        {"type": "input_audio", "input_audio": {"data": "UklGRiQAAABXQVZF", "format": "wav"}},
    ]
    await post(stack, tenant.alice, [user(parts)], stream=True)  # type: ignore[arg-type]
    stored = await memories(stack, tenant.alice)
    assert [m["content"] for m in stored] == [
        "user: What is on this photo of my new bike?\nassistant: A red bicycle."
    ]
    # The image itself went to the upstream untouched.
    assert stack.upstream.chats()[0].body["messages"][-1]["content"][1] == parts[1]


async def test_with_several_choices_the_first_is_learned(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    await post(stack, tenant.alice, [user("Suggest a name for my new puppy please.")], n=2)
    await post(stack, tenant.alice, [user("Suggest a name for my new kitten please.")], n=2,
               stream=True)
    stored = [m["content"] for m in await memories(stack, tenant.alice)]
    assert stored == [
        "user: Suggest a name for my new puppy please.\nassistant: Reply 1: noted.",
        "user: Suggest a name for my new kitten please.\nassistant: Reply 2: noted.",
    ]


async def test_developer_is_read_as_system_and_content_parts_as_text(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    await stack.http.post("/v1/memories", json={"content": "I am vegetarian."},
                          headers=tenant.alice)
    messages = [{"role": "developer", "content": [{"type": "text", "text": "Be brief."}]},
                user([{"type": "text", "text": "Plan a vegetarian dinner for me."}])]  # type: ignore[list-item]
    await post(stack, tenant.alice, messages)
    sent = stack.upstream.chats()[0].body["messages"]
    assert len(sent) == 2 and sent[0]["role"] == "developer"
    assert sent[0]["content"][0] == {"type": "text", "text": "Be brief."}
    # The memory's one fact is its whole news: the profile line says it, the memory line
    # would only repeat it (issue 31's repeats rule).
    assert "diet: vegetarian" in sent[0]["content"][1]["text"]
    stored = await memories(stack, tenant.alice)
    assert stored[-1]["content"].startswith("user: Plan a vegetarian dinner for me.\n")


async def test_the_usage_chunk_passes_to_the_client_and_the_answer_is_learned(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    response = await post(stack, tenant.alice, [user("Remember that I play the cello.")],
                          stream=True, stream_options={"include_usage": True})
    assert '"choices": [], "usage"' in response.text
    stored = await memories(stack, tenant.alice)
    assert [m["content"] for m in stored] == [
        "user: Remember that I play the cello.\nassistant: Reply 1: noted."
    ]


async def test_a_regenerated_answer_replaces_the_earlier_one_in_its_conversation(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    opening = [user("hi"), {"role": "assistant", "content": "Hello!"}]
    ask = [*opening, user("Which train goes from Vienna to Graz?")]
    headers = {**tenant.alice, "X-Conversation-Id": "trip-chat"}
    await post(stack, headers, ask)
    await post(stack, headers, ask)  # the user pressed "regenerate"
    stored = await memories(stack, tenant.alice, conversation_id="trip-chat")
    assert [m["content"] for m in stored] == [
        "user: Which train goes from Vienna to Graz?\nassistant: Reply 2: noted."
    ]
    # The next question of the same chat is a new segment, chained after it.
    await post(stack, headers, [*ask, {"role": "assistant", "content": "Reply 2: noted."},
                                user("Which train goes from Vienna to Graz?")])
    assert len(await memories(stack, tenant.alice, conversation_id="trip-chat")) == 2


async def test_two_chats_both_opening_with_hi_do_not_share_an_id_from_their_second_request(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    answers = []
    for _ in range(2):  # two chats open with "hi" (the stub answers each its own way)
        response = await post(stack, tenant.alice, [user("hi")])
        answers.append(response.json()["choices"][0]["message"]["content"])
    assert answers[0] != answers[1]
    for answer, question in zip(answers, ["Book a table for two.", "Fix my bike chain."],
                                strict=True):
        await post(stack, tenant.alice,
                   [user("hi"), {"role": "assistant", "content": answer}, user(question)])
    stored = await memories(stack, tenant.alice)
    by_conversation: dict[str, list[str]] = {}
    for memory in stored:
        by_conversation.setdefault(memory["conversation_id"], []).append(memory["content"])
    assert len(by_conversation) == 2
    assert sorted(len(v) for v in by_conversation.values()) == [2, 2]
    for contents in by_conversation.values():
        assert contents[0].startswith("user: hi\n")
    assert all(len(cid) <= 200 for cid in by_conversation)
    # Learned exchanges carry no plaintext in their derived id.
    assert not any("hi" in cid.removeprefix("chat-") for cid in by_conversation)


async def test_learning_goes_through_the_conversation_route_and_links_the_segments(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    headers = {**tenant.alice, "X-Conversation-Id": "route-chat"}
    first = [user("My name is Alice and I live in Graz.")]
    await post(stack, headers, first)
    await post(stack, headers, [*first, {"role": "assistant", "content": "Reply 1: noted."},
                                user("Actually I moved to Linz last month.")])
    stored = await memories(stack, tenant.alice, conversation_id="route-chat")
    assert [m["metadata"]["segment"] for m in stored] == [0, 1]
    graph = await stack.http.get(f"/v1/memories/{stored[1]['id']}/graph", headers=tenant.alice)
    kinds = {e["kind"] for e in graph.json()["edges"]}
    assert "chain" in kinds
    token = await tenant.token([Scope.READ], "alice")
    facts = await stack.http.get("/v1/facts", headers=bearer(token))
    assert any(f["object"].lower() == "linz" for f in facts.json()["items"])


async def test_a_memory_restating_an_exchange_already_in_the_request_is_left_out(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    told = [user("My sister Greta lives in Tromsø and works as a marine biologist.")]
    await post(stack, {**tenant.alice, "X-Conversation-Id": "first"}, told)
    await stack.http.post("/v1/memories", headers=tenant.alice,
                          json={"content": "Greta's birthday is on the 3rd of May."})
    await stack.learned()
    # Another chat (a copy of the first, say) carries the same exchange in its history.
    again = [*told, {"role": "assistant", "content": "Reply 1: noted."},
             user("When is Greta's birthday, and where does she live?")]
    response = await post(stack, {**tenant.alice, "X-Conversation-Id": "second"}, again)
    system = stack.upstream.chats()[-1].system
    assert "3rd of May" in system  # what the request does not hold is still brought
    assert "marine biologist" not in system  # the restated exchange is not
    assert response.headers["x-memlane-memories-injected"] == "1"


async def test_a_chat_beyond_the_apis_16_mib_body_limit_is_forwarded(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    photo = {"type": "image_url", "image_url": {"url": "data:image/png;base64," + "A" * 17_000_000}}
    parts = [{"type": "text", "text": "Describe my holiday photo from Crete."}, photo]
    response = await post(stack, tenant.alice, [user(parts)])  # type: ignore[arg-type]
    assert response.json()["choices"][0]["message"]["content"] == "Reply 1: noted."
    stored = await memories(stack, tenant.alice)
    assert [m["content"] for m in stored] == [
        "user: Describe my holiday photo from Crete.\nassistant: Reply 1: noted."
    ]
