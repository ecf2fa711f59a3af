"""The prompt's stages: the profile's lines first, the memories that fit the budget, the block."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol

from memlane.domain.facts import ProfileBlock, repeats_the_profile
from memlane.domain.model import Owner
from memlane.domain.retrieval import PlainBlock, fit_plain, in_order, render_plain
from memlane.service.retrieval.pipeline import Retrieval
from memlane.service.security import tiers_of


class ProfileSource(Protocol):
    """Where the profile's lines come from (the facts' use case)."""

    def profile_block(self, owner: Owner, char_budget: int, /) -> Awaitable[ProfileBlock]: ...


class StartProfile:
    """Starts reading the profile's lines beside the stages that choose the memories (it
    needs only the owner and the budget); Profile, a closing stage, waits for it."""

    def __init__(self, facts: ProfileSource) -> None:
        self._facts = facts

    async def __call__(self, r: Retrieval) -> None:
        if r.options.include_profile and r.char_budget is not None:
            r.start("profile", self._read(r.owner, r.char_budget))

    async def _read(self, owner: Owner, char_budget: int) -> ProfileBlock:
        return await self._facts.profile_block(owner, char_budget)


class Profile:
    """Writes `profile` (the "do not forget" profile's core facts) unless the options leave
    it out, and takes its lines from `char_budget`: the memories share what is left. The
    lines StartProfile began reading, or read here when it did not run (a retrieval that
    finished before it)."""

    def __init__(self, facts: ProfileSource) -> None:
        self._facts = facts

    async def __call__(self, r: Retrieval) -> None:
        if not r.options.include_profile or r.char_budget is None:
            return
        block: ProfileBlock | None = await r.result("profile", None)
        if block is None:
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
    """Narrows `contexts` to what fits `char_budget` and writes `hints`: the memories the
    question names or that answer it as whole lines (the named first), those that merely
    overlap it as their abstract (RMG decision 5, as by level of detail), in their order."""

    async def __call__(self, r: Retrieval) -> None:
        if r.char_budget is None:
            return
        order = r.options.order
        abstracts = {s.memory.id: tiers_of(s.memory).abstract for s in r.opened}
        block = fit_plain(r.contexts, abstracts, r.named_in_question(), r.char_budget, order)
        r.hints = {m.id: line for m, line in block.hints}
        r.contexts = [*in_order(block.whole, order), *(m for m, _ in block.hints)]


class Rendering:
    """Writes `text`: the profile's lines, then the preamble, one whole line per memory
    and the hint lines under the related header."""

    async def __call__(self, r: Retrieval) -> None:
        block = "" if r.char_budget is None else render_plain(PlainBlock(
            [c for c in r.contexts if c.id not in r.hints],
            [(c, r.hints[c.id]) for c in r.contexts if c.id in r.hints],
        ), r.options.order)
        r.text = "\n".join(part for part in (r.profile, block) if part)
