"""Colloquial EN/DE spelled out before the patterns read it (issue 23: facts on unseen text).

People type as they speak: "hab", "wohn jetzt in ...", "'ne", "vorm", Swiss "heisse",
Austrian "Jänner", "im a nurse", "dont", a dropped subject ("Bin seit März bei Siemens",
"Been living in Cork"), typos in the words a pattern hangs on ("alergic", "wrok"), and a
preamble about the conversation before the fact ("Not sure if I told you, but ...").
`spelled_out` rewrites such a sentence into the standard forms the patterns are written for,
so each pattern covers the colloquial variants of its construction instead of one list of
phrasings per pattern. Only forms with one reading are rewritten: "im" becomes "I'm" only
in an English sentence, a verb gets back its "ich" only where German would need one.
"""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.lexicon import (
    FEMININE_SUFFIX_DE,
    NATIONALITIES_DE,
    OCCUPATION_STEMS_DE,
    PETS_DE,
    word_set,
)

# Standard spellings, whole words, case kept by `_cased` (German and English alike).
_SPELLINGS_DE = {
    "hab": "habe", "'ne": "eine", "ne": "eine", "'nen": "einen", "nen": "einen", "vorm": "vor dem",
    "grad": "gerade", "heisse": "heiße", "heisst": "heißt", "weiss": "weiß", "gross": "groß",
    "grosse": "große", "grossen": "großen", "spass": "Spaß", "jänner": "Januar", "nich": "nicht",
    "nix": "nichts", "hab's": "habe es", "is'": "ist", "heuer": "dieses Jahr",
    "gezügelt": "umgezogen",
    "mei": "mein", "is": "ist", "isch": "ist", "spü": "spiele", "scho": "schon", "bi": "bin",
    "hob": "habe", "mog": "mag", "uf": "auf", "nimmer": "nicht mehr", "bruada": "Bruder",
}  # the last two lines: Bavarian, Austrian and Swiss forms with one standard reading
_SPELLINGS_EN = {
    "im": "I'm", "ive": "I've", "dont": "don't", "cant": "can't", "didnt": "didn't",
    "doesnt": "doesn't", "isnt": "isn't", "wasnt": "wasn't", "havent": "haven't", "i": "I",
    "thats": "that's", "theyre": "they're",
}
# First-person verbs clipped of their -e ("ich wohn", "trink ich"): only where "ich" is next
# to them, or they open the sentence, since "komm" alone is an imperative.
_CLIPPED_DE = word_set("""
wohn arbeit komm geh mach ess trink rauch fahr leb lieb hass brauch spiel lern such zieh
schaff heiß werd find kauf kenn koch les schreib schlaf steh vertrag
""")
_CLIPPED_FULL = {"ess": "esse", "les": "lese", "heiß": "heiße", "arbeit": "arbeite"}
# Opening a sentence, most clipped verbs are imperatives ("Schreib mir ...", "Ruf an");
# these are not said to an assistant as orders.
_CLIPPED_OPENING = word_set("wohn arbeit leb ess trink rauch heiß")
# Verbs that stand only in the first person singular: a clause that opens with one dropped
# its "ich" ("Bin seit März bei Siemens", "Moin, wohne in Flensburg").
FIRST_PERSON_DE = word_set("""
bin habe wohne arbeite lebe komme heiße mag liebe hasse esse trinke rauche vertrage stehe
muss werde will kann darf spiele mache gehe fahre studiere unterrichte stamme bevorzuge
leide reagiere ernähre jobbe schaffe
""")
# English predicates that open a sentence without their "I" ("Live in Bristol now").
_DROPPED_EN = re.compile(
    r"^(?:(?P<have>been\b|got (?=an? |my |the ))|(?P<am>(?:totally |so |really |super |kinda )?"
    r"(?:obsessed|allergic|intolerant|into|vegan|vegetarian|married|engaged|based|"
    r"not (?=\w+ing\b)|(?:currently|now|still|just) (?:working|living|based|staying)\b))"
    r"|(?P<plain>(?:just |recently |still |also |honestly |really |absolutely |totally |"
    r"genuinely |seriously )?(?:(?:live|moved) (?=in\b|to\b|into\b|near\b|"
    r"with\b|back\b|abroad\b)|work (?=at\b|for\b|in\b|as\b|from\b|nights\b)|(?:love|hate|"
    r"started|quit|teach|joined|prefer|adore|enjoy|can't stand|cannot stand|can't eat)\b"
    # A past tense before its object: "Sold my old Vespa", "Ran my first marathon".
    r"|(?:[a-z]+ed|ran|won|sold|bought|met|left|took|made|swam|rode|drove|flew|wrote|built|"
    r"broke|lost|found|began|became|saw|gave|passed|finally \w+ed) (?=(?:my|our|a|an|the|"
    r"some|two|three)\b)))"
    # "Huge fan of the Cubs": a noun phrase that says what the user is.
    r"|(?P<a>(?:huge|big|massive|great|total|lifelong) fan of\b))",
    re.IGNORECASE,
)
_WIR_DE = re.compile(r"^(?:ich und (?:mein|meine) [\wäöüß-]+|(?:mein|meine) [\wäöüß-]+ und ich) "
                     r"(?=(?:sind|haben|wohnen|leben|ziehen)\b)", re.IGNORECASE)
_WE_EN = re.compile(r"^(?:me and (?:my|our) [\w-]+|(?:my|our) [\w-]+ and (?:I|me)) "
                    r"(?=(?:live|moved|have|'ve|are|'re|rent|bought|got|just)\b)", re.IGNORECASE)
# A preamble about what was said before is no hedge on the fact after it.
_TOLD_BEFORE = re.compile(
    r"^(?:(?:i'm )?not sure if|i don't know if|i can't remember if|in case|"
    r"(?:ich )?weiß nicht,? ob|keine ahnung,? ob|falls|"
    r"ich glaube,? ich habe? (?:es|das|'s)? ?(?:noch )?nicht) "
    r"[^,]*?\b(?:told|tell|mentioned|mention|said|say|erwähnt|gesagt|erzählt)\b[^,]*,\s*"
    r"(?:(?:but|aber|also|so|anyway|jedenfalls)\s+)?",
    re.IGNORECASE,
)
# A discourse opener is no part of the statement after it ("Anyway, Tarek and I ...").
_OPENER = re.compile(r"^(?:anyway|anyways|long story short|fun fact|btw|oh and|so yeah|"
                     r"jedenfalls|naja|na ja|kurz gesagt|ach so|ach ja)[,:!]?\s+", re.IGNORECASE)
GREETING = re.compile(
    r"^(?:(?:hi|hey|hello|hallo|moin|servus|grüezi|hoi|grüß gott|guten (?:morgen|tag|abend)|"
    r"good (?:morning|evening|afternoon)|morning|thanks|danke)(?: zusammen| there| all| mitenand|"
    r" zäme)?[,!.]?\s+)",
    re.IGNORECASE,
)
# Words whose letters are often swapped or a double letter dropped: the words patterns hang on.
_TRIGGERS = word_set("""
allergic allergisch intolerant vegetarian vegetarier vegetarierin veganer veganerin wohne
arbeite work works live lives name married verheiratet daughter tochter sister schwester
brother bruder husband wife birthday geburtstag favourite favorite lieblings heiße called
moved allergy allergie diabetic
""")
_JOB_STEMS_DE = frozenset(stem for stem in OCCUPATION_STEMS_DE if len(stem) >= 4)
_NOUNS_DE = frozenset(w.casefold() for w in PETS_DE | NATIONALITIES_DE) | word_set("""
vegetarier vegetarierin veganer veganerin nichtraucher nichtraucherin angst allergie
""")
_WORD = re.compile(r"[A-Za-zÄÖÜäöüß']+")
_GERMAN = word_set("""
ich und der die das nicht bin habe hab ist mein meine wohne arbeite mit bei seit auch aber
wir sind kein keine noch schon mehr übrigens jetzt heiße heisse gerade grad als zum zur vom
im am ein eine auf für von zu hier zwei drei wohn mag einer einem eines den dem sich wie was
wo wenn dass weil sehr gern bitte danke nur beim vom zum wohnen leben servus grüezi moin
eigentlich isch nimmer mir mei scho des hob mog wohnt lebt
""")
_ENGLISH = word_set("""
i i'm the and my is am at to of in for not with have work live just so but you a an
""")


_DIALECT_I = re.compile(r"\b[iI] (?:bin|hab|habe|hob|wohn|wohne|spü|mog|mag|arbeit|schaff)\b")
# Bavarian "i wohn": the German "ich" (read before clipped verbs are restored).
_BAVARIAN_I = re.compile(r"(?:^|(?<=, ))i(?= (?:bin|hab|habe|wohn|wohne|arbeit|arbeite|mag|"
                         r"spiele|fahr|fahre|geh|gehe|trink|trinke|ess|esse|leb|lebe)\b)",
                         re.IGNORECASE)


def is_german(sentence: str) -> bool:
    """Whether `sentence` reads as German: more German than English function words."""
    # A lower-case "im" opening a chat line ("hey im Jonah") is English as often as German.
    sentence = re.sub(r"^(?:(?:hi|hey|hello)\W*\s+)?im\b", "", sentence)
    words = [w.casefold() for w in _WORD.findall(sentence)]
    umlauts = bool(re.search(r"[äöüß]", sentence, re.IGNORECASE))
    # "ich" is never English: it counts twice.
    german = sum(w in _GERMAN for w in words) + words.count("ich") + umlauts
    # Bavarian "i" before a German verb ("i wohn", "i bin") is no English "I".
    german += 2 * len(_DIALECT_I.findall(sentence))
    return german > sum(w in _ENGLISH for w in words)


def _cased(original: str, replacement: str) -> str:
    if original[:1].isupper() and replacement[:1].islower():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _respelled(sentence: str, german: bool) -> str:
    spellings = _SPELLINGS_DE if german else _SPELLINGS_EN

    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        folded = word.lower()  # not casefold: "heiße" keeps its ß
        if folded in spellings and (german or folded != "i" or word == "i"):
            # German "Im Krankenhaus" stays: "im" is "I'm" only before a lower-case word.
            # Opening an English sentence in lower case, "im Zara" is "I'm Zara".
            if folded == "im" and not re.match(r"\s+[a-z0-9]", sentence[match.end():]) and not (
                    word == "im" and not sentence[:match.start()].strip()):
                return word
            return _cased(word, spellings[folded])
        fixed = _typo_fixed(folded)
        return _cased(word, fixed) if fixed else word

    return _WORD.sub(swap, sentence)


def _typo_fixed(word: str) -> str | None:
    """The trigger word `word` misspells by two swapped letters or one letter of a double."""
    if len(word) < 4 or word in _TRIGGERS:
        return None
    for index in range(len(word) - 1):
        swapped = word[:index] + word[index + 1] + word[index] + word[index + 2:]
        if swapped in _TRIGGERS:
            return swapped
    for index, letter in enumerate(word):
        doubled = word[:index] + letter + word[index:]
        if doubled in _TRIGGERS:
            return doubled
    return None


def _unclipped(sentence: str) -> str:
    """"ich wohn" / "ich wohn'" / "trink ich" / a sentence opening "Wohn" -> the -e form."""
    sentence = re.sub(r"(?<=[a-zäöüß])'(?=[\s,.!?]|$)", "", sentence)

    def full(match: re.Match[str]) -> str:
        word = match.group("verb")
        folded = word.lower()
        return _cased(word, _CLIPPED_FULL.get(folded, folded + "e"))

    verbs = "|".join(sorted(_CLIPPED_DE, key=len, reverse=True))
    sentence = re.sub(rf"(?<=\bich )(?P<verb>{verbs})\b(?!')", full, sentence, flags=re.I)
    sentence = re.sub(rf"\b(?P<verb>{verbs})(?= ich\b)", full, sentence, flags=re.I)
    opening = "|".join(sorted(_CLIPPED_OPENING, key=len, reverse=True))
    return re.sub(rf"^(?P<verb>{opening})\b(?= )", full, sentence, flags=re.I)


def _with_subject_de(sentence: str) -> str:
    """"Bin seit März bei Siemens" -> "ich bin seit März bei Siemens"; also after a comma
    ("Jan hier, wohne in Flensburg")."""

    def add(match: re.Match[str]) -> str:
        return f"{match.group('lead')}ich {match.group('verb').lower()}"

    verbs = "|".join(sorted(FIRST_PERSON_DE, key=len, reverse=True))
    return re.sub(rf"(?P<lead>^|,\s+)(?P<verb>{verbs})\b(?! (?:ich|du|er|sie|es|wir|ihr)\b)",
                  add, sentence, flags=re.I)


def _with_subject_en(sentence: str) -> str:
    # "Me and my wife live in Bath", "My wife and I moved": we.
    sentence = _WE_EN.sub("We ", sentence)
    found = _DROPPED_EN.match(sentence)
    if found is None:
        return sentence
    rest = sentence[:1].lower() + sentence[1:]
    if found.group("have"):
        return "I've " + rest
    if found.group("a"):
        return "I'm a " + rest
    return ("I'm " if found.group("am") else "I ") + rest


def _named_in_lower_case(sentence: str) -> str:
    """In a sentence typed all in lower case, the name after "my name is" gets its capital."""
    if any(ch.isupper() for ch in sentence.replace("I'm", "").replace("I've", "")
           .replace(" I ", " ")):
        return sentence
    sentence = re.sub(r"\b(my name is|my name's|I'm called|mein name ist|ich heiße|hi,? I'm|"
                      r"hi,? ich bin) (\w)",
                      lambda m: f"{m.group(1)} {m.group(2).upper()}", sentence, flags=re.I)
    # "meine schwester maren ist 34": the word between a relative and its verb is a name.
    return _KIN_NAME.sub(lambda m: f"{m.group(1)}{m.group(2).upper()}", sentence)


_KIN_NAME = re.compile(
    r"\b((?:my|our|mein|meine|unser|unsere) (?:sister|brother|son|daughter|wife|husband|"
    r"partner|schwester|bruder|sohn|tochter|frau|mann|partnerin) )([a-zäöüß])(?=[a-zäöüß]+ "
    r"(?:is|ist|lives|wohnt|lebt|works|arbeitet)\b)", re.IGNORECASE)


def _we_de(sentence: str) -> str:
    """"Ich und mein Freund sind ... gezogen" -> "wir sind ... gezogen"; Swiss and Bavarian
    "Mir wohnen in Thun" -> "wir wohnen"; a dialect article before one's own name ("ich bin
    d'Corinne", "i bin da Ferdl") falls off."""
    sentence = re.sub(r"^mir(?= (?:wohnen|leben|sind|haben|ziehen|arbeiten)\b)", "wir",
                      sentence, flags=re.IGNORECASE)
    sentence = re.sub(r"\b(ich bin) (?:(?:da|de) |d')(?=[A-ZÄÖÜ])", r"\1 ", sentence,
                      flags=re.IGNORECASE)
    return _WIR_DE.sub("wir ", sentence)


def _at_work(sentence: str) -> str:
    """Swabian/Swiss "ich schaffe beim Bosch" -> "ich arbeite bei Bosch" (a firm's name after
    "beim" at work; "beim Arzt" keeps its article, as it names no employer)."""
    sentence = re.sub(r"\b(?:schaffe|schaff)(?= (?:bei|beim|als|in|im|für)\b)", "arbeite",
                      sentence, flags=re.IGNORECASE)
    return re.sub(r"\b(arbeite|jobbe) beim (?=[A-ZÄÖÜ](?!rzt|otheke)[\wäöüß]+)", r"\1 bei ",
                  sentence)


def _nouns_in_lower_case(sentence: str) -> str:
    """German typed all in lower case: a job, a pet or a nationality gets its capital back
    ("ich bin lehrerin" -> "ich bin Lehrerin"), as the noun patterns expect."""
    if any(ch.isupper() for ch in sentence):
        return sentence

    def capital(match: re.Match[str]) -> str:
        word = match.group(0)
        bare = word.removesuffix(FEMININE_SUFFIX_DE)
        known = (word in _NOUNS_DE or any(bare.endswith(stem) or word.endswith(stem)
                                          for stem in _JOB_STEMS_DE))
        return word[:1].upper() + word[1:] if known else word

    return re.sub(r"\b[a-zäöüß]{4,}\b", capital, sentence)


def spelled_out(sentence: str) -> str:
    """`sentence` in the standard spelling and word order the fact patterns read."""
    german = is_german(sentence)
    sentence = _TOLD_BEFORE.sub("", sentence.strip())
    sentence = _OPENER.sub("", sentence)
    greeting = GREETING.match(sentence)
    lead = greeting.group(0) if greeting else ""
    body = sentence[len(lead):]
    if german:
        body = re.sub(r"\bseit heuer\b", "seit diesem Jahr", body, flags=re.IGNORECASE)
    body = _respelled(body, german)
    if german:
        body = _BAVARIAN_I.sub("ich", body)
        body = _nouns_in_lower_case(_at_work(_we_de(_with_subject_de(_unclipped(body)))))
    else:
        body = _with_subject_en(body)
    return _named_in_lower_case(lead + body)
