"""Supersession cue data (EN/DE): change language, polarity, holders, time anchors; helpers."""

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
    # A new value said from a point in time: "since March", "seit Januar", "ab Montag".
    "since", "ever since", "as of", "starting", "from this ~ on", "from next ~ on", "seit",
    "seitdem", "ab jetzt", "ab heute", "ab montag", "ab dienstag", "ab mittwoch",
    "ab donnerstag", "ab freitag", "ab samstag", "ab sonntag", "ab nächst*", "ab dem",
    "ab januar", "ab februar", "ab märz", "ab april", "ab mai", "ab juni", "ab juli",
    "ab august", "ab september", "ab oktober", "ab november", "ab dezember",
    # What changed said by what happened: a promotion, a wedding, a purchase, a theft, a move.
    "promoted", "made me", "married", "remarried", "engaged", "proposed", "bought", "stolen",
    "got stolen", "left", "retired", "born", "adopted", "passed", "graduated", "handed in",
    "signed", "split", "separated", "called off", "moved in", "moved out", "closed",
    "transferred", "defended", "back at work", "went back", "back to", "became", "turned",
    "passed away", "died", "offered me", "accepted", "extended", "rebooked",
    "gave us until", "is over", "moved up", "raise", "increase", "down to", "car-free",
    "befördert", "geheiratet", "verlobt", "antrag", "gekauft", "geklaut", "gestohlen",
    "verlassen", "in rente", "geboren", "welt gekommen", "adoptiert", "geholt", "bestanden",
    "abgeschlossen", "abgegeben", "unterschrieben", "gelöst", "scheiden", "eingezogen",
    "ausgezogen", "geschlossen", "versetzt", "verteidigt", "wieder", "zurück", "geworden",
    "gestorben", "angeboten", "angenommen", "verlängert", "umgebucht", "abgesagt",
    "vorbei", "hochgezogen", "eingeschult", "angefangen", "fange", "erhöhung", "erhöht",
    "runter auf", "autofrei", "abgemeldet", "übernommen", "zugesagt", "zusammengezogen",
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
    # More of the same is no new value: "the bus comes even later", "I'm used to it now".
    "even later", "even earlier", "even worse", "noch später", "noch früher", "noch schlimmer",
    "used to it", "daran gewöhnt", "gewöhnt",
    # A request to the assistant states nothing about the world.
    "remind me", "erinnere mich", "erinner mich", "let me know", "sag mir bescheid",
)
HEDGE_CUES: tuple[str, ...] = (
    "might", "maybe", "perhaps", "thinking about", "thinking of", "considering", "if",
    "almost", "nearly", "dream of", "wäre", "beinahe", "träume", "hätte fast",
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
    "kids", "children", "twins", "youngest", "oldest", "eldest", "grandmother",
    "grandfather", "nephew", "niece", "babysitter", "dog", "cat", "puppy",
    "schwester", "bruder", "mutter", "mama", "vater", "papa", "eltern", "frau", "mann",
    "freundin", "freund", "sohn", "tochter", "nachbar*", "chef*", "kolleg*", "oma", "opa",
    "tante", "onkel", "kinder", "zwillinge", "jüngste", "älteste", "großmutter", "großvater",
    "neffe", "nichte", "babysitterin", "hund", "katze", "kater",
)
FIRST_PERSON_SUBJECT = re.compile(r"(?<!\w)(?:i|i'm|i've|i'd|i'll|we|we're|we've|ich|wir)(?!\w)")
POSSESSIVE = r"(?:my|our|mein|meine|meinen|meinem|meiner|meines|unser|unsere|unseren|unserem)"

# Cues that only say when or how surely: the value a statement asserts is read without them
# ("I am divorced" asserts "divorced"; "now" asserts nothing).
ADVERB_CUES: tuple[str, ...] = (
    "actually", "now", "nowadays", "these days", "from now on", "since", "ever since", "as of",
    "starting", "instead", "eigentlich", "jetzt", "nun", "inzwischen", "mittlerweile",
    "neuerdings", "seit", "seitdem", "seit kurzem", "ab sofort", "ab jetzt", "stattdessen",
    "wieder", "again", "wait", "moment", "correction", "korrektur",
)


# A statement about a past that does not reach the present replaces nothing now: "years ago I
# moved from Munich to Hamburg", "als Kind", "back in 2015" (a year is weighed by the judge).
PAST_ANCHORS: tuple[str, ...] = (
    "years ago", "years back", "decade ago", "long ago", "a long time ago", "back then",
    "back in the day", "as a kid", "as a child", "as a teenager", "as a student",
    "when i was", "growing up", "in my twenties", "in my thirties", "in my teens",
    "in my youth", "in college", "in high school", "at school", "in school", "at uni",
    "back in uni", "my first car", "my first job",
    "vor jahren", "vor vielen jahren", "vor langer zeit", "vor einem jahrzehnt", "als kind",
    "als jugendlicher", "als jugendliche", "als teenager", "als student*", "als ich ~ war",
    "als ich klein", "in meiner kindheit", "in meiner jugend", "mit mitte zwanzig",
    "mit mitte dreißig", "im studium", "während des studiums", "zu schulzeiten",
    "in der schule", "an der uni", "damals", "mein erstes auto", "mein erster job",
    "mein allererster job",
)
# "Ten years ago", "vor zwanzig Jahren": two years or more back is the distant past.
COUNTED_PAST = re.compile(
    r"(?<!\w)(?:(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|several|many|\d{1,2}) years ago|vor (?:zwei|drei|vier|fünf|sechs|sieben|acht|neun|"
    r"zehn|elf|zwölf|fünfzehn|zwanzig|dreißig|mehreren|vielen|\d{1,2}) jahren)(?!\w)"
)
# "in 2015", "back in 2008", "2012 hatte ich ...": a year said as when something happened.
PAST_YEAR = re.compile(r"(?:^|(?<=\bin )|(?<=back in )|(?<=im jahr ))((?:19|20)\d\d)\b")
# Being used to something is no history ("I'm used to it now"); "now that" gives a reason.
NOT_HISTORY = re.compile(r"(?<!\w)(?:'m|am|are|'re|is|'s|get|got|be|being|bin) used to(?!\w)")
NOW_THAT = re.compile(r"(?<!\w)now that(?!\w)")
# A past state ("the meeting was on Monday", "mein Chef war Lars"), not a past change ("it was
# moved to Tuesday", "es wurde verschoben"): the older statement is history already.
PAST_STATE = re.compile(
    r"(?<!\w)(?:(?:was|were|war|waren)(?!\s+(?:\w+\s+)?(?:\w+ed|ge\w+[tn]|moved|postponed|"
    r"verschoben|verlegt|rebooked|cancelled|canceled|\w+iert)\b)"
    # Preterites of states ("I drove a Polo", "das Futter stand in der Garage"), and the
    # German perfect of living and working ("ich habe in Leeds gewohnt").
    r"|lived|worked|drove|rode|drank|weighed|had|ran|stood|wohnte|arbeitete|lebte|hieß|stand|"
    r"lag|fuhr|trank|hatte|wog|(?:habe|hatte|hat) (?:\w+ ){0,3}(?:gewohnt|gearbeitet|gelebt|"
    r"geheißen))(?!\w)"
)
# Words that open a clause that only says when or why: "Seit Dr. Okafor in Rente ist, gehe
# ich ..."; "Oslo has changed so much since I moved here" is about Oslo.
LEADING_CLAUSE = re.compile(
    r"^(?:since|ever since|seit|seitdem|when|als|after|nachdem|because|weil|while|während)\b"
    r"[^,]*,\s*"
)
TRAILING_CLAUSE = re.compile(
    r",?\s+(?:since|seit|because|weil|when|als|after|nachdem|while|während|although|obwohl)"
    r"\s+(?:i|we|ich|wir)\b.*$"
)
# A refinement narrows what holds ("not on Sundays", "nur noch morgens", "but other meat is
# fine"): said with a negation, it contradicts nothing.
REFINEMENT = re.compile(
    r"(?<!\w)(?:only|just|except|but other|but the rest|nur|außer|aber ander\w*|after \d|"
    r"before \d|nach \d|vor \d|on (?:mon|tues|wednes|thurs|fri|satur|sun)days|at night|"
    r"\w+tags|sonntags|on weekends|am wochenende|with sugar|mit zucker|in tournaments|"
    r"turniere)(?!\w)"
)
# Verbs a polarity flip may not rest on alone: "I work from home" / "I never work on Sundays"
# share only the verb.
COMMON_VERB_STEMS: frozenset[str] = frozenset({
    "work", "arbeit", "live", "wohn", "eat", "ess", "drink", "trink", "go", "geh", "play",
    "spiel", "run", "lauf", "like", "lov", "mag", "lieb", "hav", "hab", "tak", "nehm", "us",
    "nutz", "do", "mach", "allergic", "allergisch",
})
# An older statement that points back at another ("It's called Boulderwelt", "Meistens am
# PC.") elaborates it; it is replaced only when nothing it elaborates is.
REFERRING = re.compile(
    r"^(?:(?:it|it's|its|she|he|she's|he's|they|they're|that's|this is|there|sie|er|es|das ist|"
    r"das war|die ist|der ist|die heißt|der heißt|dort|da)\b"
    # ... or a fragment without a verb: "Meistens am PC.", "With a club.", "Ein MacBook Air."
    r"|(?:meistens|mostly|usually|at|with|mit|am|im|on|for|für|bei|ein|eine|einen|a|an)\b"
    r"(?!.*\b(?:is|are|was|ist|sind|war|have|has|habe|hat|bin)\b))"
)
# A one-off episode ("yesterday I worked from a café") changes a state only through a verb
# that says so ("I turned 35 today").
EPISODE = re.compile(r"(?<!\w)(?:yesterday|gestern|last night|letzte nacht|this morning|"
                     r"heute morgen|today|heute|vorgestern)(?!\w)")
STATE_CHANGE_CUES: tuple[str, ...] = (
    "moved", "married", "divorced", "born", "died", "passed away", "turned", "promoted",
    "retired", "graduated", "quit", "left", "sold", "bought", "adopted", "started", "switched",
    "stolen", "broke up", "split", "engaged", "celebrated", "birthday", "signed", "defended",
    "passed", "umgezogen", "gezogen", "geheiratet", "geboren", "gestorben", "geworden",
    "befördert", "gekündigt", "verkauft", "gekauft", "adoptiert", "angefangen", "gewechselt",
    "geklaut", "getrennt", "verlobt", "geburtstag", "bestanden", "verteidigt", "unterschrieben",
)
# A name that opens a statement is its subject ("Nils has been growing a beard", "Oslo hat
# sich verändert"); read after a leading time ("Since last week ...").
NAMED_SUBJECT = re.compile(
    r"^(?:(?:since|seit|from|ab|as of|starting)\s+(?:\S+\s+){0,3}?)?"
    r"(?P<name>(?!(?:The|My|Our|I|We|Ich|Wir|Mein|Meine|Unser|Unsere|Der|Die|Das|Ein|Eine|A|An|"
    r"Since|Seit|From|Ab|Actually|Eigentlich|Now|Jetzt|It|Es|This|That|Dieser|Diese|Dr|Mr|Mrs)"
    r"\b)[A-ZÄÖÜ][\w-]+)(?:'s)? [a-zäöüß]+\b(?! (?:ich|wir|I|we)\b)"
)
# Someone else's thing named by a possessive: "Anna's party", "the design team's standup".
# (Case-sensitive, on the statement as written: a name is capitalised.)
POSSESSED = re.compile(r"(?<!\w)[A-ZÄÖÜ]\w+'s \w+|(?<!\w)(?:vom|von der|des) \w*[Tt]eam(?!\w)")


# A third party's own things ("The bus company changed its logo", "Die ING hat ihr
# App-Design geändert"): about them, not about the user.
THIRD_PARTY = re.compile(r"(?<!\w)(?:its|their|his|her|ihr|ihre|ihren|ihrem|sein|seine|seinen|"
                         r"seinem)(?!\w)")


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_WORD = re.compile(r"\w+")
# Suffixes stripped (twice at most) so "meetings"/"meeting", "Kaffees"/"Kaffee" meet.
_SUFFIXES = ("ing", "ed", "es", "en", "er", "em", "s", "e", "n")
# German feminine forms are one role with the masculine: "Teamleiterin" / "Teamleiter".
_FEMININE = ("innen", "in")


def normalise(text: str) -> str:
    """Casefolded, curly apostrophes straightened, whitespace collapsed (ß becomes ss)."""
    return " ".join(text.translate(_APOSTROPHES).casefold().split())


def content_words(text: str) -> list[str]:
    """The words of normalised text that are not stopwords."""
    return [w for w in _WORD.findall(text) if w not in STOPWORDS]


from memlane.domain.graph.supersession_slots import STOPWORDS  # noqa: E402  (data only)


def stem(word: str) -> str:
    """A crude EN/DE stem: only ever compared with other stems made the same way."""
    feminine = next((s for s in _FEMININE if word.endswith("er" + s) and len(word) > 7), "")
    word = word[: -len(feminine)] if feminine else word
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
