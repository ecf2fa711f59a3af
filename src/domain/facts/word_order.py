"""German word order: a clause that puts something before its verb, read as if "ich" led.

German main clauses keep the finite verb second, so whatever comes first pushes the subject
behind the verb: "Seit dem Unfall habe ich Angst vor Hunden", "Spinat kann ich nicht
ausstehen", "Am 3. Juli muss ich den Vertrag kündigen". The patterns are written for the
subject first; `subject_first` gives them the clause in that order. A fronted adverbial
(a time, a reason, a leading subordinate clause) is left out, since it says when or why and
the dates are read from the whole sentence; a fronted object moves behind the verb, where
the subject-first clause keeps it ("ich kann Spinat nicht ausstehen").
"""

from __future__ import annotations

import re

from memlane.domain.facts.date_words import DAYS, MONTHS
from memlane.domain.facts.patterns.lexicon import word_set

_V2 = re.compile(
    r"^(?P<front>(?:[^\s,]+[ ,]+){1,7}?)(?P<verb>[a-zäöüß]+) (?P<subject>ich|wir)"
    r"(?:\s+(?P<rest>.*)|(?P<end>[.!]?))$"
)
# Words that open a fronted object in lower case once it stands inside the clause.
_DETERMINERS = word_set("""
der die das den dem des ein eine einen einem einer eines mein meine meinen meinem meiner
meines unser unsere unseren unserem unserer kein keine keinen keinem keiner
""")
# A finite first-person verb, as it stands second: auxiliaries, modals and the -e forms.
_FINITE = re.compile(
    r"^(?:bin|sind|habe|hab|haben|hatte|hatten|war|waren|werde|werden|wurde|wurden|muss|"
    r"müssen|kann|können|darf|dürfen|will|wollen|soll|sollen|mag|mögen|mochte|möchte|"
    r"[a-zäöüß]{2,}(?:e|en|te|ten))$"
)
# Words a fronted adverbial opens with: prepositions and adverbs of time, place and reason.
_ADVERBIAL_START = word_set("""
seit ab am im an auf aus bei bis durch für gegen hinter in mit nach neben ohne trotz um
unter vor während wegen zu zum zur über außer gestern heute morgen übermorgen vorgestern
jetzt inzwischen mittlerweile neuerdings nun damals früher später bald dann danach davor
sonst oft manchmal immer nie niemals meistens selten schon noch gerade eben endlich
eigentlich übrigens leider zum glück zuhause zu hause hier dort da deshalb deswegen
trotzdem dennoch außerdem auch letzte letzten letztes letzter nächste nächsten nächstes
nächster diese diesen dieses dieser kommende kommenden vorige vorigen diesmal wenn als
weil obwohl nachdem bevor sobald falls dass ob ehrlich lieber gern gerne beruflich
privat zum glück ehrlicherweise normalerweise eigentlich ansonsten
""") | frozenset(DAYS) | frozenset(MONTHS)
# Fronts that carry the meaning themselves ("Am liebsten lese ich ...") stay as they are.
_KEEP = re.compile(r"^(?:am liebsten|lieber|gern|gerne|am meisten)\b", re.IGNORECASE)


# A fronted phrase some words need as their complement stays with them: "Vor dem Fliegen habe
# ich keine Angst" is about flying, "Gegen Katzen bin ich allergisch" about cats.
_GOVERNED = {"vor": ("angst",), "gegen": ("allergisch",), "auf": ("allergisch",),
             "mit": ("aufgehört", "probleme"), "für": ("schwäche",), "von": ("genug",)}
_TOGETHER = re.compile(r"\b(?:zusammen|verheiratet|verlobt|liiert)\b", re.IGNORECASE)
# Verbs whose place or employer may stand first: "In Graz wohne ich seit 2019", "Bei Bosch
# arbeite ich", "Aus Polen komme ich" name where, not when.
_PLACE_VERBS = {"in": ("wohne", "lebe", "wohnen", "leben", "arbeite", "arbeiten"),
                "im": ("wohne", "lebe", "wohnen", "leben", "arbeite", "arbeiten"),
                "bei": ("arbeite", "arbeiten", "jobbe", "bin"),
                "aus": ("komme", "stamme", "kommen", "stammen")}
# A fronted object of a negated verb goes back behind its "kein": "Kaffee trinke ich keinen
# mehr" -> "ich trinke keinen Kaffee mehr".
_KEIN = re.compile(r"^(?P<kein>kein\w*)\b\s*(?P<after>.*)$", re.IGNORECASE)


def _is_adverbial(front: str) -> bool:
    first = front.split()[0].casefold().strip(",")
    return (first in _ADVERBIAL_START or first[:1].isdigit() or front.rstrip().endswith(",")
            or first.rstrip(".").isdigit())


def subject_first(clause: str) -> str | None:
    """`clause` with "ich"/"wir" first, when something else stands before its verb; None
    when it already starts with the subject or does not read as a German main clause."""
    found = _V2.match(clause.strip())
    if found is None or _KEEP.match(clause) or not _FINITE.match(found["verb"]):
        return None
    front = found["front"].strip(" ,")
    subject, verb = found["subject"], found["verb"]
    rest = found["rest"] if found["rest"] is not None else found["end"]
    first = front.split()[0].casefold()
    if first in _GOVERNED and any(word in rest.casefold() for word in _GOVERNED[first]):
        return f"{subject} {verb} {rest.rstrip(' .!')} {front}".strip()
    if first == "mit" and _TOGETHER.search(rest):
        # "Mit Felix bin ich nicht mehr zusammen" -> "ich bin mit Felix nicht mehr zusammen".
        return f"{subject} {verb} {front[:1].lower()}{front[1:]} {rest.rstrip(' .!')}".strip()
    if verb.casefold() in _PLACE_VERBS.get(first, ()):
        return f"{subject} {verb} {rest.rstrip(' .!')} {front[:1].lower()}{front[1:]}".strip()
    if _is_adverbial(found["front"]):
        # Kept after a hard stop: no object runs into it, but a date in it still dates the
        # clause ("ich gehe zum Optiker; übermorgen").
        return f"{subject} {verb} {rest.rstrip(' .!')}; {front}".strip()
    # A fronted object: German nouns keep their capital; an article or possessive opening the
    # sentence does not ("Den Förderantrag" -> "den Förderantrag").
    if front.split()[0].casefold() in _DETERMINERS:
        front = front[:1].lower() + front[1:]
    negated = _KEIN.match(rest)
    if negated is not None:
        return f"{subject} {verb} {negated['kein']} {front} {negated['after']}".strip()
    return re.sub(r"\s+([.!])$", r"\1", f"{subject} {verb} {front} {rest}".strip())
