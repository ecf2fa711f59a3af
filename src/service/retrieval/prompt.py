"""The prompt's stages: the profile's lines first, the memories that fit the budget, the block."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol

from memlane.domain.facts import ProfileBlock, repeats_the_profile
from memlane.domain.model import Owner
from memlane.domain.retrieval import fit_to_budget, in_order, render_context
from memlane.service.retrieval.pipeline import Retrieval


class ProfileSource(Protocol):
    """Where the profile's lines come from (the facts' use case)."""

    def profile_block(self, owner: Owner, char_budget: int, /) -> Awaitable[ProfileBlock]: ...


class Profile:
    """Writes `profile` (the "do not forget" profile's core facts) unless the options leave
    it out, and takes its lines from `char_budget`: the memories share what is left."""

    def __init__(self, facts: ProfileSource) -> None:
        self._facts = facts

    async def __call__(self, r: Retrieval) -> None:
        if not r.options.include_profile or r.char_budget is None:
            return
        block = await self._facts.profile_block(r.owner, r.char_budget)
        r.profile, r.said = block.text, block.said
        if r.profile:
            r.char_budget -= len(r.profile) + 1  # its lines and the newline after them


class Repeats:
    """Narrows `contexts`: a memory line that adds nothing beyond the profile's lines (every
    word it says is said by the lines of its facts) is left out, so a fact is said once."""

    async def __call__(self, r: Retrieval) -> None:
        if r.said:
            r.contexts = [
                c for c in r.contexts if not repeats_the_profile(c.content, c.id, r.said)
            ]


class Budget:
    """Narrows `contexts` to the whole lines that fit `char_budget`, in their order."""

    async def __call__(self, r: Retrieval) -> None:
        if r.char_budget is None:
            return
        order = r.options.order
        r.contexts = in_order(fit_to_budget(r.contexts, r.char_budget, order), order)


class Rendering:
    """Writes `text`: the profile's lines, then the preamble and one line per memory."""

    async def __call__(self, r: Retrieval) -> None:
        block = "" if r.char_budget is None else render_context(
            r.contexts, r.char_budget, r.options.order
        )
        r.text = "\n".join(part for part in (r.profile, block) if part)
