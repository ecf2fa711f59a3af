"""Whom a statement is about, for supersession (EN/DE): the user, a relative, a third party."""

from __future__ import annotations

import re

# Another person a statement can be about ("my sister moved" is not "I moved").
HOLDER_NOUNS: tuple[str, ...] = (
    "sister", "brother", "mother", "mum", "mom", "father", "dad", "parents", "wife",
    "husband", "partner", "girlfriend", "boyfriend", "son", "daughter", "friend", "neighbour",
    "neighbor", "boss", "manager", "colleague", "grandma", "grandpa", "aunt", "uncle", "cousin",
    "kids", "children", "twins", "youngest", "oldest", "eldest", "grandmother",
    "grandfather", "grandad", "granddad", "nephew", "niece", "babysitter", "dog", "cat", "puppy",
    "flatmate",
    "roommate", "housemate", "landlord", "landlady", "mitbewohner*", "vermieter*",
    "schwester", "bruder", "mutter", "mama", "vater", "papa", "eltern", "frau", "mann",
    "freundin", "freund", "sohn", "tochter", "nachbar*", "chef*", "kolleg*", "oma", "opa",
    "tante", "onkel", "kinder", "zwillinge", "jüngste", "älteste", "großmutter", "großvater",
    "neffe", "nichte", "babysitterin", "hund", "katze", "kater",
    # Swiss and Bavarian kin words.
    "schwöschter", "schwöster", "brüeder", "bruader", "muetter", "vatter",
    # An ex is someone else: "Mein Ex ist jetzt mit Laura zusammen" is not the user's news.
    "ex", "ex-*", "exfreund*", "exmann", "exfrau",
    # Plurals and in-laws: "Our neighbours are moving to Spain", "my brother-in-law".
    "neighbours", "neighbors", "friends", "colleagues", "sisters", "brothers", "cousins",
    "grandparents", "in-laws", "*-in-law", "freunde", "freundinnen", "geschwister",
    "großeltern", "schwiegereltern", "schwieger*",
)
FIRST_PERSON_SUBJECT = re.compile(r"(?<!\w)(?:i|i'm|i've|i'd|i'll|we|we're|we've|ich|wir)(?!\w)")
# (Swiss "mini", Bavarian and Austrian "mei": "Mini Schwöschter hät gwechslet".)
POSSESSIVE = (r"(?:my|our|mein|meine|meinen|meinem|meiner|meines|unser|unsere|unseren|unserem|"
              r"mini|mei)")
OBJECT_SELF = re.compile(r"(?<!\w)(?:me|us|mich|mir|uns)(?!\w)")
# Relatives named in several ways are one holder ("mum" and "my mother", "Chefin" and "Chef").
SAME_HOLDER = {
    "mum": "mother", "mom": "mother", "mama": "mother", "mutter": "mother", "dad": "father",
    "papa": "father", "vater": "father", "grandma": "grandmother", "oma": "grandmother",
    "großmutter": "grandmother", "grandpa": "grandfather", "opa": "grandfather",
    "grandad": "grandfather", "granddad": "grandfather", "gran": "grandmother",
    "großvater": "grandfather", "husband": "partner", "wife": "partner", "frau": "partner",
    "mann": "partner", "boss": "boss", "manager": "boss", "chef": "boss", "chefin": "boss",
    "managerin": "boss", "kollegin": "kollege", "nachbarin": "nachbar",
    "babysitterin": "babysitter",
}
# Someone who joins the user ("My girlfriend moved in with me", "Mama wohnt jetzt bei uns"):
# the user's household changed.
# ("ein Pflegeheim bei uns in Göttingen" is near the user, not with them.)
WITH_USER = re.compile(r"(?<!\w)(?:(?:moved|moving|move|moves) in with|(?:lives|living) with) "
                       r"(?:me|us)(?!\w)|(?<!\w)(?:zu|bei) (?:mir|uns) (?:ein)?gezogen(?!\w)"
                       r"|(?<!\w)wohnt (?:\w+ )?bei (?:mir|uns)(?!\w)(?! in\b)"
                       # Living together is the user's household: "seit Mai wohnen wir
                       # zusammen", "we moved in together".
                       r"|(?<!\w)(?:wohnen|leben) wir (?:\w+ )?zusammen(?!\w)"
                       r"|(?<!\w)wir (?:wohnen|leben) (?:\w+ )?zusammen(?!\w)"
                       r"|(?<!\w)we(?:'ve| have)? (?:moved in|live|are living|now live) together"
                       r"(?!\w)"
                       # The user moving in with someone: "moved in with my girlfriend",
                       # "zu meiner Freundin (ge)zogen".
                       r"|(?<!\w)(?:moved|moving|move) in with (?:my|our)(?!\w)"
                       r"|(?<!\w)zu (?:meiner|meinem|unserer|unserem) \w+ (?:\w+ ){0,3}?"
                       r"(?:ge)?zogen(?!\w)")
# A venue or group as the subject that has something new ("Unser Verein hat jetzt einen neuen
# Trainer", "The gym has new opening hours", "Der Bäcker an der Ecke hat sonntags zu"): its own
# news, even when the user calls it theirs.
VENUE_HAS = re.compile(
    r"^(?:the|der|die|das|my|our|mein\w*|unser\w*)\s+(?:[\w-]+\s+){0,3}?(?:place|restaurant|"
    r"shop|store|caf[eé]|bar|bakery|baker|company|school|club|gym|pool|library|hospital|studio|"
    r"team|band|landlord|laden|geschäft|kneipe|bäcker\w*|friseur\w*|schule|verein|firma|"
    r"bibliothek|krankenhaus|kita|\w*bad|\w*studio)\s+(?:\S+\s+){0,3}?(?:hat|has|have|haben|"
    r"got|gets|bekommt|bekam)(?!\w)(?!.*(?<!\w)(?:ich|wir|i|we|me|us|mich|uns)(?!\w))"
)
# Someone named who got a new thing of their own ("Tom got a new phone number", "Lisa hat
# sich ein neues Rad gekauft"): theirs, unless the older statement names them.
NAMED_OWN = re.compile(
    r"^[A-ZÄÖÜ][\w-]+\s+(?:got|has|gets|bought|hat|bekommt|kaufte|hat sich)\s+(?:\w+\s+)?"
    r"(?:a|an|einen|eine|ein)\s+(?:new|neue[nrs]?)(?!\w)"
)
# Relatives addressed by the kin word as a name: "Mum celebrated her 69th", "Opa wird 90".
KIN_NAMES = re.compile(r"^(?:mum|mom|mama|mami|dad|papa|grandma|grandpa|granny|oma|opa|"
                       r"nana|grandad|granddad|gran)(?!\w)")
# A relative the user moves somewhere ("Wir haben Papa in ein Heim hier geholt", "We moved
# Mum into a care home"): the relative's home changed, not the user's.
KIN_MOVED = re.compile(
    r"(?<!\w)(?:moved|brought|took|got|moving|bringing)\s+(?:my\s+|our\s+)?"
    r"(?P<kin>mum|mom|dad|gran|grandma|grandpa|nan|nana|mother|father)\s+(?:in)?to(?!\w)"
    r"|(?<!\w)(?:haben|habe|hab|hat)\s+(?:(?:meine[nm]?|unsere[nm]?)\s+)?"
    r"(?P<kind>papa|mama|oma|opa|vater|mutter)\s+(?:\S+\s+){1,6}?"
    r"(?:geholt|gebracht|verlegt|untergebracht)(?!\w)"
)
# Relatives opening a statement with an article: "The twins turned two", "Die Kinder gehen
# jetzt auf die Waldschule".
THE_RELATIVES = re.compile(r"^(?:the|die|der)\s+(?P<holder>twins|kids|children|boys|girls|"
                           r"zwillinge|kinder|jungs|mädchen)(?!\w)")
# Someone the user knows, named after a role no list holds ("Mein Kumpel Sven hat ...", "My
# buddy Raj moved"): that person is the holder, under the role's name.
APPOSITION = re.compile(r"^(?:(?:[Mm]y|[Oo]ur)\s+(?P<noun>[a-z]{3,})|(?:[Mm]ein|[Uu]nser)\w*\s+"
                        r"(?P<nomen>[A-ZÄÖÜ][a-zäöüß]{2,}))\s+[A-ZÄÖÜ][a-zäöüß]+"
                        r"\s+(?:hat|ist|has|is|was|war|got|wurde|\w+(?:ed|t))(?!\w)")
# People named by a definite article ("Die Nachbarn haben ...", "The neighbours got ..."):
# the holder, as "our neighbours" would be.
DEFINITE_PEOPLE = re.compile(r"^(?:the|die|der)\s+(?P<holder>neighbou?rs|nachbarn|nachbar|"
                             r"in-laws|schwiegereltern|landlord|vermieter\w*|kollegen|"
                             r"colleagues|flatmates|mitbewohner\w*|grandparents|großeltern)"
                             r"(?!\w)")
# A death ends all that was said of someone: "Meine Oma ist gestorben" replaces "Meine Oma ist
# 95" and where she lived.
DEATH = re.compile(r"(?<!\w)(?:died|passed away|gestorben|verstorben|starb)(?!\w)")
# A pronoun subject points at someone said before ("She's potty trained now"): whom is not
# known from the statement itself.
PRONOUN_SUBJECT = re.compile(r"^(?:she|he|she's|he's|sie|er)(?!\w)(?!\s+(?:und|and)\s)")
# A person's pronoun ("He moved to York", "Sie wohnt jetzt in Köln"): someone else, never the
# user, unless the user is named in it too ("She moved in with us"). German "er"/"sie" also
# stand for things ("der Termin ... er wurde verschoben"), so they count as a person only for
# what only people do: live, work, marry, eat, smoke, drive.
PERSON_PRONOUN = re.compile(r"^(?:she|he|she's|he's|sie|er)(?!\w)(?!\s+(?:und|and)\s)")
GERMAN_PRONOUN = re.compile(r"^(?:sie|er)(?!\w)")
PERSON_SLOTS = frozenset(("residence", "work", "relationship", "diet", "smoking", "vehicle",
                          "identity", "age", "education"))
USER_NAMED = re.compile(r"(?<!\w)(?:me|us|mich|mir|uns|my|our|mein\w*|unser\w*|i|we|ich|wir)"
                        r"(?!\w)")
# Someone else's relative: "Omar's brother", "Annas Schwester".
OTHERS = re.compile(
    r"(?<!\w)\w+(?:'s|s) (?P<holder>brother|sister|mother|father|wife|husband|partner|son|"
    r"daughter|boss|bruder|schwester|mutter|vater|frau|mann|sohn|tochter|chef|chefin|"
    r"neighbou?r|friend|colleague|nachbarin|nachbar|freundin|freund|kollegin|kollege)(?!\w)"
)
# A third party's own things ("The bus company changed its logo", "Die ING hat ihr
# App-Design geändert"): about them, not about the user.
THIRD_PARTY = re.compile(r"(?<!\w)(?:its|their|his|her|ihr|ihre|ihren|ihrem|sein|seine|seinen|"
                         r"seinem)(?!\w)")
# A person's thing by a person's possessive (not "its"/"their", which may be a company's).
PERSONS_THING = re.compile(r"(?<!\w)(?:his|her|sein|seine|seinen|seinem|ihre|ihren|ihrem)"
                           r"(?!\w)")
# A place or business as the subject is a third party too ("The vegan place around the corner
# closed down", "Seit Montag hat die Schule einen neuen Spielplatz").
VENUE_SUBJECT = re.compile(
    # A fronted time, with its verb in German ("Seit Mai hat die Schule...", "Since Monday the
    # school has...").
    r"^(?:(?:since|seit|ab|from|as of)\s+(?:\S+\s+){1,3}?"
    r"(?:(?:hat|ist|has|is|wurde|hat sich)\s+)?)?"
    r"(?:the|der|die|das)\s+(?:[\w-]+\s+){0,3}?(?:place|restaurant|shop|store|caf[eé]|bar|"
    r"bakery|company|school|club|gym|pool|library|hospital|studio|laden|geschäft|kneipe|"
    r"bäckerei|schule|verein|firma|bibliothek|krankenhaus|kita|\w*bad|\w*studio)(?!\w)"
)
# Words that open a sentence capitalised without being a name ("Change again: ...",
# "Pushed again", "Thirty as of Friday"): checked before a capitalised first word is read
# as someone named.
_NOT_NAMES = frozenset([
    "the", "my", "our", "i", "we", "ich", "wir", "mein", "meine", "unser", "unsere", "der", "die",
    "das", "ein", "eine", "a", "an", "since", "seit", "from", "ab", "as", "actually", "eigentlich",
    "now", "jetzt", "it", "es", "this", "that", "dieser", "diese", "dr", "mr", "mrs", "ms", "prof",
    "change", "again", "wieder", "schon", "still", "noch", "finally", "endlich", "good", "great",
    "gute", "update", "news", "sorry", "oh", "wow", "yes", "no", "ja", "nein", "nope", "well", "so",
    "also", "and", "but", "und", "aber", "then", "dann", "after", "nachdem", "before", "when",
    "als", "wenn", "if", "falls", "thirty", "forty", "fifty", "twenty", "zwanzig", "dreißig",
    "vierzig", "fünfzig", "pushed", "moved", "sold", "quit", "left", "back", "zurück", "today",
    "heute", "yesterday", "gestern", "tomorrow", "morgen", "last", "next", "she", "he", "they",
    "sie", "er", "there", "here", "hier", "dort", "what", "how", "why", "who", "wo", "wie", "was",
    "wer", "these", "those", "ever", "starting", "from", "wegen", "vor", "nach", "mit", "bei",
    "von", "für", "ohne", "gegen", "durch", "um", "während", "trotz", "nochmal", "inzwischen",
    "mittlerweile", "neuerdings", "leider", "heute", "you", "your", "du", "dein", "bitte", "please",
    "hey", "hi", "danke", "thanks", "übrigens", "btw", "ehrlich", "honestly",
])
# A name that opens a statement is its subject ("Nils has been growing a beard", "Oslo hat
# sich verändert"), also after a leading time and its verb ("Seit letzter Woche lässt sich
# Nils einen Bart wachsen").
NAMED_SUBJECT = re.compile(
    r"^(?P<inverted>(?:Since|Seit|Ab|As of)\s+(?:\S+\s+){0,3}?(?:hat|ist|lässt|wurde|wird)\s+"
    r"(?:sich\s+)?)?"
    # A title is not the name ("Frau Beck hat..."): the name follows it.
    r"(?:(?:Frau|Herr|Dr|Prof|Mr|Mrs|Ms)\.?\s+)?"
    # Not "Tanja und ich", not an imperative ("Nenn mich", "Call me").
    r"(?P<name>[A-ZÄÖÜ][\w-]+)(?:'s)? (?!(?:und|and) (?:ich|I)\b)"
    r"(?!(?:me|mich|mir|us|uns)\b)(?P<next>[a-zäöüß]+)\b(?! (?:ich|wir|I|we)\b)"
)
# What follows a name as its subject is a verb: an auxiliary, "-ed"/"-s", German "-t"/"-te"
# ("Nils has", "Tom quit", "Lena arbeitet"); "Piano recital is" opens with a noun.
_VERB_LIKE = re.compile(
    r"(?:is|was|has|had|got|gets|will|can|just|now|quit|left|hat|ist|war|wird|wurde|muss|"
    r"musste|kann|will|lässt|hatte|bekommt|\w+ed|\w+[^s]s|\w+t|\w+te)$"
)
# Someone else's thing named by a possessive: "Anna's party", "the design team's standup",
# "das Daily vom Designteam". (Case-sensitive, on the statement as written.)
POSSESSED = re.compile(
    r"(?<!\w)(?!(?:She|He|It|That|What|There|Here|Let|Who|Where|How)'s)"
    r"(?P<name>[A-ZÄÖÜ]\w+)'s \w+|(?<!\w)(?:vom|von der|des) (?P<team>\w*[Tt]eam)(?!\w)"
    r"|(?<!\w)[Tt]he (?:\w+ )?(?P<group>team|company|club|school|band|class|group)'s \w+"
)
_ARTICLES = frozenset([
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines",
    "kein", "keine", "keinen", "the", "a", "an", "my", "our", "your", "his", "her", "their", "this",
    "that", "these", "those", "im", "am", "vom", "beim", "zum", "zur", "ins", "jede", "jeden",
    "jedem", "mein", "meine", "meinen", "meinem", "meiner", "meines", "unser", "unsere", "unseren",
    "unserem", "unserer", "dein", "deine", "deinen", "sein", "seine", "seinen", "ihr", "ihre",
    "ihren",
])
_CALENDAR = re.compile(
    r"(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|januar|februar|märz|juni|juli|oktober|dezember|mitte|anfang|ende|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:mon|diens|donners|frei|sams|sonn)tag|"
    r"mittwoch|woche|wochen|wochenende|monat|monaten|jahr|jahren|jahresbeginn|tag|tagen|abend|"
    r"nacht|zeit|mal)s?$", re.IGNORECASE,
)
# "I" is capitalised mid-sentence without being a name ("Tanja and I split up").
_TITLES = frozenset(("dr", "prof", "herr", "frau", "mr", "mrs", "ms", "i", "i'm", "i've", "i'd",
                     "i'll"))
_TOKEN = re.compile(r"[\w'-]+|[.!?:;]")
_ACRONYM = re.compile(r"[A-ZÄÖÜ]{2,5}$")


def names_in(text: str) -> frozenset[str]:
    """Names a statement mentions, casefolded: capitalised words not opening a sentence, not
    a German noun after an article, possessive or adjective, not a month, day or title."""
    found: set[str] = set()
    before = previous = "."
    for token in _TOKEN.findall(text):
        word = token.removesuffix("'s")
        # "meine eigene Wohnung": a noun after an article and an adjective.
        adjective = before.casefold() in _ARTICLES and re.search(r"[a-zäöüß]e[nrsm]?$", previous)
        if (word[:1].isupper() and previous not in ".!?:;" and not adjective
                and not previous[:1].isdigit()
                # (An acronym after an article is a name: "die AOK", "the BBC".)
                and (previous.casefold() not in _ARTICLES or _ACRONYM.match(word))
                and not _CALENDAR.match(word) and word.casefold() not in _TITLES
                and not _holder_noun(word.casefold())):
            found.add(word.casefold())
        before, previous = previous, token
    return frozenset(found)


def _holder_noun(word: str) -> bool:
    return any(word == noun.rstrip("*") or (noun.endswith("*") and word.startswith(noun[:-1]))
               for noun in HOLDER_NOUNS)


def named_subject(text: str) -> str | None:
    """The name a statement opens with as its subject, casefolded, if any."""
    found = NAMED_SUBJECT.match(text.strip())
    if found is None or found["name"].casefold() in _NOT_NAMES:
        return None
    name = found["name"]
    # After a fronted time and its verb ("Seit Mai lässt sich Nils..."), the verb came first.
    verb_after = found["inverted"] is None
    if ((verb_after and not _VERB_LIKE.match(found["next"])) or name.endswith("ed")
            or _holder_noun(name.casefold()) or _CALENDAR.match(name)):
        return None
    return name.casefold()


def named_holder(name: str) -> str:
    return "name:" + name


def name_of(holder: str | None) -> str | None:
    """The name in a holder that is someone named, else None."""
    return holder[5:] if holder and holder.startswith("name:") else None


def third_person(norm: str, found_slots: frozenset[str]) -> bool:
    """Whether a person other than the user is the subject: "he"/"she", or German "er"/"sie"
    doing what only people do; not when the user is named too ("She moved in with us")."""
    if not PERSON_PRONOUN.match(norm) or USER_NAMED.search(norm):
        return False
    return not GERMAN_PRONOUN.match(norm) or (
        bool(found_slots & PERSON_SLOTS) and "schedule" not in found_slots)


def opening_name(text: str) -> frozenset[str]:
    """A name opening the statement as its subject: "Frank und ich", "Nils has ..."."""
    found = re.match(r"\s*([A-ZÄÖÜ][\w-]+) (?:und|and) (?:ich|I)\b", text)
    name = found[1].casefold() if found else named_subject(text)
    return frozenset((name,)) if name else frozenset()
