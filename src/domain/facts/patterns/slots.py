"""Constructions whose slot is open, read by the slot noun's shape (issue 23, fourth round).

- **Health by head noun.** A diagnosis or "I have …" names an allergy, an intolerance or a
  condition by its head: "-allergie"/"allergy" → allergic_to the rest ("Sojaallergie" →
  Soja), "-intoleranz"/"-unverträglichkeit"/"intolerance" → intolerant_to, and a disease's
  shape (-itis, -ose/-osis, -syndrom, -krankheit, -störung, disease, disorder, diabetes…) →
  condition, the generic health relation. "Bei mir wurde eine Fruktoseunverträglichkeit
  festgestellt", "I was diagnosed with Crohn's disease". A noun of no such shape ("I have a
  car") says nothing.
- **Habits given up, object anywhere.** "Ich esse seit Ostern kein Fleisch mehr", "Mit dem
  Snooze-Knopf hab ich aufgehört", "I'm not on Twitter anymore" → avoids.
- **Fronted objects** in English: "Latex I'm allergic to", "Jazz I love".
- **Where one lives and comes from**, said without a verb: "Home for me is Tromsø", "Born in
  Derry, raised in Belfast".
"""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.constructions import ORG_DE, employer as _employer
from memlane.domain.facts.rules import ObjectKind, Rule, rule

LIST = ObjectKind.LIST
_ALLERGY = re.compile(r"^(?P<stem>.+?)[- ]?(?:allergie|allergy)$", re.IGNORECASE)
_INTOLERANCE = re.compile(r"^(?P<stem>.+?)[- ]?(?:intoleranz|unverträglichkeit|intolerance)$",
                          re.IGNORECASE)
_DISEASE = re.compile(
    r"(?:itis|osis|ose|syndrom|syndrome|krankheit|störung|disease|disorder|diabetes(?: typ \d| "
    r"type \d)?|type \d diabetes|asthma|migräne|migraines?|zöliakie|epilepsie|epilepsy|"
    r"neurodermitis|psoriasis|tinnitus|anämie|anaemia|anemia|apnoe|apnea|apnoea|krebs|cancer)$",
    re.IGNORECASE)
_STEM_TOO_SHORT = 2


def _stem(pattern: re.Pattern[str], noun: str) -> str | None:
    """What an allergy or intolerance is to: "Sojaallergie" -> "Soja", "peanut allergy" ->
    "peanut"; None when the head is another or nothing is left."""
    found = pattern.match(noun.strip())
    stem = found.group("stem").strip() if found else ""
    if len(stem) <= _STEM_TOO_SHORT:
        return None
    return stem[:1].upper() + stem[1:] if noun[:1].isupper() else stem


def _allergen(_: re.Match[str], noun: str) -> str | None:
    return _stem(_ALLERGY, noun)


def _intolerance(_: re.Match[str], noun: str) -> str | None:
    return _stem(_INTOLERANCE, noun)


def _condition(_: re.Match[str], noun: str) -> str | None:
    noun = noun.strip()
    if _ALLERGY.match(noun) or _INTOLERANCE.match(noun):
        return None
    return noun if _DISEASE.search(noun) else None


_HAVE = (r"(?:\bI (?:have|'ve got|have got|was diagnosed with|'ve been diagnosed with|have been "
         r"diagnosed with|suffer from|live with)|\bich (?:habe|leide an))")
_DIAGNOSED_DE = r"\b(?:bei mir|mir) (?:wurde|wurden|hat man) (?:\w+ )?"
_NOUN = r"(?:an? |eine |einen |ein )?(?:(?:chronic|chronische[rn]?|leichte[rn]?|mild|severe|" \
        r"serious|bad|schwere[rn]?|starke[rn]?|heftige[rn]?) )?" \
        r"(?P<o>[\w'äöüÄÖÜß-]+(?: (?:[\w'äöüÄÖÜß-]+)){0,2}?)"
_END = (r"(?=\s*(?:[,.;!]|$|\b(?:and|und|so|also|but|aber|since|seit|last|this|in|when|at|vor|"
        r"im|mit|for)\b))")
_DIAGNOSED_END = r"(?= (?:festgestellt|diagnostiziert)\b)"
_HEALTH = (("allergic_to", _allergen), ("intolerant_to", _intolerance),
           ("condition", _condition))

HEALTH: tuple[Rule, ...] = tuple(
    rule(pattern, relation, shape=shape, confidence=0.8)
    for relation, shape in _HEALTH
    for pattern in (rf"{_HAVE} {_NOUN}{_END}", rf"{_DIAGNOSED_DE}{_NOUN}{_DIAGNOSED_END}")
)

# A diet given up is no food avoided: "Mit Keto habe ich aufgehört".
_DIET_WORDS = re.compile(r"keto|diät|fasten|intervallfasten|low.?carb|paleo|vegan|vegetar\w*",
                         re.IGNORECASE)


def _not_a_diet(_: re.Match[str], habit: str) -> str | None:
    return None if _DIET_WORDS.fullmatch(habit.strip()) else habit


_NOT_ANY_MORE_DE = r"kein(?:e|en|er|es|s)? (?P<o>[\wäöüÄÖÜß -]+?) mehr\b"
GIVEN_UP: tuple[Rule, ...] = (
    # "Ich esse seit Ostern kein Fleisch mehr": a time between the verb and its "kein".
    rule(r"\bich (?:esse|trinke|rauche|nehme|kaufe) (?:seit [\wäöüß.]+(?: [\wäöüß]+)? |schon lange "
         rf"|inzwischen |mittlerweile |jetzt )+{_NOT_ANY_MORE_DE}", "avoids"),
    # "Bier trink ich keins mehr": the object fronted, its "kein" left behind.
    rule(r"^(?P<o>(?-i:[A-ZÄÖÜ])[\wäöüß-]+) (?:esse|trinke|rauche|nehme) ich (?:\w+ )?"
         r"kein(?:e|en|s|es)? mehr\b", "avoids"),
    rule(r"^mit (?:dem |der |den )?(?P<o>(?-i:[A-ZÄÖÜ])[\wäöüß-]+(?: [\wäöüß-]+)?) "
         r"(?:habe ich|hab ich) (?:\w+ )?aufgehört\b", "avoids", shape=_not_a_diet),
    rule(r"\bI(?:'m| am) not on (?P<o>(?-i:[A-Z])[\w.-]+(?: (?-i:[A-Z])[\w.-]+)?) any ?more\b",
         "avoids"),
    rule(r"\bI(?:'m| am) no longer on (?P<o>(?-i:[A-Z])[\w.-]+(?: (?-i:[A-Z])[\w.-]+)?)\b",
         "avoids"),
)

_FRONTED_EN = r"^(?P<o>(?:[\w'-]+ ){0,2}[\w'-]+),? I(?:'m| am)? (?:\w+ )?"
FRONTED: tuple[Rule, ...] = (
    rule(rf"{_FRONTED_EN}allergic to\s*[.!]?$", "allergic_to", reject_pronouns=True),
    rule(r"^(?P<o>(?:[\w'-]+ ){0,2}[\w'-]+),? I (?:really |absolutely )?(?:love|adore)"
         r"\s*[.!]?$", "likes"),
    rule(r"^(?P<o>(?:[\w'-]+ ){0,2}[\w'-]+),? I (?:really )?(?:hate|can't stand)\s*[.!]?$",
         "dislikes"),
)

_PLACE = r"(?P<o>(?-i:[A-ZÄÖÜ])[\w'-]*(?: (?-i:[A-ZÄÖÜ])[\w'-]*){0,2})"
HOME: tuple[Rule, ...] = (
    rule(rf"^home for me(?: (?:these days|now|nowadays))? is(?: now)? {_PLACE}", "lives_in"),
    rule(rf"^home(?: these days| nowadays)? is(?: now)? {_PLACE}(?: for me| these days)\b",
         "lives_in"),
    rule(rf"^born (?:and raised |and bred )?in {_PLACE}", "birthplace"),
    rule(rf"^born in [^,]+?,? (?:and )?(?:raised|brought up|grew up) in {_PLACE}", "comes_from"),
)

# "My biggest fear is deep water", "Meine einzige Allergie ist gegen Pferdehaare": a possessed
# noun that names the relation (the work and home nouns are in constructions.POSSESSED).
_OWN_EN = {"allergy": "allergic_to", "allergies": "allergic_to", "intolerance": "intolerant_to",
           "fear": "afraid_of", "phobia": "afraid_of"}
_OWN_DE = {"allergie": "allergic_to", "allergien": "allergic_to", "angst": "afraid_of",
           "unverträglichkeit": "intolerant_to", "phobie": "afraid_of"}
_WHICH_EN = r"(?:(?:only|biggest|main|worst|one|greatest|real|severe) )?"
_WHICH_DE = r"(?:(?:einzige|größte|schlimmste|wahre|schwere) )?"
_DIETS = (r"vegan|vegetarian|pescatarian|pescetarian|keto|kosher|halal|gluten-free|plant-based|"
          r"vegetarisch|pescetarisch|glutenfrei|laktosefrei|koscher")
OWNED: tuple[Rule, ...] = (
    rule(rf"\bmy {_WHICH_EN}(?P<rel>{'|'.join(_OWN_EN)}) (?:is|are|'s) (?:to |of )?(?P<o>.+)",
         _OWN_EN, kind=LIST),
    rule(rf"\b(?:mein|meine) {_WHICH_DE}(?P<rel>{'|'.join(_OWN_DE)}) (?:ist|sind) "
         r"(?:gegen |auf |vor )?(?P<o>.+)", _OWN_DE, kind=LIST),
    rule(rf"\b(?:my diet is|meine ernährung ist) (?:(?:mostly|strictly|mainly|basically|fully|"
         rf"überwiegend|streng|hauptsächlich|komplett) )?(?P<o>{_DIETS})\b", "diet"),
)
# A home said as the reason or the setting: "Since moving to Leeds I ...", "Seit dem Umzug
# nach Erfurt fahre ich ...", "I'm a nurse living in Bristol", "eine Österreicherin, die in
# Prag lebt". The main clause must be the user's.
MOVED: tuple[Rule, ...] = (
    rule(rf"^(?:ever )?(?:since|after) (?:moving|I moved) (?:to|back to) {_PLACE},? I\b",
         "lives_in"),
    rule(rf"^seit (?:dem|meinem) umzug nach {_PLACE},? \w+ ich\b", "lives_in"),
    rule(rf"\bI(?:'m| am) an? (?:[\w-]+ ){{1,3}}?(?:living|based|settled) in {_PLACE}",
         "lives_in"),
    rule(rf"\bich bin (?:ein|eine) [\wäöüß-]+,? (?:die|der) (?:seit \w+ )?in {_PLACE} "
         r"(?:lebt|wohnt)\b", "lives_in"),
)

# A home acquired: one's own place, or one bought and moved into ("bought a cottage in Devon
# and moved in"); buying alone is no move ("eine Ferienwohnung gekauft").
_HOME_NOUN = r"(?:flat|place|house|apartment|cottage|home|[\wäöüß]*wohnung|[\wäöüß]*haus|häuschen)"
ACQUIRED: tuple[Rule, ...] = (
    rule(rf"\b(?:I(?:'ve| have)? )?got (?:my|our) own {_HOME_NOUN} in {_PLACE}", "lives_in"),
    rule(rf"\b(?:ich|wir) (?:habe|haben) (?:\w+ )?(?:eine|ein) eigene[s]? {_HOME_NOUN} in {_PLACE}"
         r"(?=\s*(?:[.!,]|$))", "lives_in"),
    rule(rf"\bwe (?:bought|got) an? (?:[\w-]+ )?{_HOME_NOUN} in {_PLACE} and (?:\w+ )?moved in\b",
         "lives_in"),
    rule(rf"\bwir haben (?:ein|eine) (?:[\wäöüß-]+ )?{_HOME_NOUN} in {_PLACE} gekauft und sind "
         r"(?:[\wäöüß.]+ ){0,3}?eingezogen\b", "lives_in"),
)
# "I've supported Celtic since I was a boy": a team the user supports.
SUPPORTS: tuple[Rule, ...] = (
    rule(r"\bI(?:'ve| have)? (?:always |long )?support(?:ed)? (?P<o>(?-i:[A-Z])[\w'.-]*"
         r"(?: (?-i:[A-Z])[\w'.-]*){0,3})", "likes"),
)

# "Nichts geht über frische Brezn": a like said as a comparison with everything (the user's
# own when it opens the sentence; "Für meinen Bruder geht nichts über …" is his).
BEATS: tuple[Rule, ...] = (
    rule(r"^(?:(?:also|echt|ehrlich|ganz ehrlich|ich sag dir|ich sage dir)[, ]+)*nichts geht "
         r"(?:doch |einfach )?über (?P<o>.+)", "likes"),
)
# A workplace fronted: "Bei Siemens bin ich nicht mehr", "Bei der Sparkasse bin ich seit …".
FRONTED_WORK: tuple[Rule, ...] = (
    rule(rf"^bei {ORG_DE} bin ich nicht mehr\b", "works_at", negated=True, shape=_employer),
    rule(rf"^bei {ORG_DE} bin ich (?:schon )?seit\b", "works_at", shape=_employer),
    rule(rf"\bseit [\wäöüß.]+(?: [\wäöüß]+)? bin ich bei {ORG_DE}(?=\s*(?:[.!,;]|$))", "works_at",
         shape=_employer),
)

RULES: tuple[Rule, ...] = (*HEALTH, *GIVEN_UP, *FRONTED, *HOME, *OWNED, *MOVED, *ACQUIRED,
                           *SUPPORTS, *BEATS, *FRONTED_WORK)
