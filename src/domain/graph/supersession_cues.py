"""Supersession cue data (EN/DE): change language, polarity, holders, topic slots, stopwords."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# Notation as in importance.CueBook: phrases match on word starts, case-insensitive; a trailing
# '*' lets the last word go on ("kein*"), a leading '*' lets a German compound end in the cue
# ("*termin" matches "Zahnarzttermin"); '~' stands for up to three words between.

# Language that says something changed or was corrected (seed 003's correction cues and more).
CHANGE_CUES: tuple[str, ...] = (
    "actually", "not anymore", "no longer", "anymore", "any more", "no more", "now", "nowadays",
    "these days", "from now on", "changed", "switched", "swapped", "replaced", "instead",
    "rather than", "correction", "change of plans", "planänderung", "i meant", "that's wrong",
    "that is wrong", "not right", "wait", "turns out", "turned out", "new", "moved", "relocated",
    "postponed", "rescheduled", "pushed to", "pushed back", "quit", "stopped", "gave up",
    "dropped", "cancelled", "canceled", "sold", "started", "upgraded", "migrated", "broke up",
    "divorced", "went up", "went down", "rewrote",
    "eigentlich", "nicht mehr", "kein* ~ mehr", "nicht länger", "umgezogen", "gezogen", "jetzt",
    "nun", "inzwischen", "mittlerweile", "neuerdings", "seit kurzem", "ab sofort", "stattdessen",
    "geändert", "gewechselt", "umgestiegen", "ersetzt", "verschoben", "verlegt", "korrektur",
    "korrigier*", "ich meinte", "falsch", "moment", "neue*", "aufgehört", "abgebrochen",
    "gekündigt", "abgeschafft", "verkauft", "getrennt", "geschieden", "gestiegen", "gesunken",
    "umgestellt",
)
# Negation, and verbs that end what the older statement asserted.
NEGATION_CUES: tuple[str, ...] = (
    "not", "cannot", "no", "never", "none", "nothing", "neither", "nor", "no longer", "quit",
    "stopped", "gave up", "dropped", "cancelled", "broke up", "hate", "dislike", "can't stand",
    "nicht", "kein*", "nie", "niemals", "nichts", "hasse", "aufgehört", "abgebrochen",
    "abgeschafft", "gekündigt", "getrennt",
)
# Contractions end inside a word ("don't"), so they have no word start to match on.
CONTRACTED_NEGATION = re.compile(r"\wn't(?!\w)")
# "..., not March 3", "nicht X, sondern Y": the value replaced, named by a correction; they
# are no polarity flip. Every word in `named` is the old value.
CONTRASTIVE_NEGATION: tuple[re.Pattern[str], ...] = (
    re.compile(r",\s*(?:not|nicht)(?P<named>(?:\s+\w+){1,3})\W*$"),
    re.compile(r"(?<!\w)(?:not|nicht)(?P<named>(?:\s+\w+){1,2}),?\s+(?:but|sondern)(?!\w)"),
)
# "statt X", "instead of X": the first content word of `named` is the value replaced. A bare
# "statt" ends "findet ... statt" and is no cue.
CONTRAST = re.compile(
    r"(?<!\w)(?:statt|anstatt|anstelle|instead of|rather than)(?P<named>(?:\s+\w+){1,3})"
)
ADDITION_CUES: tuple[str, ...] = (
    "also", "as well", "another", "in addition", "additionally",
    "auch", "außerdem", "zusätzlich", "ebenfalls", "ebenso",
)
# "too"/"either" add only at the end of a clause; "too unreliable" adds nothing.
TRAILING_ADDITION = re.compile(r"(?<!\w)(?:too|either)\s*(?:[,.;!?]|$)")
CONTINUITY_CUES: tuple[str, ...] = (
    "still", "as i said", "as i told you", "just to confirm", "remains", "in case you forgot",
    "immer noch", "noch immer", "nach wie vor", "weiterhin", "wie gesagt", "zur bestätigung",
)
HEDGE_CUES: tuple[str, ...] = (
    "might", "maybe", "perhaps", "thinking about", "thinking of", "considering", "if",
    "unless", "plan to", "planning to", "want to", "would like to", "should",
    "vielleicht", "eventuell", "möglicherweise", "überlege", "falls", "wenn", "ich plane",
    "sollte", "würde",
)
# About the past: an older statement in this voice is history already, and a query in it asks
# for superseded memories.
PAST_CUES: tuple[str, ...] = (
    "used to", "before", "previously", "formerly", "former", "in the past", "earlier",
    "originally", "back then", "what did i", "where did i", "who did i", "which ~ did i",
    "did i use", "what was my", "where was my", "who was my", "what were my",
    "früher", "vorher", "damals", "ehemals", "ehemalig*", "zuvor", "vormals", "bisher",
    "was war mein*", "wo war mein*", "wer war mein*", "was hatte ich", "wo habe ich",
    "was habe ich",
)
# A statement in this voice is history already ("before" only at its end: "I lived in Munich
# before", not "the report is due before Friday").
HISTORY_CUES: tuple[str, ...] = (
    "used to", "previously", "formerly", "in the past", "back then", "früher", "damals",
    "ehemals", "vormals",
)
TRAILING_BEFORE = re.compile(r"(?<!\w)(?:before|vorher|zuvor)\W*$")
QUESTION_STARTERS: tuple[str, ...] = (
    "what", "where", "when", "who", "whom", "whose", "which", "why", "how", "do", "does",
    "did", "is", "are", "was", "were", "can", "could", "should", "would", "will", "shall",
    "have i", "has", "wo", "wann", "was", "wer", "wie", "warum", "wieso", "weshalb",
    "welche*", "wohin", "woher", "ist", "sind", "bin ich", "bist", "hast", "habe ich",
    "kannst", "kann ich", "soll", "weißt", "gibt es",
)
# Words that open a sentence without making it a question ("Actually, can you..." still is).
DISCOURSE_OPENERS: tuple[str, ...] = (
    "actually", "wait", "so", "ok", "okay", "well", "hey", "and", "but", "as i said",
    "eigentlich", "also", "moment", "und", "aber", "ach", "wie gesagt", "doch",
)
# Another person a statement can be about ("my sister moved" is not "I moved").
HOLDER_NOUNS: tuple[str, ...] = (
    "sister", "brother", "mother", "mum", "mom", "father", "dad", "parents", "wife",
    "husband", "partner", "girlfriend", "boyfriend", "son", "daughter", "friend", "neighbour",
    "neighbor", "boss", "manager", "colleague", "grandma", "grandpa", "aunt", "uncle", "cousin",
    "schwester", "bruder", "mutter", "mama", "vater", "papa", "eltern", "frau", "mann",
    "freundin", "freund", "sohn", "tochter", "nachbar*", "chef*", "kolleg*", "oma", "opa",
    "tante", "onkel",
)
FIRST_PERSON_SUBJECT = re.compile(r"(?<!\w)(?:i|i'm|i've|i'd|i'll|we|we're|we've|ich|wir)(?!\w)")
POSSESSIVE = r"(?:my|our|mein|meine|meinen|meinem|meiner|meines|unser|unsere|unseren|unserem)"

# Topic slots: two statements about the same thing share a slot, whatever their words.
SLOTS: Mapping[str, tuple[str, ...]] = {
    "residence": ("live", "lives", "living", "move*", "moving", "relocat*", "home", "flat",
                  "apartment", "address", "rent*", "wohn*", "*wohnung", "lebe", "lebt",
                  "umgezogen", "umzug", "ziehe", "gezogen", "*adresse", "miete*", "*miete"),
    "work": ("work*", "job*", "employ*", "company", "hired", "office", "shift*", "career",
             "apprentice*", "arbeit*", "*arbeit", "firma", "stelle", "arbeitgeber", "*schicht",
             "ausbildung", "beruf*", "manager", "boss", "chef*"),
    "schedule": ("monday*", "tuesday*", "wednesday*", "thursday*", "friday*", "saturday*",
                 "sunday*", "montag*", "dienstag*", "mittwoch*", "donnerstag*", "freitag*",
                 "samstag*", "sonntag*", "*montags", "meeting*", "*meeting", "appointment*",
                 "call", "*call", "standup", "deadline*", "class", "*kurs", "party", "*feier",
                 "flight*", "*flug", "*flüge", "termin*", "*termin", "treffen", "trifft", "meets",
                 "pm", "uhr", "march", "june", "august", "märz", "juni", "mai", "*abfuhr",
                 "collection", "*abends", "evenings"),
    "diet": ("eat", "eats", "eating", "esse", "isst", "meat", "*fleisch", "fish", "fisch",
             "vegetar*", "vegan*", "gluten*", "lactose", "laktose"),
    "food": ("food", "*essen", "olive*", "oliven", "pizza", "sushi", "dish"),
    "drinks": ("coffee", "tea", "*kaffee", "tee", "beer", "*bier", "wine", "*wein",
               "alcohol*", "alkohol*", "drink*", "trink*", "*wasser", "water"),
    "smoking": ("smok*", "rauch*", "cigarette*", "*zigarette*"),
    "contact": ("phone", "number", "mobile", "email", "e-mail", "*nummer", "handy*",
                "telefon*", "password*", "*passwort", "wifi", "wlan"),
    "identity": ("name*", "called", "call me", "heiß*", "nenn*", "years old", "jahre alt",
                 "birthday", "*geburtstag", "born", "geboren"),
    "relationship": ("girlfriend", "boyfriend", "wife", "husband", "single", "married",
                     "divorced", "broke up", "dating", "freundin", "verheiratet",
                     "geschieden", "getrennt", "beziehung"),
    "colour": ("colour*", "color*", "*farbe"),
    "vehicle": ("car", "drive*", "auto", "fahre", "fährt", "fahrrad", "bike"),
    "sport": ("run", "runs", "running", "lauf*", "laufe", "jogg*", "gym", "fitness*",
              "*studio", "swim*", "schwimm*", "yoga*", "football", "fussball", "tennis",
              "padel", "training", "marathon", "*marathon"),
    "language": ("english", "german", "french", "spanish", "italian", "englisch", "deutsch",
                 "französisch", "spanisch", "italienisch", "learn*", "lern*", "speak*",
                 "sprech*", "spreche", "sprache*"),
    "education": ("school", "*schule", "study", "studier*", "*studium", "university", "uni",
                  "degree", "exam*", "prüfung*", "science", "informatik"),
    "finance": ("bank*", "*bank", "account", "*konto", "salary", "gehalt", "credit", "kredit*"),
    "health": ("doctor", "dentist", "*arzt", "allerg*", "praxis", "immun*"),
    "sleep": ("sleep*", "schlaf*", "bed", "night owl", "early bird", "midnight",
              "mitternacht", "morning"),
    "pet": ("dog*", "cat", "cats", "puppy", "hund*", "katze*", "welpe*"),
    "software": ("editor", "vs code", "neovim", "vim", "host*", "deploy*", "database",
                 "datenbank", "framework", "written", "geschrieben", "*server", "ticket*",
                 "password manager", "*manager"),
}

# Slots that hold one value at a time: sharing one is enough to be about the same thing. In
# the others (meetings, sports, tools) the instance must be named too ("dentist appointment"
# does not replace "team meeting").
SINGLE_VALUED_SLOTS: frozenset[str] = frozenset({
    "residence", "work", "identity", "relationship", "colour", "diet", "smoking", "sleep",
    "vehicle", "education",
})

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
))


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_WORD = re.compile(r"\w+")
# Suffixes stripped (twice at most) so "meetings"/"meeting", "Kaffees"/"Kaffee" meet.
_SUFFIXES = ("ing", "ed", "es", "en", "er", "em", "s", "e", "n")


def normalise(text: str) -> str:
    """Casefolded, curly apostrophes straightened, whitespace collapsed (ß becomes ss)."""
    return " ".join(text.translate(_APOSTROPHES).casefold().split())


def content_words(text: str) -> list[str]:
    """The words of normalised text that are not stopwords."""
    return [w for w in _WORD.findall(text) if w not in STOPWORDS]


def stem(word: str) -> str:
    """A crude EN/DE stem: only ever compared with other stems made the same way."""
    for _ in range(2):
        suffix = next((s for s in _SUFFIXES if word.endswith(s) and len(word) - len(s) >= 3), "")
        if not suffix:
            break
        word = word[: -len(suffix)]
    return word


def _word_regex(word: str) -> str:
    start = r"\w*" if word.startswith("*") else ""
    end = r"\w*" if word.endswith("*") else ""
    return start + re.escape(word.strip("*")) + end


def _cue_regex(phrase: str) -> str:
    pattern = ""
    for word in normalise(phrase).split(" "):
        # '~' is a gap of up to three words ("kein* ~ mehr": "keinen Kaffee mehr").
        pattern += r"(?:\S+\s+){0,3}" if word == "~" else _word_regex(word) + r"\s+"
    return pattern.removesuffix(r"\s+") + r"(?!\w)"


def compile_cues(phrases: Iterable[str]) -> re.Pattern[str]:
    """One pattern for a cue list, matched on normalised text at word starts."""
    usable = [p for p in phrases if normalise(p).strip("*~ ")]
    if not usable:
        return re.compile(r"(?!x)x")  # matches nothing: an empty list is a valid config
    return re.compile(r"(?<!\w)(?:" + "|".join(_cue_regex(p) for p in usable) + ")")
