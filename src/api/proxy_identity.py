"""Who a proxied chat is for, and which conversation it is: from the key, `user`, headers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memlane.api.config import ApiConfig
from memlane.domain.errors import InvalidMemory
from memlane.domain.model import Owner
from memlane.domain.proxy import InvalidChatRequest, UserNotNamed
from memlane.domain.security import Principal, Scope
from memlane.service.memories import check_identifier

OPENWEBUI_USER = "x-openwebui-user-id"
OPENWEBUI_CHAT = "x-openwebui-chat-id"
CONVERSATION = "x-conversation-id"
MEMORY = "x-memlane-memory"


def proxy_owner(
    principal: Principal, body: Mapping[str, Any], headers: Mapping[str, str], config: ApiConfig
) -> Owner:
    """A pinned key acts for its user whatever `user` says (LibreChat always sends its own
    ids). An unpinned key trusting Open WebUI's headers takes X-OpenWebUI-User-Id first
    (a `user` in the body could be set by a chat user to read someone else's memory);
    otherwise `user` names the user. None named: UserNotNamed (400)."""
    if principal.user_id is not None:
        return Owner(principal.tenant, principal.user_id)
    named: object = None
    if principal.trusts_openwebui_headers:
        named = headers.get(OPENWEBUI_USER) or None
    if named is None:
        named = body.get("user")
    if named is None or (isinstance(named, str) and not named.strip()):
        named = config.default_user_id
    if named is None:
        raise UserNotNamed(
            "this key is not pinned to a user: send `user` in the request body, or pin the "
            "key (memlane keys create --user U), or let it trust Open WebUI's user header "
            "(memlane keys create --trust-openwebui-headers)"
        )
    if not isinstance(named, str):
        raise InvalidChatRequest("`user` must be a string")
    try:
        check_identifier("user", named)
    except InvalidMemory as error:
        raise InvalidChatRequest(str(error)) from None
    return Owner(principal.tenant, named.strip())


def named_conversation(principal: Principal, headers: Mapping[str, str]) -> str | None:
    """X-Conversation-Id, else Open WebUI's chat id where the key trusts its headers."""
    named = headers.get(CONVERSATION)
    if not named and principal.trusts_openwebui_headers:
        named = headers.get(OPENWEBUI_CHAT)
    return named or None


def memory_scopes(principal: Principal) -> tuple[bool, bool]:
    """(may inject, may learn): memories:read and memories:write."""
    return principal.allows(Scope.READ), principal.allows(Scope.WRITE)
