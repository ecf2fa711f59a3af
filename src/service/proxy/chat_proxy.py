"""ChatProxy: a chat completion forwarded upstream with the user's memories, then learned."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from memlane.domain.model import Owner
from memlane.domain.proxy import (
    Answer,
    Applied,
    ChatMessage,
    InvalidChatRequest,
    KeyedDigest,
    MemoryMode,
    QueryRule,
    UpstreamNotConfigured,
    UpstreamRefused,
    active_texts,
    allowed_mode,
    answer_from_json,
    derived_id,
    is_background_task,
    learned_exchange,
    named_id,
    query_for,
    read_messages,
    turn_key,
    with_memory,
)
from memlane.domain.retrieval import ContextOptions
from memlane.ports.clock import Clock, system_clock
from memlane.ports.encryption import EncryptionPort
from memlane.ports.upstream import UpstreamCall, UpstreamPort, UpstreamReply
from memlane.service.proxy.memory import LearnJob, ProxyMemory, read_memory
from memlane.service.proxy.queue import LearningQueue
from memlane.service.proxy.stream import close_soon, teed

log = logging.getLogger(__name__)
MAX_BODY_BYTES = 16 * 1024 * 1024  # a non-streamed answer or a model list held whole
MAX_SEGMENT_BYTES = 32 * 1024
DEFAULT_RULE = QueryRule()


@dataclass(frozen=True, slots=True)
class ProxyCall:
    """A chat request as the edge hands it over: the body (raw and decoded), whose it is, the
    memory mode asked for, what the key may do, and the conversation the client named."""

    raw: bytes
    body: Mapping[str, Any]
    owner: Owner
    asked: MemoryMode = MemoryMode.ON
    can_read: bool = True
    can_write: bool = True
    conversation: str | None = None


@dataclass(slots=True)
class ProxyReply:
    """What goes back: the upstream's status and content type, memlane's headers, and the
    body, whole (`content`) or as it streams (`stream`)."""

    status: int
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)
    content: bytes = b""
    stream: AsyncIterator[bytes] | None = None


class ChatProxy:
    """Retrieve, inject, forward, learn (DESIGN §11). Memory failing never fails the chat:
    the request is forwarded without it, and the reply says so."""

    def __init__(
        self,
        memory: ProxyMemory,
        upstream: UpstreamPort | None,
        encryption: EncryptionPort,
        learning: LearningQueue,
        rule: QueryRule = DEFAULT_RULE,
        active_exchanges: int = 20,
        max_segment_bytes: int = MAX_SEGMENT_BYTES,
        clock: Clock = system_clock,
    ) -> None:
        self._memory = memory
        self._upstream = upstream
        self._encryption = encryption
        self.learning = learning
        self._rule = rule
        self._active = active_exchanges
        self._max_segment_bytes = max_segment_bytes
        self._clock = clock
        self.forwarded = 0
        self.degraded = 0
        self.tasks = 0

    async def complete(self, call: ProxyCall) -> ProxyReply:
        """Forward a chat completion: memories injected as the mode allows, the answer
        passed on (streamed as it arrives), the exchange queued for learning when done."""
        upstream = self._configured()
        messages = read_messages(call.body)
        applied = allowed_mode(call.asked, call.can_read, call.can_write)
        if is_background_task(messages):
            self.tasks += 1
            applied = Applied(MemoryMode.OFF, "background task: no memory")
        digest = self._digest(call.owner.tenant)
        conversation = named_id(call.conversation, digest)
        headers = {"X-Memlane-Memory": applied.mode.value}
        if applied.reason:
            headers["X-Memlane-Memory-Reason"] = applied.reason
        raw, injected = call.raw, 0
        if applied.mode.reads:
            options = ContextOptions(
                conversation_id=conversation
                or derived_id(call.owner.user_id, messages, None, digest),
                active_context=tuple(active_texts(messages, self._clock(), self._active)),
            )
            read = await read_memory(
                self._memory, call.owner, query_for(messages, self._rule), options
            )
            if read.failed:
                self.degraded += 1
                headers["X-Memlane-Memory-Degraded"] = read.failed
            elif read.context is not None and read.context.text:
                body = {**call.body, "messages": with_memory(
                    call.body["messages"], read.context.text
                )}
                raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
                injected = len(read.context.memories)
        headers["X-Memlane-Memories-Injected"] = str(injected)
        reply = await self._sent(upstream, UpstreamCall("POST", "chat/completions", raw))
        self.forwarded += 1
        learn = None
        if applied.mode.writes and reply.status == 200:
            learn = self._learner(call.owner, messages, conversation, digest)
        if reply.streams:
            return ProxyReply(reply.status, reply.content_type, headers, stream=teed(reply, learn))
        try:
            content = await reply.read(MAX_BODY_BYTES)
        finally:
            await close_soon(reply)
        if learn is not None:
            learn(answer_from_json(content))
        return ProxyReply(reply.status, reply.content_type, headers, content)

    async def models(self, model_id: str | None = None) -> ProxyReply:
        """GET /models or /models/<id> of the upstream, passed through."""
        if model_id is not None and model_id.strip(".") == "":
            raise InvalidChatRequest("not a model id")
        reply = await self._sent(
            self._configured(), UpstreamCall("GET", "models", segment=model_id)
        )
        try:
            content = await reply.read(MAX_BODY_BYTES)
        finally:
            await close_soon(reply)
        return ProxyReply(reply.status, reply.content_type, content=content)

    def _configured(self) -> UpstreamPort:
        if self._upstream is None:
            raise UpstreamNotConfigured(
                "no upstream is configured: set [proxy] upstream_url in config.toml (or "
                "MEMLANE_PROXY__UPSTREAM_URL), e.g. http://127.0.0.1:11434/v1 for Ollama"
            )
        return self._upstream

    async def _sent(self, upstream: UpstreamPort, call: UpstreamCall) -> UpstreamReply:
        reply = await upstream.send(call)
        if reply.status in (401, 403):
            await close_soon(reply)
            raise UpstreamRefused(reply.status)
        return reply

    def _learner(
        self, owner: Owner, messages: list[ChatMessage], conversation: str | None,
        digest: KeyedDigest,
    ) -> Callable[[Answer], None]:
        """What to do with the answer once it is complete: queue its exchange, if learnable."""

        def learn(answer: Answer) -> None:
            exchange = learned_exchange(messages, answer, self._max_segment_bytes)
            if exchange is None:
                return
            named = conversation or derived_id(owner.user_id, messages, answer.text, digest)
            if named is None:
                return
            self.learning.submit(LearnJob(
                owner, named, turn_key(messages, digest), exchange.question, exchange.answer
            ))

        return learn

    def _digest(self, tenant: str) -> KeyedDigest:
        """The keyed hash of conversation ids: the tenant's blind-index key, so an id says
        nothing of the words it was derived from."""

        def digest(text: str) -> str:
            blinded = self._encryption.blind_terms(tenant, [text])[0]
            return hashlib.sha256(blinded.encode()).hexdigest()

        return digest
