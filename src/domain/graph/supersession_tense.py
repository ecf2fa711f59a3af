"""Supersession cue data (EN/DE) on time: the distant past, past states, episodes, clauses."""

from __future__ import annotations

import re

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
    # (A present perfect reaches the present: "I've had hay fever since I was a kid".)
    r"|lived|worked|drove|rode|drank|weighed|(?<!'ve )(?<!have )(?<!has )(?<!'s )had|ran|"
    r"stood|wohnte|arbeitete|lebte|hieß|"
    # (Not the English "can't stand olives".)
    r"(?<!can't )(?<!cannot )(?<!not )stand|"
    r"lag|fuhr|trank|hatte|wog|(?:habe|hatte|hat) (?:\w+ ){0,3}(?:gewohnt|gearbeitet|gelebt|"
    r"geheißen))(?!\w)"
)
# A clause after the first that says what holds for the user now ("..., ich bin beim Verein",
# "..., so I'm at Aldi now").
PRESENT_SELF = re.compile(
    r"[,;]\s*(?:\w+\s+)?(?:ich bin|ich habe|ich hab|ich wohne|ich arbeite|wir sind|wir haben|"
    r"wir wohnen|i'm|i am|i have|i've|we're|we are|we have|we've|i live|i work|we live)(?!\w)"
)
# The latest of a series, said in the past ("My last HbA1c was 52", "Mein letzter Wert war
# zu hoch"): it holds until the next one.
LATEST = re.compile(r"(?<!\w)(?:my|our|mein\w*|unser\w*)\s+(?:last|latest|most recent|"
                    r"letzte[rsnm]?|neueste[rsnm]?|aktuelle[rsnm]?)\s+")
# Words that open a clause that only says when or why: "Seit Dr. Okafor in Rente ist, gehe
# ich ..."; "Oslo has changed so much since I moved here" is about Oslo.
LEADING_CLAUSE = re.compile(
    r"^(?:since|ever since|seit|seitdem|when|als|after|nachdem|because|weil|while|während)\b"
    # Not a German main clause opened by a time ("Seit Oktober arbeite ich ..., die Nächte
    # sind vorbei"): its verb comes second, before the subject.
    # Nor an English one opened by a time phrase: "Since Easter we've been going to ...".
    r"(?!\s+\S+(?:\s+\S+)?\s+\S+\s+(?:ich|wir)\b"
    r"|\s+(?!(?:i|we|he|she|they|it|you)\b)[a-z]\S*(?:\s+\S+)?\s+"
    r"(?:i|we|i've|we've|i'm|we're|i'd|we'd)\b)[^,]*,\s*"
)
TRAILING_CLAUSE = re.compile(
    r",?\s+(?:since|seit|because|weil|when|als|after|nachdem|while|während|although|obwohl)"
    r"\s+(?:i|we|ich|wir|my|our|mein\w*|unser\w*|the|der|die|das|he|she|er|sie)\b.*$"
)
# A one-off episode ("yesterday I worked from a café") changes a state only through a verb
# that says so ("I turned 35 today").
# ("As of today", "ab heute" start a new state: no episode.)
EPISODE = re.compile(r"(?<!\w)(?<!as of )(?<!from )(?<!ab )(?<!seit )(?:yesterday|gestern|"
                     r"last night|letzte nacht|this morning|heute morgen|today|heute|"
                     r"vorgestern)(?!\w)")
# What holds after the episode, said beside it ("ceremony was yesterday, I'm officially
# British", "last payment yesterday, it's all mine now"): a state changed.
STATE_NOW = re.compile(r"(?<!\w)(?:now|officially|jetzt|nun|offiziell|ab sofort|from now on)"
                       r"(?!\w)")
STATE_CHANGE_CUES: tuple[str, ...] = (
    "moved", "married", "divorced", "born", "died", "passed away", "turned", "promoted",
    "retired", "graduated", "quit", "left", "sold", "bought", "adopted", "started", "switched",
    "stolen", "broke up", "split", "engaged", "celebrated", "birthday", "signed", "defended",
    "passed", "umgezogen", "gezogen", "geheiratet", "geboren", "gestorben", "geworden",
    "befördert", "gekündigt", "verkauft", "gekauft", "adoptiert", "angefangen", "gewechselt",
    "geklaut", "getrennt", "verlobt", "geburtstag", "bestanden", "verteidigt", "unterschrieben",
    "joined", "hired", "fired", "laid off", "resigned", "enrolled", "began", "finished",
    "returned", "diagnosed", "gave birth", "had a baby", "lost", "beigetreten", "begonnen",
    "beendet", "eingestellt", "entlassen", "pensioniert", "diagnostiziert", "entbunden",
    "verloren", "angemeldet", "eingeschrieben", "abgeschlossen", "in rente",
)
# Entering a new state of a slot that holds one value ("I qualified as a paramedic", "We got
# the keys to our own house", "I start at Sage on Monday", "SAP hat mich übernommen"): a
# change when the older statement holds that slot too.
ENTRY_CUES: tuple[str, ...] = (
    "qualified", "got the keys", "start at", "start on", "starting at", "promoted",
    "befördert", "übernommen", "eingezogen", "einzug", "bestanden", "passed", "graduated",
    "married", "geheiratet", "retired", "in rente", "hired", "eingestellt", "signed",
    "unterschrieben", "reduced", "reduziert", "erhöht", "cut my",
    # A first stretch of a new state: "First week at the contact centre done".
    "first day", "first week", "erster tag", "ersten tag", "erste woche", "ersten woche",
)
# Changes that end what was held ("I sold the Golf too", "das Gravelbike wurde auch
# geklaut"): "too" then says the change came again, not that a value was added.
ENDING_CUES: tuple[str, ...] = (
    "sold", "stolen", "quit", "left", "cancelled", "canceled", "gave up", "broke up",
    "verkauft", "geklaut", "gestohlen", "gekündigt", "verlassen", "abgesagt", "aufgehört",
    # A thing given up, ended or gone is an end as well ("Den Kletterkurs hab ich
    # geschmissen", "our cat died"), and so is a value said to hold no more ("kein Bier mehr",
    # "no longer"; "alcohol-free" is read as "alcohol no longer").
    "dropped", "dropped out", "passed away", "died", "got rid of", "unsubscribed",
    "*geschmissen", "abgemeldet", "abgeschafft", "gestrichen", "abgebrochen", "aufgegeben",
    "ausgetreten", "gestorben", "verstorben", "kein* ~ mehr", "nicht mehr", "no longer",
    "not ~ anymore", "no more", "'s off", "is off", "called off",
    # Debts paid, plans deferred, a couple parted; Bavarian and Austrian "nimma" (no more)
    # and participles without "ge-" ("hab i kündigt").
    "called it quits", "deferred", "paid off", "repaid", "cleared", "be gone", "abbezahlt",
    "abgelöst", "getilgt", "zurückgezahlt", "zurückgestellt", "kündigt", "nimma", "nimmer",
    # A thing said to be history: "die WG ist Geschichte", "the old car is history".
    "is history", "'s history", "ist geschichte", "is geschichte",
)
# A change denied ("we're not moving to Leeds after all", "wir ziehen doch nicht nach
# Dortmund"): nothing current changes; only a plan said before is replaced by it.
DENIED_CHANGE = re.compile(
    r"(?<!\w)(?:not|never|n't)\s+(?:\w+\s+){0,2}?(?:moving|relocating|switching|changing|"
    r"leaving|taking|selling|quitting|starting)\b.*\bafter all\b"
    r"|(?<!\w)(?:fell through|nothing came of it|daraus wird nichts|hat sich zerschlagen)(?!\w)"
    # A change that was only feared: "Neither of my flatmates is moving out, it was a false
    # alarm", "Fehlalarm, der Vermieter verkauft doch nicht".
    r"|(?<!\w)(?:false alarm|fehlalarm|blinder alarm)(?!\w)"
    r"|(?<!\w)neither\s+(?:of\s+)?(?:\w+\s+){0,3}?(?:is|are|was|were)\s+(?:\w+\s+)?(?:moving|"
    r"leaving|selling|quitting)(?!\w)"
    r"|(?<!\w)(?:ziehen|ziehe|zieht|wechseln|wechsle|wechselt|kündigen|kündige|verkaufen|"
    r"verkaufe|nehmen|nehme|fangen|fange)\s+(?:\w+\s+){0,2}?doch\s+nicht(?!\w)"
)
# "X-free", "X-frei" (vape-free, alkoholfrei): without X now.
FREE_OF = re.compile(r"(?<=\w)-?(?:free|frei)(?!\w)")
# A change said again ("Pushed again", "schon wieder geändert"): the chain's current value is
# the one replaced, whatever words it shares.
AGAIN = re.compile(r"(?<!\w)(?:again|once more|yet again|wieder|erneut|nochmal|noch einmal)"
                   r"(?!\w)")
# German future of a change ("Ich werde im Herbst nach Köln ziehen", "wir werden heiraten"):
# its verb comes last, too far from "werde" for a cue phrase.
FUTURE_CHANGE = re.compile(
    r"(?<!\w)(?:werde|werden)\s+(?:\S+\s+){0,6}?(?:umziehen|ziehen|wechseln|anfangen|heiraten|"
    r"kündigen|aufhören|beginnen|übernehmen|einziehen|ausziehen|zusammenziehen)(?!\w)"
)
