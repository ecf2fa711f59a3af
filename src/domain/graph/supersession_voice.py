"""Whose words and for how long (EN/DE): reports, idioms, stays, kept and handed-on values."""

from __future__ import annotations

import re

# Someone else's words, quoted ("Meine Ärztin sagt: 'Intervallfasten ist kein Problem.'", "A
# recruiter rang saying 'go for accountant roles'"): what they say is not what the user says
# holds. A quote opens after a space, a colon or the start and closes before a space or a
# punctuation mark, so an apostrophe ("you'd", "passport's") neither opens nor closes one.
_QUOTE = re.compile(
    # (German, English and French quotation marks and the ellipsis, by code point.)
    r"(?:(?<=\s)|(?<=^)|(?<=:))[\"\u201e\u201c\u201d\u201a\u2018'\u00ab\u00bb]"
    r"[^\"\u201e\u201c\u201d\u00ab\u00bb]*?[\w.!?,\u2026]"
    r"[\"\u201c\u201d\u2018\u2019'\u00ab\u00bb](?=[\s.,!?;:)]|$)"
)
# "..., die Ärztin sagt, von Prädiabetes kann keine Rede mehr sein", "my brother says: ...":
# a report of another's words, to the end of its sentence. (The user's own "I said" reports
# the user; "says so on the card" reports nothing.)
_REPORTED = re.compile(
    r"(?:^|(?<=[,;.!?]))\s*(?:(?!i\s|ich\s)[\w.'-]+\s+){1,3}"
    r"(?:says|said|sagt|sagte|meint|meinte|reckons|findet|told me|hat gesagt)\s*[:,]"
    r"[^.!?]*",
    re.IGNORECASE,
)
# Negative idioms that deny nothing about the topic ("no need to renew", "kein Problem", "no
# worries"): no polarity for a flip to rest on.
NEGATIVE_IDIOM = re.compile(
    r"(?<!\w)(?:no need(?: to)?|no problem|no worries|not bad|not a problem|no wonder|"
    r"no doubt|kein problem|keine sorge|kein wunder|nicht schlecht|kein thema|"
    r"keine frage)(?!\w)"
)
# A stay bounded by a short span ("Tom was in London for the whole weekend", "für ein paar
# Tage bei Oma", "vorübergehend bei meinen Eltern"): it ends by itself and replaces nothing
# that holds. (When a change happened, "over the weekend", is no bound: "migrated every note
# to Obsidian over the weekend".)
TEMPORARY = re.compile(
    r"(?<!\w)(?:for the (?:whole |entire )?(?:weekend|week|night|day|evening)|"
    r"for (?:a|one|two|three|a few|a couple of) (?:days|nights|weeks|day|night|week)|"
    r"temporarily|"
    r"für (?:ein paar|einige|zwei|drei|eine|ein) (?:tage|tag|nächte|nacht|wochen|woche)|"
    r"vorübergehend|vorläufig nur)(?!\w)"
)
# The old value said to stay beside what is new ("das Akkordeon bleibt aber", "I'm keeping
# the allotment though"): an addition, not a replacement.
KEPT = re.compile(
    r"(?<!\w)(?:bleibt|bleiben|behalte|behalten)\s+(?:\w+\s+)?(?:aber|trotzdem|weiterhin|"
    r"bestehen|auch)(?!\w)|(?<!\w)(?:\w+\s+)?(?:bleibt|bleiben)\s*(?:[,.;!]|$)"
    r"|(?<!\w)(?:i'm|i am|we're|we are)\s+still\s+keeping(?!\w)"
    r"|(?<!\w)keeping\s+(?:the|my|our)\s+(?:\w+\s+){1,2}?(?:though|too|as well)(?!\w)"
    r"|(?<!\w)(?:stays|is staying|are staying)\s*(?:though|too|as well)?\s*(?:[,.;!]|$)"
)

# A word that dates a value ("September", "Montag", "tomorrow"): with one the older statement
# lacks, the same year is no restatement ("postponed the wedding to September 2025").
CALENDAR_WORD = re.compile(
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mär|mai|okt|dez)\w*$"
    r"|\w*(?:day|days|tag|tage|morgen|week|woche|month|monat|night|nacht)$"
)

# A new one of a thing ("New passport came through the post", "Neuer Perso ist abgeholt"):
# the thing the user had is replaced by it.
RENEWED = re.compile(r"(?<!\w)(?:new|brand-new|brand new|neue[rsnm]?|nagelneue[rsnm]?)\s+"
                      r"(?:(?:own|eigene[rsnm]?|\w+-)\s+)?(?P<thing>[^\W\d]{3,})")

# The new thing as what the statement opens with ("New passport came through the post today",
# "Mein neuer Perso ist da"), not one tried or reached ("test-drove a new Volvo").
RENEWED_SUBJECT = re.compile(r"^(?:(?:my|our|the|mein\w*|unser\w*|der|die|das)\s+)?"
                             + RENEWED.pattern)

# A state that waits for its end ("on the waiting list for a kidney", "ich bin arbeitsuchend
# gemeldet", "I'm looking for work"): what it waits for, arriving, replaces it.
PENDING = re.compile(
    r"(?<!\w)(?:looking for (?:a |some |new )?(?:work|job|jobs|flat|place|house|room)|"
    r"job[- ]?hunting|job[- ]?seeking|(?:on|on the|on a) waiting list|waiting list|"
    r"warteliste|arbeitsuchend|arbeitssuchend|arbeitslos|unemployed|jobsuche|"
    r"such\w* (?:\w+ ){0,2}(?:job|stelle|arbeit|wohnung|was neues|etwas neues)|"
    r"applying for|applied for|beantragt|waiting for (?:a|my|the)|warte auf)(?!\w)"
)


def renewed(norm: str, holder_noun: re.Pattern[str]) -> frozenset[str]:
    """The things a normalised statement says are new, not people ("a new colleague" adds
    one)."""
    return frozenset(m["thing"] for m in RENEWED.finditer(norm)
                     if not holder_noun.fullmatch(m["thing"]))


# A greeting that opens a message ("Sehr geehrte Damen und Herren,", "Dear Dr Shah,", "Hallo
# zusammen,"): an address, no content, and no one the statement is about.
_GREETING = re.compile(
    r"^\s*(?:sehr geehrte[rs]?\s+[^,]{2,40}|dear\s+[^,]{2,40}|liebe[rs]?\s+[^,]{2,40}|"
    r"(?:hallo|hello|hi|hey|moin|servus|grüezi|grüß gott)(?:\s+[^,]{1,30})?),\s*",
    re.IGNORECASE,
)


def unreported(text: str) -> str:
    """The statement without the words it reports of someone else, or a greeting."""
    without = _QUOTE.sub(" ", _GREETING.sub("", text))
    return _REPORTED.sub(" ", without).strip()


# Someone the user named leaves a place in the user's life and another takes it ("Herr Faber
# ist in Rente, jetzt macht das Frau Lutz", "Dr. Okafor has gone on sabbatical and Professor
# Lindqvist has taken over", "Sami ist ausgezogen, sein Zimmer hat jetzt Mareike"): the
# statement that named the one who left is replaced, whoever the sentence is about.
_DEPARTURE = re.compile(
    r"(?:^|(?<=[,;.!?]\s)|(?<=\band\s)|(?<=\bund\s))"
    r"(?:(?:frau|herr|dr\.?|mr\.?|mrs\.?|ms\.?|prof\.?|professor)\s+)?(?P<who>[^\W\d][\w-]+)\s+"
    # (German puts the participle last: "ist zum Monatsende ausgezogen".)
    r"(?:(?:has|have|had|is|was)\s+|(?:ist|hat|war)\s+(?:[\w-]+\s+){0,3}?)?"
    r"(?:left|retired|quit|resigned|stepped down|handed|gone|went|moved out|moved away|"
    r"passed away|died|ausgezogen|weggezogen|in rente|im ruhestand|raus|weg|gegangen|"
    r"nach\s+\w+\s*(?:gezogen|gegangen)?|hat aufgehört|aufgehört|gekündigt|übergeben|"
    r"abgegeben|aufgegeben|in elternzeit|in mutterschutz)(?!\w)",
    re.IGNORECASE,
)
# The place taken: by someone new, by the user, or a new value now.
_TAKEN = re.compile(
    r"(?<!\w)(?:now|jetzt|nun|new|neue[rsnm]?|taken over|took over|takes over|übernommen|"
    r"übernimmt|eingezogen|moved in|to me|an mich|mir|instead|stattdessen)(?!\w)",
    re.IGNORECASE,
)

_PRONOUNS = frozenset(("i", "we", "he", "she", "it", "they", "ich", "wir", "er", "sie", "es",
                       "you", "du", "ihr", "man", "that", "this", "das", "der", "die"))


def departed(text: str) -> frozenset[str]:
    """Who the statement says left a place another now takes (casefolded), else nothing."""
    found = set()
    for match in _DEPARTURE.finditer(text):
        if _TAKEN.search(text, match.end()) and match["who"].casefold() not in _PRONOUNS:
            found.add(match["who"].casefold())
    return frozenset(found)
