"""The memory block put into a request: merged into its system message, or one in front."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from memlane.domain.proxy.chat import SYSTEM_ROLES


def with_memory(messages: Sequence[Any], block: str) -> list[Any]:
    """The request's messages with `block` added: appended to the first system (or developer)
    message, as text or as one more text part, or as a system message in front when there is
    none (or its content is neither). Every other message is the same object it was."""
    result = list(messages)
    if not block:
        return result
    for index, message in enumerate(result):
        if not isinstance(message, Mapping):
            continue
        role = message.get("role")
        if not isinstance(role, str) or role.strip().lower() not in SYSTEM_ROLES:
            continue
        content = message.get("content")
        if isinstance(content, str):
            merged: Any = f"{content.rstrip()}\n\n{block}" if content.strip() else block
        elif isinstance(content, list):
            merged = [*content, {"type": "text", "text": block}]
        elif content is None:
            merged = block
        else:
            break
        result[index] = {**message, "content": merged}
        return result
    return [{"role": "system", "content": block}, *result]
