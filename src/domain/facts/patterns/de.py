"""German fact patterns for who the user is (identity) and what they like (preference)."""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.lexicon import (
    ERRAND_PLACES_DE,
    FEMININE_SUFFIX_DE,
    KIN,
    NATIONALITIES_DE,
    OCCUPATION_STEMS_DE,
    PETS_DE,
)
from memlane.domain.facts.rules import ObjectKind, Rule, alternation, ended, rule, trim


def named_employer(place: str) -> str:
    """A firm named by its name needs no place: "Bosch in Feuerbach" -> "Bosch"."""
    name, found, _ = place.partition(" in ")
    return name if found and name[:1].isupper() and name.split()[0].casefold() not in (
        "der", "die", "das", "dem", "den") else place

NAME, NAMES, LIST = ObjectKind.NAME, ObjectKind.NAMES, ObjectKind.LIST
W = r"[\wäöüÄÖÜß-]+"
# Adverbs between verb and object that say nothing about it ("ich wohne seit 2018 in ...").
FILL = (r"(?:(?:jetzt|mittlerweile|inzwischen|nun|seit kurzem|auch|noch|schon|eigentlich|"
        r"wirklich|gerade|derzeit|zurzeit|aktuell|momentan|immer noch|nach wie vor|"
        r"wieder|schon ewig|schon lange?|schon immer|seit langem|allein|alleine|"
        r"(?:schon )?mein ganzes leben|"
        r"seit \w+(?: \w+)?|aber|zurzeit|ja|übrigens|teilzeit|vollzeit|nebenbei|hauptberuflich|"
        r"ehrenamtlich|freiberuflich) )*")
PETS = alternation(PETS_DE)
# Up to four words of dates and adverbs, but no object of their own ("mein Abo bei Netflix
# gekündigt" ends a subscription, not a job).
_NO_THING = (r"(?:(?!(?:mein|meine|meinen|den|die|das|ein|eine|einen)\b)[\w.]+ ){0,4}?")
# Adverbs that can open a German sentence before "mag ich", and are not what is liked.
_FRONTED = (r"(?!(?:inzwischen|mittlerweile|jetzt|neuerdings|heute|besonders|auch|dann|"
            r"früher|damals|eigentlich|seitdem|trotzdem|deshalb|also|wirklich|ehrlich|"
            r"ehrlich gesagt|sehr|total|echt|schon)\b)")
_NEGATION = re.compile(r"\b(?:nicht|kein\w*|nie|niemals)\b", re.IGNORECASE)
_DATE = re.compile(r"\d|januar|februar|märz|april|mai|juni|juli|august|september|oktober|"
                   r"november|dezember", re.IGNORECASE)


def occupation_de(_: re.Match[str], noun: str) -> str | None:
    """`noun` when it is a German job noun (compounds and feminine forms count)."""
    if " " in noun or not noun[:1].isupper():
        return None
    word = noun.casefold().removesuffix(FEMININE_SUFFIX_DE)
    return noun if any(word.endswith(stem) or noun.casefold().endswith(stem)
                       for stem in OCCUPATION_STEMS_DE) else None


def _job_is_occupation(match: re.Match[str]) -> bool:
    return occupation_de(match, match.group("job")) is not None


def _a_date(_: re.Match[str], value: str) -> str | None:
    return value if _DATE.search(value) else None


def _a_noun(_: re.Match[str], value: str) -> str | None:
    """German nouns are capitalised: "Lieblingstasse ist rot" names a colour, not a thing."""
    return value if value[:1].isupper() or value[:1].isdigit() else None


def infinitive(verb: str) -> str:
    """The infinitive of a first-person present verb: koche -> kochen, wandere -> wandern."""
    verb = verb.casefold()
    if verb.endswith("iere"):  # trainiere -> trainieren
        return verb + "n"
    if verb.endswith("ere") and len(verb) > 4:
        return verb[:-3] + "ern"
    if verb.endswith("le") and len(verb) > 3 and verb[-3] not in "aeiouäöü":
        return verb[:-2] + "eln"
    return verb + "n" if verb.endswith("e") else verb


def _liked_activity(match: re.Match[str], verb: str) -> str | None:
    """'ich lese gern Krimis' -> 'Krimis lesen': what is done gladly, with its verb."""
    if verb.casefold() in {"hätte", "würde", "möchte", "wäre", "bin", "habe"}:
        return None
    rest = trim(match.group("rest") or "")
    rest = re.split(r"\s*[,;]|\s+(?:weil|aber|wenn|und)\b", rest, maxsplit=1)[0]
    return f"{rest} {infinitive(verb)}".strip()


def _origin(_: re.Match[str], place: str) -> str | None:
    """Where someone comes from is a place, not the room or errand they come back from
    ("aus der Küche", "aus dem Büro")."""
    return None if place.split()[-1].casefold() in ERRAND_PLACES_DE else place


IDENTITY: tuple[Rule, ...] = (
    rule(r"\bich heiße (?P<o>.+)", "name", kind=NAME, confidence=0.95),
    rule(r"\bmein (?:vor|nach|spitz|ruf)?name (?:ist|lautet) (?P<o>.+)", "name", kind=NAME,
         confidence=0.95),
    # Adverbs between "mich" and the name are lower case ("nenn mich lieber Hannes").
    rule(r"\b(?:nenn|nennt|nennen) mich (?:(?-i:[a-zäöüß]+) ){0,3}(?P<o>.+)",
         "name", kind=NAME),
    rule(r"\b(?:ich|wir) (?:wohne|wohnen|lebe|leben) " + FILL + r"(?:in|im|auf|am) (?P<o>.+)",
         "lives_in", stops=("mit", "und", "seit", "zusammen"), confidence=0.9),
    rule(r"\b(?:wohne|lebe) (?:ich|wir) " + FILL + r"(?:in|im) (?P<o>.+)", "lives_in",
         stops=("mit", "und", "seit", "zusammen")),
    rule(r"\b(?:ich bin|bin ich|wir sind|sind wir) (?:[\w.]+ ){0,7}?nach (?P<o>.+?) "
         r"(?:um)?gezogen\b", "lives_in"),
    rule(r"\b(?:ich bin|bin ich|wir sind|sind wir) (?:[\w.]+ ){0,7}?in (?P<o>(?:mein|meine|unser|"
         r"unsere) [\wäöüß-]+ [A-ZÄÖÜ][\wäöüß-]+) (?:um|ein)?gezogen\b", "lives_in"),
    rule(r"\bich (?:wohne|lebe) nicht mehr in (?P<o>.+)", "lives_in", negated=True),
    rule(r"\b(?:ich komme|komme ich|ich stamme|stamme ich) (?:(?:ursprünglich|eigentlich|"
         r"gebürtig) )?aus (?P<o>.+)", "comes_from", stops=("und",), shape=_origin),
    rule(r"\b(?:ich bin|ich wurde) (?:\w+ )?in (?P<o>.+?) geboren\b", "birthplace"),
    rule(r"\bgeboren(?: und aufgewachsen)? (?:bin|wurde) ich in (?P<o>.+)", "birthplace",
         stops=("und",)),
    rule(r"\b(?:ich bin|ich wurde) (?:im jahre? )?(?P<o>(?:19|20)\d\d) geboren\b", "birth_year",
         keep_time=True),
    rule(r"\bich bin jahrgang (?P<o>(?:19|20)\d\d)\b", "birth_year", keep_time=True),
    rule(r"\b(?:ich bin|ich wurde) am (?P<o>\d{1,2}\. ?" + W + r"(?: (?:19|20)\d\d)?) geboren\b",
         "birthday", keep_time=True, confidence=0.9),
    rule(r"\bmein geburtstag ist (?:eigentlich |übrigens )?(?:am )?(?P<o>.+)", "birthday",
         keep_time=True, shape=_a_date, confidence=0.9),
    rule(r"\bich habe (?:eigentlich |übrigens )?(?:am )?(?P<o>\d{1,2}\. " + W + r") geburtstag",
         "birthday", keep_time=True, confidence=0.9),
    rule(r"\bich bin (?:jetzt |schon |gerade |inzwischen |mittlerweile |erst )?(?P<o>\d{1,3})"
         r"(?= jahre alt\b|\s*[.!;]?\s*$| und\b|,| geworden\b)", "age"),
    # A birthday just had: "ich bin heute / letzten Monat / am Samstag 30 geworden".
    rule(r"\bich bin (?:heute|gestern|vorgestern|letzte[nsm]? \w+|am \w+|im \w+|vor \w+ \w+) "
         r"(?P<o>\d{1,3}) geworden\b", "age"),
    rule(r"\b(?:ich arbeite|arbeite ich) " + FILL + r"(?:(?:in|im) " + W + r" )?(?:bei|für) "
         r"(?P<o>.+)", "works_at", stops=("als", "und", "seit"), confidence=0.9,
         shape=lambda _m, place: named_employer(place)),
    rule(r"\b(?:ich arbeite|arbeite ich) " + FILL + r"als (?P<job>" + W + r") (?:im|in der|"
         r"in einem|in einer|bei|an der|an einer|an einem|am) (?P<o>.+)", "works_at",
         stops=("und", "seit")),
    # "in" names a workplace with an article ("in einer Grundschule"); before a bare name it
    # names a place ("Feuerwehrmann in Bremen"), as "at" and "in" do in English.
    rule(r"\bich bin (?:(?:jetzt|seit \w+|inzwischen|mittlerweile) )?(?P<job>" + W + r") "
         r"(?:bei|an|am|im|in(?= (?:der|dem|den|einer|einem|eines)\b)) (?P<o>(?!ruhestand\b).+)",
         "works_at", stops=("und", "seit"), accept=_job_is_occupation),
    rule(r"\bich habe " + _NO_THING + r"bei (?P<o>.+?) angefangen\b", "works_at",
         stops=("als",)),
    rule(r"\bich arbeite nicht mehr (?:bei|für) (?P<o>.+)", "works_at", negated=True),
    rule(r"\b(?:ich habe|habe ich) " + _NO_THING + r"bei (?P<o>.+?) gekündigt\b", "works_at",
         negated=True),
    rule(r"\b(?:ich arbeite|arbeite ich|ich jobbe) " + FILL + r"(?:nebenbei )?als (?P<o>.+)",
         "works_as",
         stops=("bei", "im", "in", "an", "am", "für", "und", "seit"), confidence=0.9),
    rule(r"\bich bin (?:(?:jetzt|mittlerweile|inzwischen|seit kurzem|seit \w+(?: (?:jahren|"
         r"monaten|wochen))?|schon|von beruf|beruflich|gelernte[rs]?) )*(?P<o>" + W + r")",
         "works_as", shape=occupation_de,
         confidence=0.8),
    rule(r"\b(?:von beruf|beruflich) bin ich (?P<o>" + W + ")", "works_as", shape=occupation_de),
    rule(r"\bich bin kein(?:e)? (?P<o>" + W + r") mehr\b", "works_as", negated=True,
         shape=occupation_de),
    rule(r"\bmein(?:e)? (?:frau|mann|ehefrau|ehemann|partner|partnerin|lebensgefährtin|"
         r"lebensgefährte|verlobte|verlobter)(?: heißt|,)? (?P<o>[^\s,]+(?: [^\s,]+){0,2})",
         "partner", kind=NAME),
    rule(r"\bich bin mit (?P<o>.+?) (?:verheiratet|verlobt|zusammen)\b", "partner", kind=NAME),
    rule(r"\b(?:mein|meine|unser|unsere) (?:(?:große|kleine|ältere|jüngere|großer|kleiner|älterer|"
         r"jüngerer|älteste|jüngste|ältester|jüngster) )?(?P<rel>schwester|bruder|mutter|mama|"
         r"vater|papa|sohn|tochter)(?: heißt|,)? (?P<o>[^\s,]+(?: [^\s,]+){0,2})", KIN,
         kind=NAME),
    rule(r"\b(?:ich habe|wir haben) (?:eine|einen|ein|zwei|drei|vier) "
         r"(?:(?:große|kleine|ältere|jüngere|"
         r"großen|kleinen|älteren|jüngeren|\w+jährigen?) )?(?P<rel>schwester|schwestern|bruder|"
         r"brüder|sohn|söhne|tochter|töchter|kinder)(?:,? (?:sie|er|die|der) heiß(?:t|en)| namens|"
         r",|:)? (?P<o>.+)", {**KIN, "schwestern": "sister", "brüder": "brother"}, kind=NAMES),
    rule(r"\b(?:ich habe|wir haben) " + FILL + rf"(?:einen|eine|ein|zwei|drei|vier) (?:{PETS})"
         r"(?: namens|,? (?:der|die|das) heiß(?:t|en)|,)? (?P<o>.+)", "pet", kind=NAMES),
    rule(r"\b(?:ich habe|wir haben) " + FILL + rf"(?:einen|eine|ein|zwei|drei|vier) (?P<o>{PETS})"
         r"\b(?!\s*(?:namens|,)|[^.!?]*\b(?:der|die|das) heißt\b)", "pet", confidence=0.8),
    # "eine Katze aus Spanien, die heißt Luna": named after a phrase about it.
    rule(r"\b(?:ich habe|wir haben) " + FILL + rf"(?:einen|eine|ein) (?:{PETS}) [^,.!?]{{1,40}}?,? "
         r"(?:der|die|das) heißt (?P<o>.+)", "pet", kind=NAME),
    rule(rf"\b(?:mein|meine|meinen|unser|unsere) (?:{PETS})(?: heißt|,| hört auf den namen)? "
         r"(?P<o>.+)", "pet", kind=NAME),
    rule(rf"\b(?:ich habe|wir haben) (?:[\w.]+ ){{0,3}}?(?:einen|eine|ein) (?:[\wäöüß-]+ )?"
         rf"[\wäöüß]*(?:{PETS})\b[^.]*?,? (?:er|sie|es) heißt (?P<o>.+)", "pet", kind=NAME),
    rule(rf"\b(?:mein|meine|unser|unsere) (?P<o>{PETS})\b"
         r"(?! heißt| hört| namens|,|\s+(?-i:[A-ZÄÖÜ]))",
         "pet", confidence=0.7),
    rule(rf"\bich bin (?:ein |eine )?(?P<o>{alternation(NATIONALITIES_DE)})\b"
         r"(?=\s*(?:[.!,]|$|und\b|aber\b))",
         "nationality", confidence=0.8),
)

PREFERENCE: tuple[Rule, ...] = (
    rule(r"\bich mag kein(?:e|en|er|em|es)? (?P<o>.+)", "likes", negated=True, accept=ended),
    rule(r"\bich mag kein(?:e|en|er|em|es)? (?P<o>.+)", "dislikes", kind=LIST,
         unless=re.compile(r"\bmehr\b", re.I)),
    rule(r"\bich mag (?P<o>.+?) (?:überhaupt |gar |wirklich |echt )?nicht(?: (?:besonders|"
         r"so gern|sehr|so))?\s*[.!]?$", "dislikes"),
    rule(r"^(?P<o>" + W + r"(?: " + W + r")?) (?:mag|esse|trinke) ich (?:überhaupt |gar |echt |"
         r"wirklich )?nicht\b(?! mehr)", "dislikes"),
    rule(r"^(?P<o>" + W + r"(?: " + W + r")?) mag ich (?:überhaupt |gar )?"
         r"(?:nicht|keine?n?) mehr\b",
         "likes", negated=True),
    rule(r"\bich (?:[a-zäöüß]+e) (?P<o>.+?) (?:viel |deutlich |sehr )?lieber als\b", "prefers"),
    rule(r"\bich (?:mag|liebe|genieße|vergöttere) (?P<o>.+)", "likes", kind=LIST,
         unless=_NEGATION),
    rule(r"^" + _FRONTED + r"(?P<o>" + W + r"(?: " + W + r")?) (?:liebe|mag) ich\b", "likes",
         unless=_NEGATION),
    rule(r"^(?:inzwischen|mittlerweile|jetzt|neuerdings|seitdem|heute|besonders) (?:liebe|mag) "
         r"ich (?P<o>.+)", "likes", unless=_NEGATION),
    rule(r"\bich bin (?:ein |eine )?(?:großer |riesiger |totaler |echter )?fan (?:von|vom) "
         r"(?P<o>.+)",
         "likes", kind=LIST),
    rule(r"\bich stehe (?:total |voll |sehr |echt |richtig )?auf (?P<o>.+)", "likes"),
    rule(r"\bmein(?:e)? lieblings[\wäöüß]+ (?:[\wäöüß]+ ){0,3}?(?:ist|sind) (?P<o>.+)", "likes",
         shape=_a_noun),
    rule(r"^(?P<o>" + W + r"(?: " + W + r")?) (?:ist|sind) mein(?:e)? lieblings\w+", "likes"),
    rule(r"\bich hasse (?P<o>.+)", "dislikes", kind=LIST),
    rule(r"\bich finde (?P<o>.+?) "
         r"(?:(?:unglaublich|total|echt|sehr|wirklich|so|ziemlich|richtig) )*"
         r"(?:furchtbar|schrecklich|doof|blöd|nervig|ätzend|langweilig|"
         r"schlimm|grässlich|eklig)\b", "dislikes"),
    rule(r"\bich finde (?P<o>.+?) (?:toll|super|großartig|klasse|wunderbar|genial|fantastisch|"
         r"herrlich)\b", "likes"),
    rule(r"^(?P<o>" + W + r"(?: " + W + r")?) interessiert mich (?:überhaupt |gar |absolut )?"
         r"nicht\b(?! mehr)", "dislikes"),
    rule(r"\bich (?P<verb>[a-zäöüß]+e) (?:(?:sehr|total|unheimlich|wahnsinnig|richtig|"
         r"besonders|echt|so|ganz|wirklich) )*gerne? ?(?P<rest>.*)$", "likes", group="verb",
         shape=_liked_activity, unless=_NEGATION, reject_pronouns=False),
    rule(r"^am liebsten (?P<verb>[a-zäöüß]+e) ich (?P<rest>.+)$", "likes", group="verb",
         shape=_liked_activity, reject_pronouns=False),
    rule(r"\bich (?:[a-zäöüß]+e) (?:viel |deutlich )?lieber (?P<o>.+?) als\b", "prefers"),
    rule(r"\bich bevorzuge (?P<o>.+?)(?: (?:gegenüber|statt|anstatt|anstelle|vor|als) .*)?$",
         "prefers"),
    rule(r"\bmir (?:ist|sind) (?P<o>.+?) lieber(?: als\b.*)?$", "prefers"),
)
