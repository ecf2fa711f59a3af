"""Whom a statement is about, read as supersession reads it, for other slices (EN/DE)."""

from __future__ import annotations

from memlane.domain.graph import supersession_people as people
from memlane.domain.graph.supersession import DEFAULT_CUES
from memlane.domain.graph.supersession_reading import SELF, plain
from memlane.domain.graph.supersession_words import compile_cues

_HOLDERS = compile_cues(people.HOLDER_NOUNS)


def holder_of(text: str) -> str | None:
    """"self" for the user ("I'm allergic to peanuts", "Mein Beruf ..."), the holder noun of
    a relative or other person who is the subject or the possessor ("My brother is ...",
    "Der Geburtstag meiner Mutter ...": "brother", "mother"; a German noun stays German:
    "bruder"), "other" or "name:<name>" for a third party, None when nobody is."""
    return DEFAULT_CUES.holder(text)


def people_named(text: str) -> frozenset[str]:
    """Everyone a statement speaks of, subject or not: the holder nouns it contains
    ("I bought my sister a scarf": "sister"; "mum" is "mother" as in `holder_of`), and
    "self" for a first-person pronoun
    ("I", "me", "ich", "mir"; "my" alone does not make the user the one spoken of)."""
    norm = plain(text)
    found = {people.SAME_HOLDER.get(m.group(0), m.group(0)) for m in _HOLDERS.finditer(norm)}
    if people.FIRST_PERSON_SUBJECT.search(norm) or people.OBJECT_SELF.search(norm):
        found.add(SELF)
    return frozenset(found)
