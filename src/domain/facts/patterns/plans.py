"""Dated appointments, deadlines and plans, EN and DE ("I have a dentist appointment tomorrow at
8", "Morgen um 8 bin ich beim Zahnarzt", "My tax return is due on July 31", "Am 3. Juli muss
ich den Vertrag kündigen"). The date itself is read by time.py; a plan is only a commitment
when a day is named (or it recurs: "every Monday", "jeden Montag")."""

from __future__ import annotations

import re

from memlane.domain.facts.dates import mentions_date
from memlane.domain.facts.patterns.de import infinitive
from memlane.domain.facts.patterns.lexicon import word_set
from memlane.domain.facts.rules import Rule, rule

# Goodbyes that name a day without committing to anything ("see you tomorrow").
_FORMULA = re.compile(r"\b(?:see you|talk (?:to you )?(?:soon|later|tomorrow)|sehen uns|hören uns|"
                      r"sprechen uns|bis morgen|bis bald)\b", re.IGNORECASE)
_RECURS = re.compile(r"\b(?:every|each|jeden|jede|jeder|jedes|immer|am ersten|am letzten|"
                     r"am wochenende|"
                     r"(?:mon|tues|wednes|thurs|fri|satur|sun)days|\w+tags|sonntags|"
                     r"wochenends)\b", re.IGNORECASE)
_APPOINTMENT_EN = (r"(?:appointment|appt|interview|exam|test|haircut|meeting|call|flight|"
                   r"surgery|operation|lesson|class|court date|hearing|check-?up|session|shift|"
                   r"presentation|viewing|consultation|scan|vaccination|jab|physio|therapy|"
                   r"massage|deadline|trip)")
_APPOINTMENT_DE = (r"[\wäöüß-]*(?:termin|gespräch|prüfung|call|meeting|flug|operation|stunde|"
                   r"kurs|sitzung|untersuchung|impfung|schicht|dienst|verabredung|physio|"
                   r"therapie|massage|training|präsentation)")
_DUE_EN = (r"(?:appointment|interview|exam|test|deadline|flight|surgery|operation|lesson|"
           r"meeting|hearing|report|thesis|dissertation|tax return|taxes|rent|invoice|bill|"
           r"application|payment|essay|paper|assignment|presentation|court date|check-?up|"
           r"renewal|submission|homework|car|service)")
_DUE_DE = (r"[\wäöüß-]*(?:termin|prüfung|frist|bericht|arbeit|miete|rechnung|abgabe|flug|"
           r"operation|auto|gespräch|antrag|bewerbung)")
# -ing words that say how someone is, not what they will do.
_NOT_PLANS = frozenset({
    "being", "feeling", "thinking", "wondering", "hoping", "trying", "looking", "doing",
    "kidding", "joking", "loving", "enjoying", "struggling", "dying", "missing", "waiting",
    "planning", "considering", "getting", "going", "expecting", "turning",
})
_PARTICLES_DE = ("zurück", "an", "auf", "ab", "aus", "ein", "mit", "vor", "los", "weg", "hin",
                 "her", "zu", "nach", "fest", "vorbei")
# A clause ending in a participle happened ("ich bin im Mai zu Bosch gewechselt").
_PAST_PARTICIPLE = re.compile(r"\b(?:ge\w+(?:t|en)|\w+iert|\w+(?:ge|ver|be|er|ent)\w+(?:t|en))"
                              r"\s*[.!;]?\s*(?:;.*)?$", re.IGNORECASE)
# First-person verbs that state no plan of their own (modals and feelings have their rules).
_NOT_PLAN_VERBS_DE = word_set("""
bin habe hab muss kann darf will soll werde möchte mag liebe hasse weiß glaube denke finde
hoffe wünsche brauche freue überlege frage lerne lebe wohne arbeite heiße komme esse trinke
rauche vertrage sind haben müssen können dürfen wollen sollen werden mögen lieben wissen
glauben denken finden hoffen brauchen freuen überlegen wohnen arbeiten leben heißen kommen
war waren hatte hatten wurde wurden ging gingen kam kamen fuhren flogen sahen trafen aßen
tranken blieben liefen saßen lagen standen schliefen schrieben lasen sangen fanden gaben
nahmen riefen zogen wussten dachten brachten
""")


def dated(match: re.Match[str]) -> bool:
    """Whether the clause names a day ahead (a plan without a day is no commitment, and one
    that recurs, "jeden Sonntag", is a habit)."""
    return (mentions_date(match.string) and not _FORMULA.search(match.string)
            and not _RECURS.search(match.string))


def booked(match: re.Match[str]) -> bool:
    """An appointment: dated, or recurring ("physio every Monday", "jeden Montag")."""
    return dated(match) or bool(_RECURS.search(match.string))


def _own(_: re.Match[str], value: str) -> str:
    """"my driving test on the 25th" -> "driving test on the 25th"."""
    return re.sub(r"^(?:my|our|the) ", "", value, flags=re.IGNORECASE)


def _ing_plan(match: re.Match[str], value: str) -> str | None:
    first = value.split()[0].casefold()
    if first in _NOT_PLANS and not re.match(r"going to (?:the|a|an|my|our|[A-Z]\w*)\b", value):
        return None
    if first == "getting" and not re.match(r"getting (?:my|a|an|the)\b", value):
        return None
    return value


def _with_possessor(match: re.Match[str]) -> bool:
    dated = mentions_date(match.string) or bool(_RECURS.search(match.string))
    return dated and re.search(r"\b(?:my|our|mein\w*|unser\w*)\b", match.string,
                               re.IGNORECASE) is not None


def _due(match: re.Match[str]) -> bool:
    return _with_possessor(match) or (
        re.search(r"\b(?:due|fällig)\b", match.string, re.IGNORECASE) is not None
        and re.match(r"(?:my|our|mein|meine|unser)\b", match.group(0), re.IGNORECASE)
        is not None)


def plan_de(match: re.Match[str], _: str) -> str | None:
    """'ich rufe morgen früh den Klempner an' -> 'morgen früh den Klempner anrufen'."""
    verb = match.group("verb").casefold()
    if verb in _NOT_PLAN_VERBS_DE or verb.endswith(("te", "ten")):
        return None
    rest = re.split(r"\s*[;,(]", match.group("rest"), maxsplit=1)[0].rstrip(" .!?")
    words = rest.split()
    particle = words.pop() if words and words[-1].casefold() in _PARTICLES_DE else ""
    # "wir fahren" is already an infinitive; "ich fahre" becomes one.
    base = verb if match.group("who").casefold() == "wir" else infinitive(verb)
    return " ".join([*words, particle + base]) if words else None


PLAN = {"relation": "commits_to", "keep_time": True, "reject_pronouns": False,
        "confidence": 0.8}


def _plan(pattern: str, **options: object) -> Rule:
    return rule(pattern, **{**PLAN, **options})  # type: ignore[arg-type]


RULES: tuple[Rule, ...] = (
    _plan(r"\bI(?:'ve got| have got| have| got) (?!to\b)(?P<o>(?:(?:a|an|my|our|the|another) )?"
          rf"(?:[\w'-]+ ){{0,3}}?{_APPOINTMENT_EN}\b.*)", accept=booked, shape=_own),
    _plan(r"\b(?:I|we)(?:'m| am|'re| are) (?P<o>\w+ing\b.+)", accept=dated, shape=_ing_plan),
    _plan(r"\bI(?:'ve| have) (?P<o>(?:booked|scheduled|arranged|reserved|organi[sz]ed|set up) "
          r".+)", accept=dated),
    _plan(rf"(?:^|\b)(?:my|our|the) (?P<o>(?:[\w'-]+ ){{0,4}}?{_DUE_EN}\b[^.;!?]*?\b(?:is|are) "
          r".+)", accept=_due),
    _plan(r"\bI have until [^,]+? to (?P<o>.+)"),
    _plan(r"\bI(?:'ll| will) (?P<o>be (?:at|in|on|away|off|\w+ing) .+)", accept=dated),
    _plan(r"\bI (?P<o>(?:start|begin|fly|leave|visit|move|travel|return|arrive)\b.+)",
          accept=dated),
    _plan(r"\bich habe (?P<o>(?:[\w.:]+ ){0,7}?(?:(?:einen|eine|ein|meinen|meine|mein) )?"
          rf"{_APPOINTMENT_DE}\b.*)", accept=booked),
    _plan(r"\bich bin (?P<o>(?:[\w.:]+ ){0,5}?(?:beim|bei der|bei dem|im|in der|zum|zur) "
          r"[A-ZÄÖÜ].*)", accept=lambda m: dated(m) and not _PAST_PARTICIPLE.search(m.string)),
    _plan(r"\bich habe (?P<o>.+? (?:reserviert|gebucht|vereinbart|ausgemacht|angemeldet))\b",
          accept=dated),
    _plan(rf"(?:^|\b)(?:mein|meine|die|der|das) (?P<o>{_DUE_DE}\b[^.;!?]*?\b(?:ist|sind) .+)",
          accept=_due),
    _plan(r"\bich habe bis [^,]+? zeit,? (?P<o>.+)"),
    _plan(rf"\bdass ich (?P<o>(?:[\w.:]+ ){{0,5}}?(?:(?:einen|eine|ein) )?{_APPOINTMENT_DE}) "
          r"habe\b", accept=dated),
    _plan(r"\bich werde (?P<o>.+? (?:operiert|geimpft|untersucht|abgeholt|behandelt|geröntgt))\b",
          accept=dated),
    _plan(r"^(?P<who>ich|wir) (?P<verb>[a-zäöüß]{2,}e|[a-zäöüß]{2,}en) (?P<rest>.+)",
          group="verb", shape=plan_de, accept=dated),
)
