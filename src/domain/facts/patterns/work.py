"""Jobs and homes said indirectly, EN and DE: promotions and new jobs ("they made me a staff
engineer", "ich wurde als Dozentin eingestellt"), workplaces without "work at" ("I'm at
Klarna now", "ich bin bei der Telekom angestellt"), homes ("I live with my parents in Porto",
"wir wohnen etwas außerhalb von Dublin")."""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.de import occupation_de
from memlane.domain.facts.patterns.en import occupation
from memlane.domain.facts.rules import Rule, rule

W = r"[\wäöüÄÖÜß-]+"
JOB_EN = r"(?:a |an |the )?(?P<o>[\w-]+(?: [\w-]+){0,3}?)"
_JOB_TALK = re.compile(r"\b(?:job|jobs|work|switched jobs|company|employer|hired|started|"
                       r"stelle|arbeitgeber|gewechselt|firma)\b", re.IGNORECASE)
_ENDS_EN = ("at", "for", "with", "in", "and", "since", "from", "last", "this", "next", "on")
_ENDS_DE = ("bei", "an", "am", "im", "in", "für", "und", "seit", "bekommen", "eingestellt")


def _capitalised(_: re.Match[str], value: str) -> str | None:
    """An employer named by its name ("Stripe"), not "a book club"."""
    return value if value[:1].isupper() else None


_DURATION = re.compile(r"^(?:\w+ )?(?:years?|months?|weeks?|days?|ages|a while|decades?|jahren|"
                       r"monaten|wochen)\b|^\d", re.IGNORECASE)


def _employer(_: re.Match[str], value: str) -> str | None:
    """An employer, not how long ("a nurse for 12 years") nor a retirement ("im Ruhestand")."""
    return None if _DURATION.match(value) or value.casefold() in ("ruhestand", "rente") else value


def _about_work(match: re.Match[str]) -> bool:
    return _JOB_TALK.search(match.string) is not None


JOB = {"stops": _ENDS_EN, "confidence": 0.85}
PLACE = {"stops": ("as", "and", "since", "for"), "confidence": 0.85}
JOB_DE = {"stops": _ENDS_DE, "confidence": 0.85}

RULES: tuple[Rule, ...] = (
    # EN: a job got or changed.
    rule(rf"\bI(?:'ve| have)? (?:just |recently |finally )?(?:got |was |been )?promoted to {JOB_EN}"
         r"(?= at| for| with| in|[,.!]|$)", "works_as", **JOB),
    rule(rf"\b(?:they|the company|my boss|my company|work) (?:just |finally )?made me {JOB_EN}"
         r"(?= at| for| with| in| last| this|[,.!]|$)", "works_as", **JOB),
    rule(r"\bI(?:'ve| have)? (?:just |recently |finally )?(?:got|landed|found|took|accepted|been "
         rf"offered|been hired for) (?:a |the |my )?(?:new )?(?:job|position|role|post) as "
         rf"{JOB_EN}(?= at| for| with| in|[,.!]|$)", "works_as", **JOB),
    rule(r"\bI(?:'ve| have)? (?:just |recently |finally )?(?:been |got |was )?hired as "
         rf"{JOB_EN}(?= at| for| with| in|[,.!]|$)", "works_as", **JOB),
    rule(r"\b(?:job|position|role|post|hired) as (?:a |an )?[\w-]+(?: [\w-]+){0,3}? (?:at|with|by) "
         r"(?P<o>.+)", "works_at", **PLACE),
    rule(r"\bI (?:just |recently )?joined (?P<o>[A-Z][\w&.-]*(?: [A-Z][\w&.-]*){0,2})",
         "works_at", accept=_about_work, shape=_capitalised, **PLACE),
    rule(r"\bI(?:'m| am) (?:now )?at (?P<o>[A-Z][\w&.-]*(?: [A-Z][\w&.-]*){0,2}) now\b",
         "works_at", accept=_about_work, shape=_capitalised, **PLACE),
    rule(r"\bI(?:'m| am)? (?:now |currently )?teaching (?:[\w-]+ ){0,3}?at (?P<o>.+)",
         "works_at", **PLACE),
    rule(r"\bI(?:'ve| have) been (?:a|an) (?P<job>[\w-]+(?: [\w-]+){0,2}?) (?:at|for|with) "
         r"(?P<o>.+)", "works_at", accept=lambda m: occupation(m, m.group("job")) is not None,
         shape=_employer, **PLACE),
    rule(r"\bI(?:'ve| have) been (?:a|an) (?P<o>[\w-]+(?: [\w-]+){0,3}?)"
         r"(?= at| for| with| since|[,.!]|$)", "works_as", shape=occupation, **JOB),
    rule(rf"\bI(?:'ve| have) (?:been )?work(?:ed|ing) as {JOB_EN}(?= at| for| with| since| in|"
         r"[,.!]|$)", "works_as", **JOB),
    rule(rf"\boffered me (?:a|the) {JOB_EN} (?:role|position|job|post)\b", "works_as", **JOB),
    rule(rf"\bI (?:just |recently )?started (?:out )?as {JOB_EN}(?= at| for| with|[,.!]|$)",
         "works_as", **JOB),
    rule(r"\bI (?:just |recently )?started (?:out )?as (?:a |an )?[\w-]+(?: [\w-]+){0,3}? "
         r"(?:at|with|for) (?P<o>.+)", "works_at", **PLACE),
    rule(r"\bI(?:'ve| have) (?:been )?work(?:ed|ing) (?:at|for) (?P<o>.+)", "works_at", **PLACE),
    rule(r"\b(?P<o>[A-Z][\w&.-]*(?: [A-Z][\w&.-]*){0,2}) (?:hired|took on) me as\b", "works_at",
         **PLACE),
    rule(rf"\bhired me as {JOB_EN}(?= at| for| with|[,.!]|$)", "works_as", **JOB),
    rule(r"\bmir wurde (?:[\w.]+ ){0,3}?bei (?P<o>.+?) gekündigt\b", "works_at", negated=True,
         **PLACE),
    rule(r"\bich bin [^,]+, (?P<o>[A-ZÄÖÜ][\wäöüß-]+)\s*[.!]?$", "works_as",
         shape=occupation_de, **JOB_DE),
    # EN: a home said otherwise.
    rule(r"\b(?:I|we)(?:'ve| have)? (?:just )?moved in with (?:my|our) \w+(?: \w+)? in (?P<o>.+)",
         "lives_in", **PLACE),
    rule(r"\b(?:I|we) live with (?:my|our) [\w ]{1,30}? in (?P<o>.+)", "lives_in", **PLACE),
    rule(r"\b(?:I|we) (?:live|are living|'re living) (?:on|at) (?P<o>(?:a|an|the) .+)",
         "lives_in", **PLACE),
    rule(r"\b(?:I|we)(?:'ve| have)? (?:just |recently |finally )?moved into (?:a |our |my |the )?"
         r"(?:new |own )?(?:place|flat|apartment|house|home|condo)(?: of our own)? in (?P<o>.+)",
         "lives_in", **PLACE),
    rule(r"\b(?:I|we)(?:'ve| have)? (?:just |recently |finally )?moved in together (?:in|to) "
         r"(?P<o>.+)", "lives_in", **PLACE),
    rule(r"\b(?:ich bin|wir sind) (?:[\w.]+ ){0,4}?in (?P<o>[A-ZÄÖÜ][\wäöüß-]+) zusammengezogen\b",
         "lives_in", **PLACE),
    rule(r"\b(?:I|we)(?:'ve| have) (?:finally )?settled (?:down )?in (?P<o>.+)", "lives_in",
         **PLACE),
    rule(r"\b(?:I|we)(?:'ve| have)? (?:emigrated|immigrated) to (?P<o>.+)", "lives_in", **PLACE),
    # DE: a job got or changed.
    rule(rf"\bich wurde (?:gerade |jetzt |endlich |letzte woche )?zu(?:m|r) (?P<o>{W}) befördert",
         "works_as", **JOB_DE),
    rule(rf"\b(?:eine|die|meine) (?:neue )?(?:stelle|position|anstellung) als (?P<o>{W})",
         "works_as", shape=lambda m, v: occupation_de(m, v) or v, **JOB_DE),
    rule(rf"\bich wurde als (?P<o>{W}) (?:an|bei|von|im|in)\b", "works_as", **JOB_DE),
    rule(r"\b(?:stelle|position|anstellung|job) (?:als [\wäöüß-]+ )?bei (?P<o>.+?)"
         r"(?: bekommen| angetreten| angenommen)?\s*[.!]?$", "works_at", **PLACE),
    rule(r"\bich wurde als [\wäöüß-]+ (?:an|bei) (?P<o>.+?) eingestellt", "works_at", **PLACE),
    rule(r"\bmein (?:neuer )?(?:job|arbeitsplatz|arbeitgeber) ist (?:jetzt )?bei (?P<o>.+)",
         "works_at", **PLACE),
    rule(r"\bich bin (?:jetzt |seit \w+ )?(?:bei|an) (?P<o>.+?) (?:angestellt|beschäftigt|tätig)\b",
         "works_at", **PLACE),
    rule(r"\bich arbeite (?:(?:nachts|tagsüber|abends|jetzt|seit \w+(?: \w+)?|inzwischen|gerade) )*"
         r"(?:in|im) (?P<o>(?:einem|einer|der|dem) .+)", "works_at",
         unless=re.compile(
             r"\bin (?:der|einer) [\w-]*(?:abteilung|schicht)\b|\bim (?:homeoffice|büro)\b|"
             # A field, not a workplace: "in der IT", "in der Pflege" (works_in).
             r"\bin der (?:IT|[\w-]*(?:branche|pflege|forschung|verwaltung|gastronomie|"
             r"logistik|industrie))\b(?!-)", re.I),
         **PLACE),
    rule(r"\bin der [\wäöüß-]*abteilung (?P<o>(?:einer|eines|der|des) .+)", "works_at",
         accept=lambda m: re.search(r"\bich arbeite\b", m.string, re.I) is not None, **PLACE),
    rule(r"\bich unterrichte (?:(?:jetzt|inzwischen|seit \w+) )?(?:[\wäöüß]+ ){0,2}?an "
         r"(?P<o>(?:einer|einem|der|dem) .+)", "works_at", **PLACE),
    # DE: a home said otherwise.
    rule(r"\b(?:ich|wir) (?:wohne|wohnen|lebe|leben) (?P<o>(?:etwas |direkt |kurz |gleich |ganz )?"
         r"(?:außerhalb von|in der nähe von|am stadtrand von|nahe) .+)", "lives_in", **PLACE),
    rule(r"^zu ?hause (?:ist für mich|bin ich in) (?P<o>.+)", "lives_in", **PLACE),
    rule(r"\b(?:ich bin|wir sind) (?:[\w.]+ ){0,7}?nach (?P<o>.+?) (?:ausgewandert|übergesiedelt)",
         "lives_in", **PLACE),
)
