"""Every REST route once, as a method both clients share: a `Route` builds the route's Call
and hands it to the client's transport, which answers synchronously or awaitably."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Generic, ParamSpec, TypeVar, overload

from . import context_calls, fact_calls, memory_calls, operation_calls
from .call import Call

P = ParamSpec("P")
T = TypeVar("T")


class Route(Generic[P, T]):
    """A method made from a Call builder: same arguments and docstring as the builder."""

    def __init__(self, build: Callable[P, Call[T]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, client: None, owner: type[Any]) -> Route[P, T]: ...
    @overload
    def __get__(self, client: AsyncRoutes, owner: type[Any]) -> Callable[P, Awaitable[T]]: ...
    @overload
    def __get__(self, client: SyncRoutes, owner: type[Any]) -> Callable[P, T]: ...

    def __get__(self, client: Routes | None, owner: type[Any]) -> Any:
        if client is None:
            return self
        build = self.build

        def method(*args: P.args, **kwargs: P.kwargs) -> Any:
            return client.send(build(*args, **kwargs))

        method.__name__ = method.__qualname__ = build.__name__
        method.__doc__ = build.__doc__
        method.__wrapped__ = build  # type: ignore[attr-defined]  # inspect.signature shows it
        return method


class Routes:
    """The REST API as methods named like the in-process `TenantMemory`'s."""

    def send(self, call: Call[Any]) -> Any:
        """Send one call: the transport's single entry (sync returns, async awaits)."""
        raise NotImplementedError

    # memories
    remember = Route(memory_calls.remember)
    remember_many = Route(memory_calls.remember_many)
    learn = Route(memory_calls.learn)
    search = Route(memory_calls.search)
    get = Route(memory_calls.get)
    update = Route(memory_calls.update)
    delete = Route(memory_calls.delete)
    delete_all = Route(memory_calls.delete_all)
    stats = Route(memory_calls.stats)
    history = Route(memory_calls.history)
    # context, conversations, graph
    prompt_context = Route(context_calls.prompt_context)
    get_context = prompt_context
    retrieve_context = Route(context_calls.retrieve_context)
    add_messages = Route(context_calls.add_messages)
    import_chats = Route(context_calls.import_chats)
    neighbourhood = Route(context_calls.neighbourhood)
    connect = Route(context_calls.connect)
    disconnect = Route(context_calls.disconnect)
    consolidate = Route(context_calls.consolidate)
    # facts and the profile
    facts = Route(fact_calls.facts)
    state_fact = Route(fact_calls.state_fact)
    get_fact = Route(fact_calls.get_fact)
    update_fact = Route(fact_calls.update_fact)
    delete_fact = Route(fact_calls.delete_fact)
    fact_history = Route(fact_calls.fact_history)
    profile = Route(fact_calls.profile)
    topics = Route(fact_calls.topics)
    topic = Route(fact_calls.topic)
    # maintenance and operations
    decay = Route(operation_calls.decay)
    cleanup = Route(operation_calls.cleanup)
    consolidation_cycle = Route(operation_calls.consolidation_cycle)
    health = Route(operation_calls.health)
    ready = Route(operation_calls.ready)
    metrics = Route(operation_calls.metrics)
    # Last: inside the class body this name shadows the builtin `list`.
    list = Route(memory_calls.list_page)


class SyncRoutes(Routes):
    """Routes whose transport answers at once (MemlaneClient)."""

    def send(self, call: Call[T]) -> T:
        raise NotImplementedError


class AsyncRoutes(Routes):
    """Routes whose transport is awaited (AsyncMemlaneClient)."""

    async def send(self, call: Call[T]) -> T:
        raise NotImplementedError
