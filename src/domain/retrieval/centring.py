"""The question's common direction: what every question shares, taken out before comparing.

An e5-style model embeds every question with its `query: ` prefix, and its vectors share one
direction far more than their topics differ (multilingual-e5-small: any question and any
memory score 0.73-0.87). A memory that lies along that direction, a short generic turn
("Can you share the sources?", "Please continue"), is then near every question and comes
first for questions it does not answer. Subtracting a share of the mean question vector from
the question before the search (centring, the remedy for such "hub" vectors) ranks memories
by what this question asks rather than by how question-like they are: cos(m, q - w*c) orders
the memories as m.q - w*(m.c) does, so a memory near every question loses by exactly that.
The mean is taken over `GENERIC_QUESTIONS`, everyday questions to an assistant with memory
in English and German, written for this purpose and never taken from a benchmark
(docs/recall.md, "Centring the question").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from memlane.domain.model import Vector

GENERIC_QUESTIONS: tuple[str, ...] = (
    "What did I tell you about my new job?",
    "Where does my sister live?",
    "When is my dentist appointment?",
    "What is my wife's favourite food?",
    "Which books did I read last summer?",
    "How old is my son?",
    "What did we do on our last holiday?",
    "Who did I meet at the conference?",
    "What am I allergic to?",
    "Why did I change my gym?",
    "What kind of music do I like?",
    "Did I mention my plans for the weekend?",
    "How long have I been learning Spanish?",
    "What car do I drive?",
    "What was the name of that restaurant?",
    "When did I move to this city?",
    "What hobbies have I picked up recently?",
    "How many pets do I have?",
    "What did my doctor say about my back?",
    "Which team does my brother support?",
    "What gift did I buy for my mother?",
    "What is the name of my manager?",
    "How did the interview go?",
    "What do I usually eat for breakfast?",
    "Was habe ich dir über meine Arbeit erzählt?",
    "Wo wohnt mein Bruder?",
    "Wann ist mein Termin beim Arzt?",
    "Wie heißt meine Katze?",
    "Welche Filme habe ich zuletzt gesehen?",
    "Wie alt ist meine Tochter?",
    "Was haben wir im Urlaub gemacht?",
    "Wen habe ich auf der Feier getroffen?",
    "Wogegen bin ich allergisch?",
    "Warum habe ich den Verein gewechselt?",
    "Welchen Sport mache ich gern?",
    "Was hatte ich für Samstag geplant?",
    "Seit wann spiele ich Gitarre?",
    "Welches Fahrrad habe ich gekauft?",
    "Wie hieß das Café in der Altstadt?",
    "Wann bin ich umgezogen?",
    "Was koche ich am liebsten?",
    "Wie viele Geschwister habe ich?",
    "Was hat die Ärztin über mein Knie gesagt?",
    "Wo arbeitet meine Freundin?",
    "Was wollte ich meinem Vater schenken?",
    "Wie heißt meine Chefin?",
    "Wie lief das Vorstellungsgespräch?",
    "Was trinke ich morgens?",
)


def question_centre(questions: Sequence[Vector]) -> tuple[float, ...]:
    """The mean of the questions' vectors (not normalised: its length is part of it)."""
    if not questions:
        raise ValueError("the centre needs at least one question")
    count = len(questions)
    return tuple(math.fsum(column) / count for column in zip(*questions, strict=True))


def centred(question: Vector, centre: Sequence[float], weight: float) -> Vector:
    """The question less `weight` times the centre, as a unit vector; the question as it is
    when the weight is 0, the sizes differ, or nothing would be left."""
    if weight == 0 or len(question) != len(centre):
        return question
    moved = [q - weight * c for q, c in zip(question, centre, strict=True)]
    norm = math.sqrt(math.fsum(x * x for x in moved))
    if norm == 0:
        return question
    return [x / norm for x in moved]
