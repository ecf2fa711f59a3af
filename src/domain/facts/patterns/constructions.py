"""Constructions that carry a fact whatever the words inside them, EN and DE (issue 23).

An apposition ("As a teacher, I ...", "Als Ärztin habe ich ..."), a pseudo-cleft ("What I
love most is sailing", "Was ich nicht ausstehen kann, ist ..."), a gerund as subject
("Working at Spotify has been great"), a plural relative with their names ("My kids are Max
and Lotte", "Meine Kinder heißen Ben und Lina"), a stay with its duration ("I've been at
Deloitte for three years", "ich bin seit März bei Siemens"), and states given in other words
("I've been sober for two years", "I'm not at Google anymore").
"""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.de import occupation_de
from memlane.domain.facts.patterns.en import occupation
from memlane.domain.facts.patterns.kin import RELATIVES, age
from memlane.domain.facts.patterns.lexicon import KIN
from memlane.domain.facts.patterns.names import N
from memlane.domain.facts.rules import ObjectKind, Rule, ended, rule

NAMES, LIST = ObjectKind.NAMES, ObjectKind.LIST
# An organisation named by its name: capitalised words, "der"/"the" allowed before them.
# (Case-sensitive inside patterns that are not: a name starts with a capital.)
ORG_EN = r"(?P<o>(?:the )?(?-i:[A-Z])[\w&.'-]*(?: (?:(?-i:[A-Z])[\w&.'-]*|of|&)){0,3})"
ORG_DE = (r"(?P<o>(?:der |dem |den )?(?-i:[A-ZÄÖÜ])[\wäöüß&.'-]*"
          r"(?: (?-i:[A-ZÄÖÜ])[\wäöüß&.'-]*){0,2})")
_DIETS_EN = r"vegan|vegetarian|pescatarian|pescetarian"
_DIETS_DE = r"vegetarier(?:in)?|veganer(?:in)?|pescetarier(?:in)?"
# Past tenses: "As a student I was broke" is about then.
_PAST_EN = r"(?!was\b|had\b|used\b|did\b|went\b|'d\b|would\b)"
_PAST_DE = r"(?!war\b|hatte\b|wurde\b|musste\b|konnte\b|durfte\b|ging\b)"
_PLURAL_KIN_EN = {"kids": "children", "children": "children", "sons": "son",
                  "daughters": "daughter", "sisters": "sister", "brothers": "brother",
                  "twins": "children"}
_PLURAL_KIN_DE = {"kinder": "children", "söhne": "son", "töchter": "daughter",
                  "schwestern": "sister", "brüder": "brother", "zwillinge": "children"}
# A stay long enough to be a job: months or years, a month or year named, or "now".
_LASTING = re.compile(
    r"\b(?:for|seit|since|schon) (?:(?:über |fast |about |almost |over |nearly |a |an |one |two "
    r"|three |four |five |six |seven |eight |nine |ten |\d+ |einem |einigen |ein paar |zwei |"
    r"drei |vier |fünf |sechs |zehn )?(?:years?|months?|jahren|monaten|jahr|monat)\b|"
    r"(?:19|20)\d\d|januar|jänner|februar|märz|april|mai|juni|juli|august|september|oktober|"
    r"november|dezember|january|february|march|june|july|october|december|letztem \w+|"
    r"letztes \w+|last \w+|kurzem|montag|dienstag|mittwoch|donnerstag|freitag|monday|tuesday|"
    r"wednesday|thursday|friday)|\b(?:\w+ )?(?:years?|jahre) now\b|\bneuerdings\b|\binzwischen\b|"
    r"\bmittlerweile\b", re.IGNORECASE)


def _lasting(match: re.Match[str]) -> bool:
    return _LASTING.search(match.string) is not None


_NOT_EMPLOYERS = frozenset({*RELATIVES, "eltern", "freund", "freundin", "arzt", "ärztin",
                            "zahnarzt", "friseur", "oma", "opa", "mama", "papa", "parents"})


def employer(_: re.Match[str], value: str) -> str | None:
    """Not a relative or a visit: "seit Monaten bei Oma", "seit März beim Arzt"."""
    return None if value.split()[-1].casefold() in _NOT_EMPLOYERS else value


RULES: tuple[Rule, ...] = (
    # Appositions: the role the user speaks as.
    rule(rf"^(?:as|being) an? (?P<o>[\w-]+(?: [\w-]+)?),? I\b(?:'m|'ve)?\s*{_PAST_EN}",
         "works_as", shape=occupation, confidence=0.8),
    rule(rf"^(?:as|being) (?:an? )?(?P<o>{_DIETS_EN}),? I\b(?:'m|'ve)?\s*{_PAST_EN}", "diet",
         confidence=0.8),
    rule(rf"^als (?P<o>[A-ZÄÖÜ][\wäöüß-]+),? {_PAST_DE}[a-zäöüß]+ ich\b", "works_as",
         shape=occupation_de, confidence=0.8),
    rule(rf"^als (?P<o>{_DIETS_DE}),? {_PAST_DE}[a-zäöüß]+ ich\b", "diet", confidence=0.8,
         shape=lambda _m, v: v[:1].upper() + v[1:]),
    # Pseudo-clefts: "What I love (most) is X".
    rule(r"^(?:what|the (?:one )?thing|something) I (?:really |absolutely |truly |just )?"
         r"(?:love|like|enjoy|adore)(?: (?:most|the most|more than anything|best))? (?:is|are) "
         r"(?P<o>.+)", "likes", kind=LIST),
    rule(r"^(?:what|the (?:one )?thing|something) I (?:really |absolutely |just )?(?:hate|can't "
         r"stand|cannot stand|dislike|detest|can't bear)(?: (?:most|the most))? (?:is|are) "
         r"(?P<o>.+)", "dislikes", kind=LIST),
    rule(r"^was ich (?:wirklich |am meisten |total |sehr )*(?:liebe|mag|gern \w+),? (?:ist|sind) "
         r"(?P<o>.+)", "likes", kind=LIST),
    rule(r"^was ich (?:überhaupt |gar |wirklich )*(?:nicht (?:mag|ausstehen kann|leiden kann)|"
         r"hasse),? (?:ist|sind) (?P<o>.+)", "dislikes", kind=LIST),
    # A gerund as subject: "Working at Spotify has been great", "Living in Oslo is ...".
    rule(rf"^working (?:at|for) {ORG_EN} (?:has been|is|'s been|has)\b", "works_at"),
    rule(r"^living in (?P<o>(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*){0,2}) (?:has been|is|"
         r"'s been)\b", "lives_in"),
    rule(r"\bI(?:'m| am) (?:currently |now |still |just )?working as an? (?P<o>[\w-]+(?: [\w-]+)"
         r"{0,2}?)(?= at| for| with| in| while| and|[,.!]|$)", "works_as", shape=occupation),
    rule(r"^working as an? (?P<o>[\w-]+(?: [\w-]+){0,2}?) (?:has|is|'s|was)\b", "works_as",
         shape=occupation),
    # "I'm a freelance photographer based in Lyon".
    rule(r"\bI(?:'m| am) (?:[\w-]+ ){0,4}?based (?:in|out of) (?P<o>.+)", "lives_in",
         stops=("and", "with", "for", "since"), confidence=0.85),
    # Sober / trocken for a while: alcohol given up.
    rule(r"\bich bin (?:seit [^.,;]+? |schon lange |jetzt |inzwischen )(?P<o>trocken)\b",
         "avoids", shape=lambda _m, _v: "Alkohol"),
    # Relatives listed with their names.
    rule(r"\b(?:my|our) (?P<rel>kids|children|sons|daughters|sisters|brothers|twins) (?:are|'re)"
         r"(?: called| named)? (?P<o>.+)", _PLURAL_KIN_EN, kind=NAMES),
    rule(rf"\b(?:my|our) (?P<rel>kids|children|sons|daughters|sisters|brothers|twins),? "
         rf"(?P<o>{N},? (?:and|&) {N}|{N}, {N},? (?:and|&) {N})\b", _PLURAL_KIN_EN, kind=NAMES),
    rule(rf"\b(?:meine|unsere) (?P<rel>kinder|söhne|töchter|schwestern|brüder|zwillinge),? "
         rf"(?P<o>{N},? und {N}|{N}, {N},? und {N})\b", _PLURAL_KIN_DE, kind=NAMES),
    rule(r"\b(?:meine|unsere) (?P<rel>kinder|söhne|töchter|schwestern|brüder|zwillinge) "
         r"(?:heißen|sind) (?P<o>.+)", _PLURAL_KIN_DE, kind=NAMES),
    rule(rf"\b(?:my|our) (?P<rel>{'|'.join(k for k in KIN if k.isascii())})'s name is "
         rf"(?P<o>{N})", KIN, kind=ObjectKind.NAME),
    # A stay with its duration is a workplace; a start at a named place too.
    rule(rf"\bI(?:'ve| have) been (?:working (?:at|with|for)|at) {ORG_EN}", "works_at",
         accept=_lasting, shape=employer),
    rule(rf"\bI(?:'ve| have)? (?:just |recently |finally )?started (?:at|with) {ORG_EN}",
         "works_at"),
    rule(rf"\bich bin (?:[\wäöüß.]+ ){{0,3}}?bei {ORG_DE}(?=\s*(?:[.!,;]|$|und\b|als\b))",
         "works_at", accept=_lasting, shape=employer),
    rule(rf"\bich bin (?:[\wäöüß.]+ ){{0,3}}?zu {ORG_DE} gewechselt\b", "works_at",
         accept=lambda m: re.search(r"\b(?:bei|job|stelle|arbeit\w*|firma)\b", m.string, re.I)
         is not None),
    # States said otherwise, and ended.
    rule(r"\bI(?:'m| am|'ve been| have been) (?:now |completely |totally )?(?P<o>sober)\b",
         "avoids", shape=lambda _m, _v: "alcohol"),
    rule(rf"\bI(?:'m| am) (?:not|no longer) at {ORG_EN}", "works_at", negated=True,
         accept=ended),
    rule(rf"\bich bin nicht mehr (?:bei|an) {ORG_DE}", "works_at", negated=True),
)

_AGE = r"(?P<o>\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# A name opening the sentence, not the speaker ("I turned 41" is the user's own age).
_NAME = rf"(?!(?:I|Ich|We|Wir|My|Mein\w*)\b){N}"


def _named_or_role(match: re.Match[str]) -> str:
    """"Ben" is Ben; "Grandpa", "Opa" are roles, said in English."""
    name = match.group("name")
    return RELATIVES.get(name.casefold(), name)


_NAMED_SUBJECT = {"subject": _named_or_role, "keep_time": True, "confidence": 0.75,
                  "shape": age}
MORE: tuple[Rule, ...] = (
    # Conditions and corrections of an allergy.
    rule(r"\bich leide (?:\w+ )?(?:unter|an) (?P<o>.+)", "condition", kind=LIST),
    # "Mit Laktose hab ich Probleme": trouble with a food is an intolerance.
    rule(r"\b(?:ich habe|ich hab|i have) (?:\w+ )?(?:probleme|problems|trouble) (?:mit|with) "
         r"(?P<o>laktose|lactose|gluten|fruktose|fructose|histamin|histamine|milch|milk|"
         r"weizen|wheat|dairy)\b", "intolerant_to"),
    rule(r"\ballergisch (?:gegen|auf) [^,]+, (?:nur|sondern|aber) (?:gegen|auf) (?P<o>.+)",
         "allergic_to", kind=LIST),
    rule(r"\bich bin (?:doch |gar |überhaupt )?nicht (?:gegen|auf) (?P<o>.+?) allergisch\b",
         "allergic_to", negated=True),
    # A field of work: "Ich arbeite in der IT", "im Marketing".
    rule(r"\bich arbeite (?:(?:jetzt|seit \w+|schon|inzwischen|mittlerweile) )*(?:in der|im) "
         r"(?P<o>IT|(?=(?-i:[A-ZÄÖÜ]))[\wäöüß]*?(?:branche|pflege|forschung|verwaltung|"
         r"gastronomie|logistik|industrie|marketing|vertrieb|buchhaltung|personalwesen))"
         r"(?![\w-])", "works_in", confidence=0.7),
    # A new job named with its employer.
    rule(rf"\b(?:a|my|the) new job (?:at|with) {ORG_EN}", "works_at",
         accept=lambda m: re.search(r"\b(?:I|I've|I'm|my)\b", m.string) is not None),
    # A named relative's age that changed: "Ben turned 8 yesterday", "Paul ist jetzt 10".
    # Not "Apple turned 50 this year": a firm's age is counted in years, a person's birthday
    # said with its day.
    rule(rf"^(?P<name>{_NAME}) (?:(?:has )?just |recently )?turned {_AGE}\b"
         r"(?! this year| in (?:19|20)\d\d)", "age", **_NAMED_SUBJECT),
    rule(rf"^(?P<name>{_NAME}) (?:ist|wird) (?:(?:gestern|heute|vorgestern|gerade|jetzt|nun|"
         rf"schon|letzte woche|am \w+|vor kurzem) )+{_AGE}(?: jahre(?: alt)?)?(?: geworden)?"
         r"\s*[.!]?$",
         "age", **_NAMED_SUBJECT),
    rule(rf"^(?P<name>{_NAME}) ist {_AGE} geworden\b", "age", **_NAMED_SUBJECT),
)

# "My employer is X", "Mein Wohnort ist X": a possessed noun that names the relation.
_POSSESSED_EN = {"employer": "works_at", "company": "works_at", "workplace": "works_at",
                 "hometown": "comes_from", "home town": "comes_from", "birthplace": "birthplace",
                 "home": "lives_in", "nationality": "nationality"}
_POSSESSED_DE = {"arbeitgeber": "works_at", "arbeitgeberin": "works_at", "firma": "works_at",
                 "arbeitsplatz": "works_at", "heimatstadt": "comes_from",
                 "heimatort": "comes_from", "heimat": "comes_from", "geburtsort": "birthplace",
                 "wohnort": "lives_in", "zuhause": "lives_in"}


def _named(_: re.Match[str], value: str) -> str | None:
    """A workplace or place by its name: "the NHS", "das Uniklinikum", not "remote-first" or
    "in Berlin"."""
    words = value.split()
    head = words[1] if len(words) > 1 and words[0].casefold() in _ARTICLES else words[0]
    return value if head[:1].isupper() else None


_ARTICLES = frozenset({"the", "a", "an", "der", "die", "das", "dem", "den", "ein", "eine",
                       "einer", "einem"})
_OWN = {"stops": ("and", "und", "but", "aber", "since", "seit", "for"), "confidence": 0.85,
        "shape": _named}
POSSESSED: tuple[Rule, ...] = (
    rule(rf"\bmy (?:current |new )?(?P<rel>{'|'.join(_POSSESSED_EN)}) (?:is|'s) (?:now |still )?"
         r"(?P<o>.+)", _POSSESSED_EN, **_OWN),
    rule(rf"\b(?:mein|meine) (?:jetzige[rn]? |neue[rn]? )?(?P<rel>{'|'.join(_POSSESSED_DE)}) ist "
         r"(?:jetzt |immer noch |nach wie vor )?(?P<o>(?!es\b|dies\w*\b|das\s*[.!]?$).+)",
         _POSSESSED_DE, reject_pronouns=False, **_OWN),
    # "I'm now the office manager at ...": a job with "the".
    rule(r"\bI(?:'m| am) (?:now |currently )?the (?P<o>[\w-]+(?: [\w-]+){0,2}?)"
         r"(?= at | for | of | in |[,.!]|$)", "works_as", shape=occupation, confidence=0.8),
    # "..., arbeite aber in Kiel": a bare town is where, as "I work in Amsterdam".
    rule(r"\bich arbeite (?:aber |jetzt |inzwischen |mittlerweile )*in "
         r"(?P<o>[A-ZÄÖÜ][\wäöüß-]+)(?=\s*(?:[.,!;]|$|und\b|aber\b))", "works_in",
         confidence=0.7, accept=lambda m: m.group("o")[:1].isupper()),
)

# German likes with the liker in the dative: "Jazz gefällt mir", "Mir schmeckt Rosenkohl nicht".
_PLEASES = r"(?:gefällt|gefallen|schmeckt|schmecken)"
_NOT = re.compile(r"\b(?:nicht|nie|kein\w*|gar nicht|überhaupt nicht)\b", re.IGNORECASE)
# A kind of thing, not one pointed at ("der Film", "das", "dein Essen").
_THING_DE = (r"(?P<o>(?!(?:es|das|der|die|den|dem|dies\w*|jene\w*|dein\w*|sein\w*|ihr\w*|"
             r"alles|nichts|mir|dir|ihm)\b)[\wäöüÄÖÜß-]+(?: [\wäöüÄÖÜß-]+){0,2}?)")
DATIVE: tuple[Rule, ...] = (
    rule(rf"^{_THING_DE} {_PLEASES} mir(?:\s+(?:sehr|total|echt|richtig|so|besonders|wirklich|"
         r"gut|super))*\s*[.!]?$", "likes", unless=_NOT),
    rule(rf"^{_THING_DE} {_PLEASES} mir (?:(?:gar|überhaupt|echt|wirklich) )*nicht(?! mehr)\b",
         "dislikes"),
    rule(rf"^mir {_PLEASES} (?:(?:sehr|total|echt|besonders) )*{_THING_DE}\s*[.!]?$", "likes",
         unless=_NOT),
)

LET_GO: tuple[Rule, ...] = (
    # Passive hires: "I was hired by Siemens", "Ich wurde von Bosch eingestellt".
    rule(rf"\bI(?:'ve| have)? (?:was |been |got |just got |just been )?(?:hired|recruited|"
         rf"taken on|employed) by {ORG_EN}", "works_at"),
    rule(rf"\bich (?:wurde|bin) (?:[\wäöüß.]+ ){{0,3}}?von {ORG_DE} (?:eingestellt|übernommen|"
         r"angestellt)\b", "works_at"),
    # "Spotify let me go": the employer is named first.
    rule(rf"^{ORG_EN} (?:let me go|laid me off|fired me|sacked me|made me redundant)\b",
         "works_at", negated=True),
)
