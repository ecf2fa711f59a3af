"""Supersession topic data (EN/DE): the slots statements share, and the words that are no topic."""

from __future__ import annotations

import re

# Notation as in supersession_cues: phrases match on word starts, case-insensitive; a trailing
# '*' lets the last word go on, a leading '*' lets a German compound end in the word.

_NUMBER = (r"(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
           r"thirteen|fourteen|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
           r"eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig|"
           r"vierzig|fünfzig|sechzig|siebzig|achtzig|neunzig|zweieinhalb)")
# An age said as a number after a copula or "turned" ("my son Ben is 7", "ist jetzt elf",
# "she's 6"), or a number opening the statement with a time ("Thirty as of last Friday"):
# the age slot, like "years old". Not a date ("am 3. Juli").
AGE_STATEMENT = re.compile(
    r"(?:(?<!\w)(?:is|are|am|turned|turns|ist|bin|sind|wird|werde)|'s|'m)\s+(?:now\s+|jetzt\s+|"
    rf"already\s+|schon\s+|gerade\s+|just\s+)?{_NUMBER}"
    r"(?!\.\s*(?:jan|feb|mär|apr|mai|jun|jul|aug|sep|okt|nov|dez|\d))"
    r"(?:\s*(?:[.,!]|$|and|und|now|jetzt))"
    rf"|^{_NUMBER}\s+(?:as of|since|now|today|seit|jetzt|ab|heute)(?!\w)"
    rf"|(?<!\w)(?:turned|turns|wird|werden)\s+{_NUMBER}(?!\w)|(?<!\w){_NUMBER}\s+geworden(?!\w)"
)
# A provider, employer or practice the user is with: "bei der DKB", "zu Dr. Albers", "with
# Verti", "at Siemens" (case-sensitive, on the statement as written: the value is a name).
PROVIDER = re.compile(
    r"(?<!\w)(?:bei|zu|zur|zum|with|at|to)\s+(?:der\s+|dem\s+|the\s+)?(?:Dr\.?\s+)?"
    r"(?P<name>[A-ZÄÖÜ][\w-]*)"
)
# When a new value holds from ("seit Februar", "as of next month", "ab Juli"): no topic.
TIME_ANCHOR = re.compile(
    r"(?<!\w)(?:since|seit|ab|as of|from|starting|starting in)\s+(?:(?:the|dem|den|der|nächsten|"
    r"next|this|diesem|letzten|last|early|late|anfang|mitte|ende)\s+)*(?:january|february|march|"
    r"april|may|june|july|august|september|october|november|december|januar|februar|märz|mai|"
    r"juni|juli|oktober|dezember|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|week|woche|month|monat|"
    r"year|jahr)(?!\w)"
)
# A fronted time ("Im Juli fange ich bei Bosch an", "Next month we move to York"): when the
# change happens, not a date the statement is about (German verb second, then the subject).
# A day ("Am 3. Juli muss ich kündigen") is the appointment itself and stays.
LEADING_TIME = re.compile(
    r"^(?:im|in|am|ab|next|nächsten|nächste|nächstes|this|diesen|dieses|diese|letzten|letzte|"
    r"letztes|last|early|late|anfang|mitte|ende|zum|on)\s+(?:[^\s\d]+\s+){0,2}?(?:january|february|"
    r"march|april|may|june|july|august|september|october|november|december|januar|februar|"
    r"märz|mai|juni|juli|oktober|dezember|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|week|woche|month|"
    r"monat|year|jahr|herbst|frühling|sommer|winter|autumn|fall|spring|summer)(?!\w)"
    r"(?=,?\s+(?:(?:i|we)\b|\S+\s+(?:ich|wir)\b))"
)
# A role acting on something ("My team lead changed the standup to 10", "Mein Chef hat das
# Meeting verschoben") is who did it: not a statement about work, nor the role's own thing.
# (Also who looks after the user's home, fitting or replacing what is in it: "The landlord
# put a combi boiler in", "Der Vermieter hat Gasthermen einbauen lassen".)
ROLE_ACTING = re.compile(
    r"^(?:my|our|the|mein\w*|unser\w*|der|die)\s+(?:team lead|boss|manager|chef\w*|"
    r"teamleiter\w*|lehrer\w*|teacher|coach|trainer\w*|professor\w*|prof|landlord|landlady|"
    r"vermieter\w*|caretaker|hausmeister\w*|hausverwaltung|housing association|council)\s+"
    r"(?=(?:\S+\s+){0,7}?(?:changed|moved|pushed|cancelled|canceled|rescheduled|raised|"
    r"increased|lowered|verschoben|verlegt|geändert|abgesagt|umgelegt|erhöht|gesenkt|put|"
    r"installed|fitted|replaced|renovated|swapped|einbauen|eingebaut|ausgetauscht|ersetzt|"
    r"renoviert|saniert)(?!\w))"
)
# Phrases whose words would name the wrong slot: a flat white is no flat, a meeting moved to
# Sunday no move of home.
SLOT_MISREADINGS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"flat white"), "flatwhite"),
    # A morning as a time ("this morning", "on Saturday mornings") says nothing of sleep.
    (re.compile(r"(?<!\w)(this|every|each|tomorrow|yesterday|in the|\w+day)\s+mornings?(?!\w)"),
     r"\1 "),
    (re.compile(r"(?<!\w)mov(?:e|ed|ing)\s+(?:\S+\s+){0,3}?(?:to|on|auf)\s+(?=(?:\w+day|the \d|"
                r"\d|next|\w+tag|\w+woch))"), "rescheduled "),
    # A thing moved is no move of home ("we moved the sofa to the bedroom"; "moved house" and
    # "moved in" are), and a living room is no flat ("ins Wohnzimmer verschoben").
    (re.compile(r"(?<!\w)mov(?:e|ed|es|ing)\s+(?=(?:the|a|an|my|our|his|her|their|this|that|some|all)"
                r"\s+(?!house|home|flat|apartment|place|city|country|stuff|things|family|life|"
                r"whole|entire|everything)\w+)"), "carried "),
    (re.compile(r"(?<!\w)wohn(?=zimmer|küche|bereich|mobil|wagen)"), "raum"),
    (ROLE_ACTING, "someone "),
    # A place that moved is no move of the user's home ("Our office moved to Headingley",
    # "Die Praxis ist umgezogen").
    (re.compile(r"^((?:the|our|my|der|die|das|unser\w*|mein\w*)\s+(?:[\w-]+\s+)?(?:office|büro|"
                r"practice|praxis|shop|store|laden|company|firma|caf[eé]|studio|gym|school|"
                r"schule|kita|restaurant|bakery|bäckerei|clinic|klinik|headquarters|hq|zentrale|"
                r"department|abteilung|lab|labor|team|club|verein)\s+(?:\S+\s+){0,3}?)"
                r"(?:moved|has moved|is moving|relocated|ist umgezogen|umgezogen|zieht um)"),
     r"\1carried"),
)

STOPWORDS: frozenset[str] = frozenset((
    "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "from",
    "by", "as", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did",
    "have", "has", "had", "it", "its", "this", "that", "these", "those", "there", "here", "he",
    "she", "they", "them", "his", "her", "their", "you", "your", "me", "my", "mine", "our", "us",
    "we", "i", "im", "ive", "id", "ill", "s", "t", "m", "d", "ll", "re", "ve", "don", "doesn",
    "didn", "isn", "aren", "wasn", "won", "can", "about", "into", "over", "than", "then", "so",
    "very", "just", "what", "which", "who", "when", "where", "how", "why", "all", "any", "some",
    "more", "most", "much", "many", "one", "two", "our", "up", "out", "off", "again", "also",
    "get", "got", "go", "going", "went", "will", "would", "ich", "du", "er", "sie", "es", "wir",
    "ihr", "mich", "mir", "dich", "dir", "uns", "euch", "mein", "meine", "meinen", "meinem",
    "meiner", "dein", "sein", "seine", "ihre", "unser", "unsere", "der", "die", "das", "den",
    "dem", "des", "ein", "eine", "einen", "einem", "einer", "und", "oder", "aber", "mit", "von",
    "zu", "zum", "zur", "im", "ins", "am", "um", "auf", "aus", "bei", "nach", "für", "über",
    "unter", "vor", "an", "als", "wie", "so", "ist", "sind", "bin", "bist", "war", "habe", "hast",
    "hat", "haben", "wird", "werden", "wurde", "noch", "schon", "sehr", "nur", "gern", "gerne",
    "da", "dann",
    # Titles are no topic: "Dr. Brandt" and "Dr. Albers" share nothing.
    "dr", "prof", "mr", "mrs", "ms", "herr", "frau",
))


# The kinds of value a statement can name: a new value replaces one of the same kind.
SHAPES: dict[str, re.Pattern[str]] = {
    "time": re.compile(r"(?<!\w)\d{1,2}(?::\d\d)?\s*(?:uhr|am|pm|h)(?!\w)"
                       r"|(?<!\w)\d{1,2}:\d\d(?!\w)"),
    "date": re.compile(r"(?<!\w)\d{1,2}(?:\.|st|nd|rd|th)\s*(?:of\s+)?(?:jan|feb|mar|mär|apr|"
                       r"may|mai|jun|jul|aug|sep|oct|okt|nov|dec|dez|\d)|(?<!\w)(?:the|am|den|"
                       r"dem)\s+\d{1,2}(?:\.|st|nd|rd|th)(?!\w)"),
    "amount": re.compile(r"[€$£]\s*\d|\d\s*(?:€|euro|eur|dollars?|pounds?|%|prozent|"
                         r"percent)(?!\w)"),
}


def shapes(norm: str) -> frozenset[str]:
    """The kinds of value a normalised statement names (a time, a date, an amount)."""
    return frozenset(name for name, shape in SHAPES.items() if shape.search(norm))


# The names a change goes to ("moved to Lisbon", "zur Techniker gewechselt").
DESTINATION = re.compile(r"(?<!\w)(?:to|into|for|zu|zur|zum|nach|auf|in|ins|bei|an)\s+"
                         r"(?:the\s+|der\s+|die\s+|das\s+|den\s+|dem\s+)?([\w-]+)")
# A time before the subject: "since last week nils has ..." is about nils.
LEADING_TIME_SUBJECT = re.compile(
    r"^(?:since|seit|from|ab|as of|starting)\s+(?:\S+\s+){0,3}?(?=\S+\s+"
    r"(?:has|have|is|was|hat|ist|lässt|wohnt|lives|works|arbeitet))")
# Someone the user is with ("mit Hanna", "Hanna und ich", "with Sam"): company, no value.
COMPANION = re.compile(r"(?<!\w)(?:mit|with)\s+([\w-]+)|([\w-]+)\s+(?:und|and)\s+(?:ich|i)(?!\w)")


def companions(norm: str) -> frozenset[str]:
    """Whom a normalised statement says the user is with."""
    return frozenset(w for m in COMPANION.finditer(norm) for w in m.groups() if w)


def slot_text(norm: str) -> str:
    """The text slots are read from: no time said, no phrase that misreads as a slot."""
    norm = TIME_ANCHOR.sub(" ", LEADING_TIME.sub(" ", norm.strip()))
    for pattern, replacement in SLOT_MISREADINGS:
        norm = pattern.sub(replacement, norm)
    return norm
