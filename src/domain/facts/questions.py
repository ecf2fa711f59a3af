"""Which fact relations an EN/DE question asks about, so retrieval reaches facts by meaning."""

from __future__ import annotations

import re

from memlane.domain.facts.colloquial import spelled_out

JOB = frozenset({"works_as", "works_at"})
LIKES = frozenset({"likes", "prefers"})
ALLERGIES = frozenset({"allergic_to", "intolerant_to"})
FOOD_LIMITS = frozenset({"allergic_to", "intolerant_to", "cannot", "avoids", "diet"})
AGE = frozenset({"age", "birthday", "birth_year"})
KIDS = frozenset({"children", "son", "daughter"})


def _cue(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# Dislikes are checked first: "was mag ich nicht" must not also ask what is liked.
_DISLIKES = _cue(r"\b(?:hate|dislike|don't i like|do i not like|can't i stand|mag ich nicht|"
                 r"mag ich kein\w*|hasse ich|gefällt mir nicht|ich (?:\w+ ){0,3}nicht gerne?|"
                 r"i (?:don't|do not) (?:like|enjoy))\b")
_QUESTIONS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (_cue(r"\b(?:my (?:job|work|employer|occupation|profession|career|company)|do i work|"
          r"where i work|(?:do i do|i do) for a living|what do i do\b(?! on| at| in| with)|"
          r"am i employed|mein(?:e|en)? (?:beruf|job|arbeit|arbeitgeber|firma|stelle)|"
          r"arbeite ich|mache ich beruflich|ich beruflich|bin ich angestellt|"
          r"bin ich beschäftigt)\b"), JOB),
    (_cue(r"\b(?:do i live|i live|am i living|i'm living|my (?:address|city|flat|apartment)|"
          r"where is home|wohne ich|lebe ich|ich wohne|ich lebe|mein(?:e)? (?:adresse|wohnort|"
          r"zuhause|wohnung))\b"), frozenset({"lives_in"})),
    (_cue(r"\b(?:where am i from|where do i come from|where did i grow up|my home ?town|"
          r"woher komme ich|komme ich (?:ursprünglich )?aus|wo(?:her)? stamme ich|"
          r"meine heimat(?:stadt)?)\b"), frozenset({"comes_from"})),
    (_cue(r"\b(?:where was i born|my birthplace|wo bin ich geboren|wo wurde ich geboren|"
          r"mein geburtsort)\b"), frozenset({"birthplace"})),
    (_cue(r"\b(?:birthday|geburtstag)\b"), frozenset({"birthday"})),
    (_cue(r"\b(?:when was i born|what year was i born|wann bin ich geboren|"
          r"wann wurde ich geboren|mein(?:em)? geburtsjahr|welche[mr]? (?:jahr|jahrgang)\b.*"
          r"geboren|welcher jahrgang|year (?:was )?i (?:was )?born)\b"),
     frozenset({"birthday", "birth_year"})),
    (_cue(r"\b(?:how old am i|my age|wie alt bin ich|mein alter)\b"), AGE),
    (_cue(r"\b(?:my name|what am i called|what i'm called|what i am called|"
          r"what do you call me|wie heiße ich|wie ich heiße|mein(?:en)? name|^who am i\s*\??$)"),
     frozenset({"name"})),
    (_cue(r"\b(?:my (?:wife|husband|partner|spouse|girlfriend|boyfriend|fianc[ée]e?)|"
          r"am i married|who am i married to|am i (?:dating|engaged)|mein(?:e)? (?:frau|mann|"
          r"ehefrau|ehemann|partner(?:in)?)|bin ich verheiratet|mit wem bin ich verheiratet)\b"),
     frozenset({"partner"})),
    (_cue(r"\b(?:my sisters?|meine schwester\w*)\b"), frozenset({"sister"})),
    (_cue(r"\b(?:my brothers?|mein(?:e)? br[uü]der\w*)\b"), frozenset({"brother"})),
    (_cue(r"\b(?:siblings|geschwister)\b"), frozenset({"sister", "brother"})),
    (_cue(r"\b(?:my (?:mother|mom|mum)|meine (?:mutter|mama))\b"), frozenset({"mother"})),
    (_cue(r"\b(?:my (?:father|dad)|mein (?:vater|papa))\b"), frozenset({"father"})),
    (_cue(r"\b(?:my (?:kids|children|sons?|daughters?)|do i have (?:kids|children)|"
          r"meine kinder|mein sohn|meine tochter|meine söhne|meine töchter|habe ich kinder)"),
     KIDS),
    (_cue(r"\b(?:pets?|(?:my|our) (?:dog|cat|puppy|kitten|parrot|hamster|rabbit|horse)|"
          r"haustier\w*|(?:mein|unser)(?:e|en)? (?:hund|katze|kater|papagei|hamster|kaninchen|"
          r"pferd))\b"),
     frozenset({"pet"})),
    (_cue(r"\b(?:what do i (?:like|love|enjoy)|do i (?:like|love|enjoy)|favou?rite|fave|"
          r"prefer|rather|was mag ich|mag ich|was liebe ich|lieblings\w*|was gefällt mir|"
          r"lieber|bevorzuge)\b"), LIKES),
    (_cue(r"\ballerg\w*"), ALLERGIES),
    (_cue(r"\b(?:can't i eat|cannot i eat|can i eat|can i drink|should i (?:avoid|not eat)|"
          r"i (?:can't|cannot|shouldn't|mustn't) (?:eat|drink|have)|ich nicht (?:essen|trinken)|"
          r"darf ich (?:\w+ )?(?:essen|trinken)|"
          r"am i (?:vegan|vegetarian|pescatarian)|my diet|dietary|darf ich (?:nicht|kein\w*)|"
          r"bin ich (?:vegetarier\w*|veganer\w*|vegan|vegetarisch)|meine ernährung|"
          r"esse ich nicht|intoleran\w*|unverträglich\w*)"), FOOD_LIMITS),
    (_cue(r"\b(?:when (?:should|can)(?:n't)? you (?:not )?(?:schedule|call|book)|"
          r"(?:scheduling|calendar) rules|wann (?:darfst|sollst) du (?:mich )?(?:nicht )?"
          r"(?:anrufen|planen|buchen))\b"), frozenset({"rule"})),
    (_cue(r"\b(?:promised?|committed|supposed to do|have to do|need to do|going to do|my plans|"
          r"to-?dos?|what will i do|am i going to|versproch\w*|vorgenommen|habe ich vor|"
          r"muss ich (?:noch )?(?:tun|machen|erledigen)|meine pläne|zugesagt|planned|"
          r"appointments?|my schedule|on my calendar|(?:what's|what is) (?:coming )?up|"
          r"termin\w*|steht\b.*\ban\b|habe ich\b.*\bvor\b|mein(?:en)? kalender)\b"),
     frozenset({"commits_to"})),
    (_cue(r"\b(?:what (?:kind|sort) of (?:a )?person am i|describe me|my personality|"
          r"my character|what am i like|was für ein mensch bin ich|wie bin ich so|"
          r"meine persönlichkeit|mein(?:en)? charakter|beschreib\w* mich|my character\w*|"
          r"was für ein typ bin ich)\b"), frozenset({"trait"})),
    (_cue(r"\b(?:nationality|citizenship|staatsangehörigkeit|nationalität)\b"),
     frozenset({"nationality", "comes_from"})),
    # A relation's own word in the question, EN and DE (issue 23, fourth round).
    (_cue(r"\b(?:afraid|scared|frightened|fears?|phobia\w*|angst|fürchte\w*|wovor)\b"),
     frozenset({"afraid_of"})),
    (_cue(r"\b(?:health conditions?|medical conditions?|illness\w*|diagnos\w*|"
          r"vorerkrankung\w*|krankheit\w*|erkrankung\w*)\b"), frozenset({"condition"})),
    (_cue(r"\b(?:unable to|can't i do|what can't i|kann ich (?:gar )?nicht\s*\??$|"
          r"was kann ich nicht)\b"), frozenset({"cannot"})),
    (_cue(r"\b(?:rules?|regeln?)\b"), frozenset({"rule"})),
    (_cue(r"\b(?:ernähr\w*)\b"), frozenset({"diet"})),
    (_cue(r"\b(?:verzicht\w*|given up|gave up|do i avoid)\b"), frozenset({"avoids"})),
    (_cue(r"\b(?:vertrage? ich)\b"), frozenset({"intolerant_to"})),
    (_cue(r"\b(?:bin ich zusammen|mit wem bin ich|am i (?:seeing|with)|who am i with)\b"),
     frozenset({"partner"})),
    (_cue(r"\b(?:do i have an? (?:sister|brother)|hab(?:e)? ich eine schwester|"
          r"hab(?:e)? ich einen bruder)\b"), frozenset()),
    (_cue(r"\b(?:based in|where am i (?:living|based|staying))\b"), frozenset({"lives_in"})),
    (_cue(r"\b(?:originally from|where (?:am i|do i come) originally from)\b"),
     frozenset({"comes_from"})),
    (_cue(r"\b(?:how many (?:kids|children)|wie viele kinder)\b"), KIDS),
    (_cue(r"\b(?:what have i got on|what's on (?:for )?tomorrow|got on tomorrow)\b"),
     frozenset({"commits_to"})),
)
_SIBLING = _cue(r"\b(?:do i have an? |hab(?:e)? ich (?:eine |einen )?)(?P<who>sister|brother|"
                r"schwester|bruder)\b")
# "When did I ...", asked of nothing more specific, asks for a dated event.
_EVENT = _cue(r"\b(?:when did i|wann habe ich|wann bin ich|when was the last time i|"
              r"what did i do|what have i been up to|was habe ich (?:\w+ ){0,4}gemacht|"
              r"was habe ich (?:\w+ ){0,4}erlebt|wo war ich|get up to|got up to)\b")


def relations_asked(query: str) -> frozenset[str]:
    """The relations whose facts answer `query` (empty when it asks about none)."""
    query = spelled_out(query)
    if _DISLIKES.search(query):
        return frozenset({"dislikes"})
    asked: set[str] = set()
    for cue, relations in _QUESTIONS:
        if cue.search(query):
            asked |= relations
    sibling = _SIBLING.search(query)
    if sibling is not None:
        asked.add("sister" if sibling.group("who").casefold() in ("sister", "schwester")
                  else "brother")
    if not asked and _EVENT.search(query):
        asked.add("event")
    return frozenset(asked)
