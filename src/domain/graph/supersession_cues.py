"""Supersession cue data (EN/DE): change language, polarity, holders, time anchors; helpers."""

from __future__ import annotations

import re

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
    # An update asked for ("please update my address to ..."), a plan called off ("Crete's
    # off"), a Swiss move.
    "update", "updated", "aktualisier*", "'s off", "is off", "called off", "gezügelt",
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
    # What finally came, what is left now, what was looked up: "endlich", "nur noch", "I
    # checked, it ends on the 20th"; a date moved by someone ("auf Sonntag gelegt"), a
    # deadline given more time ("we have until Wednesday", "erst im September").
    "finally", "endlich", "nur noch", "schluss gemacht", "gelegt", "umgelegt", "to move",
    "have until", "zeit bis", "bis ~ zeit", "extension", "verlängerung", "*verlängerung",
    "checked", "double-checked", "looked it up", "nachgeschaut", "nachgesehen", "erst im",
    "erst am", "erst ab",
    # A change said ahead, in the present or future (German separable "ziehe ... um"): "Ich
    # ziehe im Juli nach Köln", "We're moving to York next month", "I'll be living in York
    # from July" (a hedge or a wish still silences them: "vielleicht ziehe ich").
    "ziehe ~ um", "ziehen ~ um", "zieht ~ um", "ziehe ~ nach", "ziehen ~ nach", "ziehe ~ zu",
    "ziehen ~ zu", "ziehe ~ zusammen", "ziehen ~ zusammen", "ziehe ~ aus", "ziehen ~ aus",
    "ziehe ~ ein", "ziehen ~ ein", "moving to", "moving in", "moving out", "moving back",
    "'m moving", "'re moving", "am moving", "are moving", "will be living", "'ll be living",
    "will be working", "'ll be working", "will be moving", "'ll be moving", "'ll move",
    "will move", "going to move", "fange ~ an", "fangen ~ an", "starte ~ bei", "starting at",
    "from january", "from february", "from march", "from april", "from may", "from june",
    "from july", "from august", "from september", "from october", "from november",
    "from december", "from monday", "from tuesday", "from wednesday", "from thursday",
    "from friday", "from next", "in the new year", "im neuen jahr",
    "got a job", "found a job", "got the job", "new job", "neuen job", "neue stelle",
    "stelle bekommen", "job bekommen", "got my", "got our", "received my",
    "habe meinen ~ bekommen", "habe meine ~ bekommen", "habe mein ~ bekommen",
    "haben unser* ~ bekommen",
    # A change announced as such ("Change again: ...", "Noch eine Änderung: ...").
    "change again", "another change", "one more change", "changed again", "update:",
    "noch eine änderung", "wieder geändert", "erneut geändert", "änderung:",
    # German "doch" after the verb corrects what was said ("Das Meeting ist doch am
    # Donnerstag"); as an opener it only argues.
    "ist doch", "sind doch", "findet doch", "bin doch", "habe doch",
    # Joining, beginning, ending, returning, hiring, diagnosis, birth: a life state changed.
    "joined", "signed up", "enrolled", "registered", "took up", "picked up", "began", "begun",
    "finished", "completed", "ended", "done with", "returned", "came back", "resumed",
    "restarted", "downgraded", "traded", "got rid of", "cut out", "cut back", "cut down",
    "reduced", "raised", "lowered", "bumped", "shortened", "delayed", "brought forward",
    "pulled forward", "renamed", "converted", "hired", "fired", "laid off", "let go",
    "resigned", "handed in my notice", "demoted", "settled", "leased", "donated", "gave away",
    "rehomed", "lost", "wed", "split up", "got together", "gave birth", "had a baby",
    "had the baby", "recovered", "diagnosed", "prescribed", "weaned", "currently",
    "at the moment", "right now", "officially", "first day", "at last", "any longer",
    "is gone", "are gone", "took over", "landed", "moved on", "beigetreten", "eingetreten",
    "ausgetreten", "begonnen", "beginne", "beendet", "zurückgekehrt", "getauscht",
    "eingetauscht", "aufgegeben", "weggelassen", "reduziert", "gesenkt", "verkürzt",
    "vorverlegt", "vorgezogen", "storniert", "umbenannt", "eingeschrieben", "angemeldet",
    "eingestellt", "entlassen", "pensioniert", "gemietet", "geleast", "verschenkt",
    "verloren", "zusammengekommen", "entbunden", "genesen", "diagnostiziert", "verschrieben",
    "abgesetzt", "zurzeit", "derzeit", "aktuell", "momentan", "offiziell", "ersten tag",
    "erster tag", "losgeworden", "ist weg", "sind weg", "umgesattelt", "angetreten",
)
# Negation, and verbs that end what the older statement asserted.
NEGATION_CUES: tuple[str, ...] = (
    "not", "cannot", "no", "never", "none", "nothing", "neither", "nor", "no longer", "quit",
    "stopped", "gave up", "dropped", "cancelled", "broke up", "hate", "dislike", "can't stand",
    "nicht", "kein*", "nie", "niemals", "nichts", "hasse", "aufgehört", "abgebrochen",
    "abgeschafft", "gekündigt", "getrennt", "schluss gemacht",
)
# Contractions end inside a word ("don't"), so they have no word start to match on.
CONTRACTED_NEGATION = re.compile(r"\wn't(?!\w)")
# "..., not March 3", "nicht X, sondern Y": the value replaced, named by a correction; they
# are no polarity flip. Every word in `named` is the old value.
CONTRASTIVE_NEGATION: tuple[re.Pattern[str], ...] = (
    re.compile(r",\s*(?:not|nicht)(?P<named>(?:\s+\w+){1,3})\W*$"),
    re.compile(r"(?<!\w)(?:not|nicht)(?P<named>(?:\s+\w+){1,3}),?\s+(?:but|sondern)(?!\w)"),
    # A role left names the old value: "resigned as a special", "als Kassenwart aufgehört".
    re.compile(r"(?<!\w)(?:resigned|stepped down|retired|quit|left)\s+as(?:\s+(?:an?|the|my))?"
               r"(?P<named>(?:\s+[\w-]+){1,2})"),
    re.compile(r"(?<!\w)als(?P<named>(?:\s+[\w-]+){1,2})\s+(?:aufgehört|zurückgetreten|"
               r"ausgeschieden|abgedankt)(?!\w)"),
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
    # "..., wohne aber weiter in Hamburg": what stays, said beside what changed.
    "aber weiter", "but still", "yet still",
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
    # A wish is no change: "I'd quite like to move to the Highlands one day".
    "like to", "love to", "one day", "someday", "some day", "eines tages", "irgendwann",
    "würde gern", "hätte gern",
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
# Cues that only say when or how surely: the value a statement asserts is read without them
# ("I am divorced" asserts "divorced"; "now" asserts nothing).
ADVERB_CUES: tuple[str, ...] = (
    "actually", "now", "nowadays", "these days", "from now on", "since", "ever since", "as of",
    "starting", "instead", "eigentlich", "jetzt", "nun", "inzwischen", "mittlerweile",
    "neuerdings", "seit", "seitdem", "seit kurzem", "ab sofort", "ab jetzt", "stattdessen",
    "wieder", "again", "wait", "moment", "correction", "korrektur", "fortan", "künftig",
    "zukünftig", "in zukunft", "nunmehr", "going forward", "henceforth", "from here on",
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
    # (A subject makes it a clause: "Im Sommer arbeite ich auf der Alm".)
    r"(?!.*\b(?:is|are|was|ist|sind|war|have|has|habe|hat|bin|ich|wir|i|we)\b))"
)

# Whom a German question opened by "ist"/"sind" asks about; without it the subject was
# dropped from a statement ("Sind per 1. Mai nach Bern gezogen").
ASKED_ABOUT = re.compile(r"\s+(?:der|die|das|dem|den|des|ein|eine|einen|dein\w*|euer|eure\w*|"
                         r"ihr\w*|sein\w*|mein\w*|unser\w*|es|er|sie|wir|du|dies\w*|"
                         r"jemand|alle\w*|heute|morgen)(?!\w)")
