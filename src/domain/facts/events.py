"""Dated events in EN/DE statements: a first-person past action and the time it happened."""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.lexicon import word_set
from memlane.domain.facts.rules import trim
from memlane.domain.facts.time import past_date, strip_preposition

_IRREGULAR_PAST_EN = word_set("""
got ran broke bought met had left lost began became went made took gave sold found won flew
drove wrote spent quit fell built came saw did hurt split sang swam caught taught tore wore
rode shook sent lent kept held fought brought ate drank slept grew threw paid led beat hid
""")
# Regular pasts that report a wish, a feeling or speech, not something that happened.
_NOT_EVENTS_EN = word_set("""
used needed wanted hoped liked loved hated preferred promised agreed committed pledged vowed
planned seemed believed supposed guessed wondered wished mentioned asked talked told thanked
enjoyed need feed bleed breed proceed succeed exceed speed heed shed bed red wed
""")
_PAST_EN = re.compile(
    r"\b(?:I|we) (?:(?:finally|just|officially|eventually|actually|also|first|then) )?"
    r"(?P<verb>[a-z]+)\b(?P<rest>[^,;:!?]*)",
    re.IGNORECASE,
)
_AUX_DE = r"(?:ich|wir) (?:habe|haben|bin|sind)|(?:habe|haben|bin|sind) (?:ich|wir)"
_PERFECT_DE = re.compile(
    rf"\b(?:{_AUX_DE}) (?P<rest>[^,;:!?]+(?:,\s*[^,;:!?]*\bzu \w+)?)", re.IGNORECASE
)
_PRETERITE_VERBS_DE = ("hatte|war|zog|heiratete|begann|traf|kaufte|verlor|bekam|gewann|fuhr|"
                       "flog|ging|kam|machte|fing|verließ|lernte")
# The same verbs with "wir": "waren", "zogen", "heirateten".
_PRETERITE_PLURAL_DE = ("hatten|waren|zogen|heirateten|begannen|trafen|kauften|verloren|bekamen|"
                        "gewannen|fuhren|flogen|gingen|kamen|machten|fingen|verließen|lernten")
_PRETERITE_DE = re.compile(
    rf"\b(?:ich (?P<after>{_PRETERITE_VERBS_DE})|(?P<before>{_PRETERITE_VERBS_DE}) ich|"
    rf"wir (?P<wafter>{_PRETERITE_PLURAL_DE})|(?P<wbefore>{_PRETERITE_PLURAL_DE}) wir) "
    r"(?P<rest>[^,;:!?]+)",
    re.IGNORECASE,
)
# A German past participle, lower-case (nouns are capitalised): gemacht, umgezogen,
# bestanden, verloren, adoptiert; "lassen" for "scheiden lassen".
_PARTICIPLE = re.compile(
    r"^(?:[a-zäöüß]*ge[a-zäöüß]+(?:t|en)|(?:be|ver|er|ent|zer|emp|miss|unter|über|hinter|"
    r"wider|voll)[a-zäöüß]+(?:t|en)|"
    r"[a-zäöüß]+iert|lassen)$"
)
# Not participles, or ones that report a promise or plan rather than something that happened.
_NOT_PARTICIPLES = frozenset({"geboren", "gegen", "wegen", "gelegen", "ersten", "erst",
                              "besten", "eben", "eigen", "versprochen", "verpflichtet",
                              "vorgenommen", "zugesagt", "geplant", "gesagt", "erzählt"})
_APPROXIMATE = re.compile(r"\s+(?:about|around|roughly|almost|nearly|over|ungefähr|etwa|circa|"
                          r"knapp|fast)(?=\s|$)", re.IGNORECASE)
_LIGHT_VERBS = frozenset({"took", "went", "got", "had", "did", "made", "came", "was", "were",
                          "war", "hatte", "ging", "kam", "machte",
                          # Contact alone ("we had written", "I called") is talk, not news.
                          "wrote", "texted", "called", "chatted", "spoke", "geschrieben",
                          "telefoniert", "gesprochen", "geredet", "gechattet", "getextet",
                          "angerufen"})
# What did not happen is no event: "nicht gearbeitet", "kaum geschlafen" (English says "I
# didn't", which the patterns never read as a past action).
_NEGATED = re.compile(r"\b(?:nicht|nie|niemals|kein\w*|kaum|never|not|hardly)\b", re.IGNORECASE)
# "war müde", "hatte viel zu tun": a preterite before words German writes in lower case
# (adjectives, adverbs) is how one was, as "I was tired" is in English; "war in Rom" and
# "hatte Kopfschmerzen" name a place or a thing, "waren zelten" (an infinitive) an outing.
_STATE_DE = re.compile(
    r"^(?:war|waren|hatte|hatten)(?: [a-zäöüß]+)*(?: [a-zäöüß]*[^n\W]| zu [a-zäöüß]+)$"
)
# A preterite auxiliary before a participle is a pluperfect ("wir hatten geschrieben", "ich war
# umgezogen"): the participle says what happened, as in the perfect.
_PLUPERFECT_AUX_DE = frozenset({"hatte", "hatten", "war", "waren"})
_CLAUSE_END = re.compile(
    r"\s+(?:because|but|so|although|though|while|and|weil|aber|obwohl|und)\b", re.IGNORECASE
)


def _is_past_en(verb: str) -> bool:
    verb = verb.casefold()
    if verb in _NOT_EVENTS_EN:
        return False
    # "retook", "rebuilt": a repeated action is past like the action itself.
    again = verb[2:] if verb.startswith("re") else ""
    return (verb in _IRREGULAR_PAST_EN or again in _IRREGULAR_PAST_EN
            or (verb.endswith("ed") and len(verb) > 3))


def _has_participle(rest: str) -> bool:
    words = [w.strip(".,") for w in rest.split()]
    return any(_PARTICIPLE.match(w) and w not in _NOT_PARTICIPLES for w in words)


def _ends_in_participle(rest: str) -> bool:
    """Whether the clause closes on a participle ("... letzte Woche geschrieben"), not a
    participle of the next clause ("im Zoo und haben ... gesehen")."""
    words = _CLAUSE_END.split(rest, maxsplit=1)[0].split()
    return bool(words) and _has_participle(words[-1])


_PURPOSE = re.compile(r"\s*(?:to|in order to|so (?:that|I could))\s+"
                      r"(?!(?:the|a|an|my|our|his|her|their|this|that)\b)[a-z]")


def _without(text: str, date: re.Match[str]) -> str:
    """`text` with the date expression taken out (when it lies inside `text`)."""
    where = text.find(date.group(0))
    if where < 0:
        return text
    after = text[where + len(date.group(0)):]
    # "started hitting the gym last week to stay on track": a purpose after the date is why,
    # not what happened.
    if where > 0 and _PURPOSE.match(after):
        after = ""
    return " ".join((text[:where] + " " + after).split())


def _event(what: str, date: re.Match[str]) -> tuple[str, str] | None:
    what = trim(_CLAUSE_END.split(_without(what, date), maxsplit=1)[0], keep_time=True)
    # "about five years ago" leaves "about" behind once the date is taken out.
    what = _APPROXIMATE.sub("", what).strip()
    if what.casefold() in _LIGHT_VERBS:  # "took", "went": a verb alone tells nothing
        return None
    if _NEGATED.search(what) or _STATE_DE.match(what):
        return None
    return (what, strip_preposition(date.group(0))) if what else None


def events(clause: str) -> list[tuple[str, str]]:
    """(what happened, when) for each dated first-person past action in `clause`."""
    found: list[tuple[str, str]] = []
    en_date, de_date = past_date(clause, lang="en"), past_date(clause, lang="de")
    if en_date is not None:
        for match in _PAST_EN.finditer(clause):
            if _is_past_en(match.group("verb")):
                found.append(_event(match.group("verb") + match.group("rest"), en_date) or ("", ""))
    if de_date is not None:
        for match in _PERFECT_DE.finditer(clause):
            if _has_participle(match.group("rest")):
                found.append(_event(match.group("rest"), de_date) or ("", ""))
        for match in _PRETERITE_DE.finditer(clause):
            verb = (match.group("after") or match.group("before") or match.group("wafter")
                    or match.group("wbefore")).casefold()
            rest = match.group("rest")
            if verb in _PLUPERFECT_AUX_DE and _ends_in_participle(rest):
                found.append(_event(rest, de_date) or ("", ""))
            else:
                found.append(_event(f"{verb} {rest}", de_date) or ("", ""))
    return [event for event in found if event[0]]
