"""Topics: a memory's tags and its chat's title; per topic its activity and its open questions."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any
from uuid import UUID

from memlane.domain.errors import MemoryNotFound
from memlane.domain.memories import SEGMENT_KEY, Role

# Set by the chat import on every memory of an imported conversation.
CONVERSATION_TITLE_KEY = "conversation_title"
MAX_TOPIC_CHARS = 200
# A question counts as answered when a later statement shares this share of its keywords.
ANSWERED_SHARE = 0.5

_ROLE_LINE = re.compile(r"^(" + "|".join(r.value for r in Role) + r"): ?", re.IGNORECASE)
_QA = re.compile(r"^Q: (?P<q>.*?)\nA: ", re.DOTALL)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[^\W\d_]{4,}")
_SUFFIX = re.compile(r"(?:ing|ed|es|en|er|s|e)$")
_STOPWORD_TEXT = """
about after again also been before being could does doing done from have having here into
just like make many more most much must need only other over same should some such than that
their them then there these they this those through very want were what when where which
while will with would your yours shall might thing things really maybe
aber alle auch auf aus bist dann dass deine dein denn diese dieser doch dort eine einen einer
haben habe hast hatte ihre immer kann kannst machen mein meine mich mir nach nicht noch oder
schon sein sich sind soll sollte über und unter viel von wann warum was weil welche wenn werde
wie wieder wird wirklich wo zum zur
"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


class TopicNotFound(MemoryNotFound):
    """No memory of the owner carries this topic."""

    def __init__(self, topic: str) -> None:
        super().__init__(topic)
        self.args = ("topic not found",)


@dataclass(frozen=True, slots=True)
class TopicSummary:
    """A topic, how many memories carry it, and the newest one's time."""

    topic: str
    count: int
    last_activity: datetime


@dataclass(frozen=True, slots=True)
class TopicTurn:
    """One memory of a topic as the open-question rule reads it."""

    memory_id: UUID
    said_at: datetime
    user_text: str
    other_text: str = ""


@dataclass(frozen=True, slots=True)
class OpenQuestion:
    memory_id: UUID
    question: str
    asked_at: datetime


def topic_label(raw: str) -> str:
    """A topic as shown: runs of whitespace made one space, trimmed, cut to its bound."""
    return " ".join(raw.split())[:MAX_TOPIC_CHARS]


def topic_key(raw: str) -> str:
    """What makes two topics one: the label lower-cased."""
    return topic_label(raw).lower()


def topics_of(tags: Iterable[str], metadata: Mapping[str, Any]) -> tuple[str, ...]:
    """A memory's topics: its tags, then its conversation's title; each once (case-blind)."""
    title = metadata.get(CONVERSATION_TITLE_KEY)
    candidates = [*tags, *([title] if isinstance(title, str) else [])]
    seen: set[str] = set()
    found: list[str] = []
    for raw in candidates:
        topic = topic_label(raw)
        if topic and topic_key(topic) not in seen:
            seen.add(topic_key(topic))
            found.append(topic)
    return tuple(found)


def summarise(memories: Iterable[tuple[Sequence[str], datetime]]) -> list[TopicSummary]:
    """Every topic of (topics, created_at) pairs: newest activity first, then by name."""
    counts: dict[str, list[Any]] = {}
    for topics, created_at in memories:
        for topic in topics:
            entry = counts.setdefault(topic_key(topic), [topic, 0, created_at])
            entry[1] += 1
            entry[2] = max(entry[2], created_at)
    summaries = [TopicSummary(name, count, last) for name, count, last in counts.values()]
    return sorted(summaries, key=lambda s: (-s.last_activity.timestamp(), topic_key(s.topic)))


def split_speakers(content: str, metadata: Mapping[str, Any]) -> tuple[str, str]:
    """(what the user said, what others said) in a memory: a segment's lines by role, a
    learned pair's question and answer, or the whole content as the user's."""
    if SEGMENT_KEY in metadata:
        user: list[str] = []
        other: list[str] = []
        current = other
        for line in content.splitlines():
            role = _ROLE_LINE.match(line)
            if role is not None:
                current = user if role.group(1).casefold() == Role.USER.value else other
                line = line[role.end():]
            current.append(line)
        return "\n".join(user), "\n".join(other)
    qa = _QA.match(content)
    if qa is not None:
        return qa.group("q"), content[qa.end():]
    return content, ""


@lru_cache(maxsize=65_536)
def _stem(word: str) -> str | None:
    """A word's keyword (None for a stopword); cached: a topic repeats its words."""
    folded = word.casefold()
    return None if folded in _STOPWORDS else _SUFFIX.sub("", folded)[:8]


def keywords(text: str) -> frozenset[str]:
    """Content words of four letters or more, case-blind, with common endings cut."""
    return frozenset(k for w in _WORD.findall(text) if (k := _stem(w)) is not None)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(" ".join(text.split())) if s.strip()]


def open_questions(turns: Sequence[TopicTurn]) -> list[OpenQuestion]:
    """The user's questions in a topic that no later memory of it answered, oldest first.

    A question is a sentence of the user's that ends in "?" and has a keyword. A later
    memory (said after it, not the memory asking it) answers it when its statements (the
    sentences that are no questions, the user's or a reply's) share at least half of the
    question's keywords. Asking again answers nothing; the latest asking of the same
    keywords is the one kept."""
    ordered = sorted(turns, key=lambda t: t.said_at)
    times = [t.said_at for t in ordered]
    # Each memory's statement keywords, and which statements (by place in time order) hold
    # each keyword: a question is checked against later statements sharing its rarer words,
    # not against every later statement (that was quadratic: 1.1 s at 4k memories).
    said = [
        keywords(" ".join(s for s in _sentences(f"{turn.user_text}\n{turn.other_text}")
                          if not s.endswith("?")))
        for turn in ordered
    ]
    postings: dict[str, list[int]] = {}
    for index, words in enumerate(said):
        for word in words:
            postings.setdefault(word, []).append(index)
    found: dict[frozenset[str], OpenQuestion] = {}
    for turn in ordered:
        later = bisect_right(times, turn.said_at)
        for sentence in _sentences(turn.user_text):
            asked = keywords(sentence)
            if not sentence.endswith("?") or not asked:
                continue
            needed = max(1, int(len(asked) * ANSWERED_SHARE + 0.999))
            if _answered(asked, needed, postings, said, later):
                found.pop(asked, None)
            else:
                found[asked] = OpenQuestion(turn.memory_id, sentence, turn.said_at)
    return sorted(found.values(), key=lambda q: q.asked_at)


def _answered(
    asked: frozenset[str], needed: int, postings: Mapping[str, list[int]],
    said: Sequence[frozenset[str]], later: int,
) -> bool:
    """Whether a statement from place `later` on shares `needed` of the question's keywords.
    Such a statement lacks at most len(asked) - needed of them, so it holds one of that many
    + 1 of the rarest: only their statements are read. All are said after the question, so
    none is the asking memory's own (one turn a memory; its statements share its time)."""
    rarest = sorted((postings.get(w, []) for w in asked), key=len)[: len(asked) - needed + 1]
    for places in rarest:
        for index in places[bisect_left(places, later):]:
            if len(asked & said[index]) >= needed:
                return True
    return False
