"""Which language a text is in, read off its vector: the axis from English to German.

A multilingual model puts every German text a little closer to every other (e5: an
unrelated German memory scores 0.036 above an unrelated English one for a German question,
as much as an answer stands above the rest), so a German question finds a German memory
about something else before the English memory that answers it. Retrieval subtracts each
pair's offset (`SimilarityScale.language_offsets`); what it needs to know is each memory's
language, and the memories are sealed. Their vectors are not: the mean difference between
the vectors of the same sentences in German and in English is an axis along which the two
languages fall apart (every labelled development sentence on its right side under e5), so
one inner product per memory, in the database, says which language it is in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memlane.domain.model import Vector

ENGLISH, GERMAN = "en", "de"

# The same everyday statements and questions in both languages: their vectors differ by
# language, not by topic.
PARALLEL: tuple[tuple[str, str], ...] = (
    ("I work as a nurse at the city hospital.", "Ich arbeite als Krankenpfleger im Stadtspital."),
    ("My sister lives in Hamburg with her two kids.",
     "Meine Schwester wohnt mit ihren zwei Kindern in Hamburg."),
    ("We are going to the mountains next weekend.",
     "Wir fahren nächstes Wochenende in die Berge."),
    ("I don't eat meat, but fish is fine.", "Ich esse kein Fleisch, aber Fisch ist okay."),
    ("The dentist appointment is on Thursday at nine.",
     "Der Zahnarzttermin ist am Donnerstag um neun."),
    ("My favourite band has a new album out.", "Meine Lieblingsband hat ein neues Album."),
    ("Can you remind me to call my mother tomorrow?",
     "Kannst du mich erinnern, morgen meine Mutter anzurufen?"),
    ("Our dog is afraid of thunderstorms.", "Unser Hund hat Angst vor Gewittern."),
    ("I have been learning the piano for three years.",
     "Ich lerne seit drei Jahren Klavier."),
    ("The rent went up again this month.", "Die Miete ist diesen Monat wieder gestiegen."),
    ("What did I say about the new job?", "Was habe ich über die neue Stelle gesagt?"),
    ("I usually take the train to work.", "Ich fahre meistens mit dem Zug zur Arbeit."),
    ("My husband is allergic to peanuts.", "Mein Mann ist allergisch gegen Erdnüsse."),
    ("The kitchen needs a new fridge.", "Die Küche braucht einen neuen Kühlschrank."),
    ("Where did we stay in Lisbon last year?", "Wo haben wir letztes Jahr in Lissabon gewohnt?"),
    ("I prefer tea in the morning and coffee after lunch.",
     "Morgens trinke ich lieber Tee und nach dem Mittagessen Kaffee."),
    ("My daughter starts school in September.", "Meine Tochter kommt im September in die Schule."),
    ("The meeting with the bank was postponed.", "Der Termin bei der Bank wurde verschoben."),
    ("I run five kilometres every Sunday.", "Ich laufe jeden Sonntag fünf Kilometer."),
    ("How old is my nephew now?", "Wie alt ist mein Neffe jetzt?"),
    ("We bought a second-hand car in spring.",
     "Wir haben im Frühling ein gebrauchtes Auto gekauft."),
    ("The heating in the flat is broken again.", "Die Heizung in der Wohnung ist wieder kaputt."),
    ("I'm reading a novel about the sea.", "Ich lese gerade einen Roman über das Meer."),
    ("Please never book flights before ten.", "Bitte buche nie Flüge vor zehn Uhr."),
)


@dataclass(frozen=True, slots=True)
class LanguageAxis:
    """The unit direction from English to German, and where a document's and a question's
    projection on it cross from one to the other (a question's vector carries its own
    prefix, so its projections sit elsewhere)."""

    direction: tuple[float, ...]
    document_cut: float
    question_cut: float

    def of_document(self, projection: float) -> str:
        return GERMAN if projection > self.document_cut else ENGLISH

    def of_question(self, vector: Vector) -> str:
        return GERMAN if _dot(vector, self.direction) > self.question_cut else ENGLISH


def language_axis(
    english: Sequence[Vector], german: Sequence[Vector],
    english_questions: Sequence[Vector], german_questions: Sequence[Vector],
    document_share: float | None = None,
) -> LanguageAxis:
    """The axis from the vectors of `PARALLEL`'s sentences as documents and as questions:
    the mean German-minus-English difference of the documents; a document turns German
    `document_share` (default `DOCUMENT_CUT`) of the way from the English documents' mean
    projection to the German ones', a question halfway."""
    if not english or len(english) != len(german):
        raise ValueError("the axis needs the same sentences in both languages")
    width = len(english[0])
    mean = [sum(g[i] - e[i] for e, g in zip(english, german, strict=True)) / len(english)
            for i in range(width)]
    norm = sum(x * x for x in mean) ** 0.5
    if norm == 0:
        raise ValueError("the model puts both languages in one place: no axis")
    direction = tuple(x / norm for x in mean)
    return LanguageAxis(
        direction,
        _cut(english, german, direction,
             DOCUMENT_CUT if document_share is None else document_share),
        _cut(english_questions, german_questions, direction, 0.5),
    )


# Where a document turns German: this share of the way from the English sentences' mean
# projection to the German ones'. A long chat turn in English wanders toward German (names,
# foreign words) more than a German statement toward English: under e5 the midpoint called
# 9.3 / 3.1 / 30.2 % of the LoCoMo / LongMemEval / REALTALK development turns German, this
# cut 0.04 / 0.01 / 0.48 %, with 0.5 % of the labelled statements on the wrong side
# (bench/language_offsets.py; docs/recall.md, "Two languages").
DOCUMENT_CUT = 0.75


def _cut(english: Sequence[Vector], german: Sequence[Vector], direction: Sequence[float],
         share: float) -> float:
    en = sum(_dot(v, direction) for v in english) / len(english)
    de = sum(_dot(v, direction) for v in german) / len(german)
    return en + share * (de - en)


def _dot(a: Vector, b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))
