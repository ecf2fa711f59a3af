"""Which EN/DE sentences can state a fact: splitting, questions, hypotheticals, reported speech."""

from __future__ import annotations

import re

_ABBREVIATIONS = frozenset({
    "st", "dr", "mr", "mrs", "ms", "prof", "jr", "sr", "vs", "etc", "e.g", "i.e", "z.b", "bzw",
    "ca", "usw", "nr", "str", "hr", "fr", "inc", "ltd", "co",
})
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
# Words that open a sentence without carrying its meaning ("Actually, call me Bob").
_OPENER = re.compile(
    r"^(?:actually|honestly|oh|ok|okay|well|so|and|but|btw|by the way|anyway|also|just so you "
    r"know|fyi|eigentlich|übrigens|ach|und|aber|ja|nein|naja|tja|übrigens|ehrlich gesagt)"
    r"\b[,!:]?\s+",
    re.IGNORECASE,
)
_QUESTION_EN = re.compile(
    r"^(?:do|does|did|am i|is|are|was|were|can|could|should|would|will|shall|have|has|had|"
    r"what|where|when|who|whom|whose|which|why|how|isn't|aren't|didn't|won't|wasn't)\b",
    re.IGNORECASE,
)
_QUESTION_DE = re.compile(
    r"^(?:wo|wann|was|wer|wen|wem|wessen|wie|warum|wieso|weshalb|welche\w*|wohin|woher|womit|"
    r"wozu|worüber)\b",
    re.IGNORECASE,
)
# German yes/no questions put the verb first: "Wohne ich noch in Bremen". A statement puts
# something else first ("Letztes Jahr bin ich ..."), so a pronoun second flags a question
# unless the first word is a conjunction or interjection.
_PRONOUN_SECOND = re.compile(r"^(\w+)\s+(?:ich|wir|du|ihr)\b", re.IGNORECASE)
_NOT_A_VERB_DE = frozenset({
    "und", "aber", "also", "ja", "nein", "denn", "doch", "na", "hallo", "hi", "oh", "ach",
    "tja", "naja", "weil", "dass", "ob", "sondern", "oder", "jetzt", "dann", "da", "hier",
    "heute", "morgen", "gestern", "früher", "inzwischen", "mittlerweile", "damals",
    "eigentlich", "übrigens", "ehrlich", "zuerst", "endlich", "seitdem", "deshalb", "trotzdem",
    "sonst", "bald", "gerade", "schon", "nun", "neuerdings", "zurzeit", "momentan",
    # Subordinating conjunctions open a clause whose subject comes second too.
    "seit", "obwohl", "nachdem", "bevor", "sobald", "während", "zumal", "sodass", "wo",
})
# Wishes, conditions and possibilities state nothing yet.
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|might|wish|imagine|suppose|supposing|hypothetically|considering|"
    r"thinking (?:about|of)|would love to|would like to|'d love to|'d like to|hope to|"
    r"hoping to|dream of|someday|one day|what if|vielleicht|eventuell|möglicherweise|"
    r"überlege|hätte gerne?|würde gerne?|wäre|wären|hätte|hätten|könnte|"
    r"irgendwann|träume|not sure|unsure|no idea if|nicht sicher|weiß nicht,? ob)\b",
    re.IGNORECASE,
)
_CONDITIONAL_START = re.compile(r"^(?:if|unless|when|wenn|falls|sobald|angenommen)\b",
                                re.IGNORECASE)
# Someone else's words about the user ("Tom said I'm stubborn") are not the user's statement.
REPORTED = re.compile(
    r"\b(?:said|says|say|thinks|think|thought|told|tells|claims|claimed|believes|believe|"
    r"reckons|according to|meint|meinte|sagt|sagte|findet|fand|glaubt|glaube|denkt|"
    r"behauptet|behauptete)\b",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"^(?:hi|hey|hello|hallo|moin|servus|grüezi|grüß gott|guten (?:morgen|tag|abend)|"
    r"good (?:morning|evening|afternoon))(?: zusammen| there| all| everyone)?[,!.]?\s+",
    re.IGNORECASE,
)
_COPULA = re.compile(r"^(?:I'm|I am|ich bin)(?= )", re.IGNORECASE)
_FIRST_PERSON_START = re.compile(r"^(i|we|ich|wir)\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|we|ich|wir|my|mein\w*)\b", re.IGNORECASE)
_AND = re.compile(
    r",?\s+(?:and|und|but)\s+|,\s+aber\s+"
    # German drops the subject after a comma too: "Ich bin Schwabe, wohne aber in Hamburg".
    r"|,\s+(?=(?:wohne|lebe|arbeite|bin|habe|komme|mag|liebe|esse|trinke|fahre)\b)"
    # ... and English in chat: "I live in Bristol now, work at a bakery".
    r"|,\s+(?=(?:live|work|love|hate|like|adore|prefer|teach)\b)"
    # A contrast that keeps the verb: "I'm not vegan anymore, just vegetarian".
    r"|,\s+(?=(?:just|only|nur|nur noch|sondern)\b)",
    re.IGNORECASE,
)
_NOT_A_PREDICATE = frozenset({
    "i", "we", "you", "he", "she", "it", "they", "my", "our", "the", "a", "an", "his", "her",
    "their", "ich", "wir", "du", "er", "sie", "es", "mein", "meine", "der", "die", "das", "ein",
    "eine", "then", "dann", "so",
})


def sentences(text: str) -> list[str]:
    """`text` split into sentences; "St. Mary's" and "am 12. März" stay whole."""
    pieces: list[str] = []
    start = 0
    for end in _SENTENCE_END.finditer(text):
        before = text[start:end.start()]
        last = before.rsplit(None, 1)[-1] if before.split() else ""
        word = last.rstrip(".").casefold()
        if last.endswith(".") and (word.isdigit() or word in _ABBREVIATIONS):
            continue
        pieces.append(before)
        start = end.end()
    pieces.append(text[start:])
    return [p.strip() for p in pieces if p.strip()]


def strip_openers(sentence: str) -> str:
    while (opened := _OPENER.sub("", sentence, count=1)) != sentence:
        sentence = opened
    return sentence


# "What I love most is sailing", "Was ich nicht mag, ist ...": a question word opening a
# clause about the user, the sentence then saying what it is, states something.
_PSEUDO_CLEFT = re.compile(r"^(?:what|was) (?:I|ich)\b.*\b(?:is|are|ist|sind)\b", re.IGNORECASE)


def is_question(sentence: str) -> bool:
    core = strip_openers(sentence.strip())
    if core.endswith("?"):
        return True
    if _PSEUDO_CLEFT.match(core):
        return False
    if _QUESTION_EN.match(core) or _QUESTION_DE.match(core):
        return True
    # The verb-first test reads the sentence as said: "Eigentlich komme ich aus Porto" puts an
    # adverb first (a statement), though "eigentlich" is an opener elsewhere.
    second = _PRONOUN_SECOND.match(sentence.strip())
    return second is not None and second.group(1).casefold() not in _NOT_A_VERB_DE


def statement_part(sentence: str) -> str | None:
    """What of `sentence` states something: the sentence, or the statement before a
    question tacked on after a comma ("I painted a sunset last weekend, want to see?");
    None for a question, a wish or a condition."""
    if is_question(sentence):
        head, comma, _ = sentence.rstrip(" ?").rpartition(",")
        if not comma or is_question(head) or not _FIRST_PERSON.search(head):
            return None
        sentence = head + "."
    return None if is_hypothetical(sentence) else sentence


# A fronted "after years of thinking about it," says how long it took, not that it is open.
_DECIDED_AFTER = re.compile(r"^(?:after|nach)\b[^,]*,\s*", re.IGNORECASE)


def is_hypothetical(sentence: str) -> bool:
    core = _DECIDED_AFTER.sub("", strip_openers(sentence.strip()))
    return bool(_HEDGE.search(core) or _CONDITIONAL_START.match(core))


def is_reported(prefix: str) -> bool:
    """Whether the words before a match put it in someone else's mouth."""
    return bool(REPORTED.search(prefix))


def clauses(sentence: str) -> list[str]:
    """The sentence, plus coordinated predicates given back their subject.

    "I moved to Toulouse and now work at Thales" also yields "I now work at Thales", so the
    second predicate is read as the user's too. Only a first-person sentence lends its subject.
    """
    core = strip_openers(sentence)
    found = [core]
    # A greeting before the subject lends nothing: "Grüezi, ich heiße Reto und wohne in ...".
    bare = strip_openers(_GREETING.sub("", core))
    subject = _FIRST_PERSON_START.match(bare)
    if subject is None:
        return found
    copula = _COPULA.match(bare)
    for part in _AND.split(bare)[1:]:
        words = part.split()
        if words and words[0][0].islower() and words[0].casefold() not in _NOT_A_PREDICATE:
            found.append(f"{subject.group(1)} {part}")
            # "I'm vegan and allergic to soy": the copula is lent with its subject.
            if copula is not None:
                found.append(f"{copula.group(0)} {part}")
    return found
