"""Open-vocabulary mechanisms (issue 23, fourth round): antecedents, agent nouns, slot heads."""

from __future__ import annotations

import pytest

from memlane.domain.facts.antecedents import antecedent_readings, without_parenthetical_ages
from memlane.domain.facts.extraction import extract_facts, relations_asked
from memlane.domain.facts.model import normalise
from memlane.domain.facts.patterns.names import fuller_name
from memlane.domain.facts.patterns.roles import agent_noun_de, agent_noun_en


def found(text: str) -> set[tuple[str, str, str, bool]]:
    return {(normalise(f.subject), f.relation, normalise(f.object), f.negated)
            for f in extract_facts(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A second predicate without a subject, or with a pronoun that agrees.
        ("My sister Ruth is 45 and lives in Leeds.",
         {("user", "sister", "ruth", False), ("ruth", "age", "45", False),
          ("ruth", "lives_in", "leeds", False)}),
        ("My dad lives in Swansea and he's 71 now.",
         {("father", "lives_in", "swansea", False), ("father", "age", "71", False)}),
        ("Unser Kater Moritz schläft den ganzen Tag, er ist schon 15.",
         {("user", "pet", "moritz", False), ("moritz", "age", "15", False)}),
        ("Meine Tochter heißt Lena und ist sieben.",
         {("user", "daughter", "lena", False), ("lena", "age", "7", False)}),
        ("Mama ist 70 und wohnt in Bielefeld.",
         {("mother", "age", "70", False), ("mother", "lives_in", "bielefeld", False)}),
        # A pronoun that does not agree, someone else's relative, a plural: nothing lent.
        ("My son lives with his girlfriend, she's 24.", set()),
        ("Tom's brother is 27 and lives in Oslo.", set()),
        ("Die Schwester von Jana ist 30 und wohnt in Ulm.", set()),
        ("My neighbour's dog Bruno is 12 and he barks all night.", set()),
        # Ages in brackets and gapped after the first.
        ("Wir haben drei Kinder: Lena (12), Tom (9) und Ole (4).",
         {("user", "children", "lena", False), ("user", "children", "tom", False),
          ("user", "children", "ole", False), ("lena", "age", "12", False),
          ("tom", "age", "9", False), ("ole", "age", "4", False)}),
        ("I've got two daughters, Nell is 10 and Rosa 7.",
         {("user", "daughter", "nell", False), ("user", "daughter", "rosa", False),
          ("nell", "age", "10", False), ("rosa", "age", "7", False)}),
    ],
)
def test_a_relative_lends_itself_to_the_clauses_after_it(
    text: str, expected: set[tuple[str, str, str, bool]]
) -> None:
    assert found(text) == expected


def test_antecedent_readings_and_brackets() -> None:
    assert antecedent_readings("My dad lives in Swansea and he's 71.") == ["My dad is 71."]
    assert antecedent_readings("Meine Schwester wohnt in Kiel, er ist 40.") == []
    assert without_parenthetical_ages("Ezra (8) and Maya (5)") == "Ezra and Maya"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bin Zimmerin bei Holzbau Kern in Rottweil.",
         {("works_as", "zimmerin"), ("works_at", "holzbau kern")}),
        ("Ich hab im April bei Bosch als Prüfingenieur angefangen.",
         {("works_as", "prüfingenieur"), ("works_at", "bosch"),
          ("event", "bei bosch als prüfingenieur angefangen")}),
        ("I'm a sommelier at Noma.", {("works_as", "sommelier"), ("works_at", "noma")}),
        ("I'm a part-time barista at Half Cup in King's Cross.",
         {("works_as", "barista"), ("works_at", "half cup")}),
        # Stop list: agent nouns that name no job at a place; an unnamed place.
        ("I'm a member at Brockwell Lido.", set()),
        ("Ich bin Kundin bei der Sparkasse.", set()),
        ("Ich bin Mitglied beim TSV Milbertshofen.", set()),
        ("I'm a regular at the Red Lion.", set()),
        # German capitalises every noun: after "im" a workplace needs a name besides it.
        ("Ich bin Kassenwart im Ruderverein.", set()),
        ("Ich bin Pflegerin im Klinikum Nord.",
         {("works_as", "pflegerin"), ("works_at", "klinikum nord")}),
    ],
)
def test_a_job_with_its_named_workplace_is_read_by_the_nouns_shape(
    text: str, expected: set[tuple[str, str]]
) -> None:
    assert {(r, o) for _s, r, o, _n in found(text)} == expected


def test_agent_nouns() -> None:
    assert agent_noun_en(None, "lock keeper") == "lock keeper"
    assert agent_noun_en(None, "big eater") is None
    assert agent_noun_en(None, "customer") is None
    assert agent_noun_de(None, "Fluglotse") == "Fluglotse"
    assert agent_noun_de(None, "Patientin") is None
    assert agent_noun_de(None, "fluglotse") is None  # a German noun has its capital


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Health by head noun: allergy, intolerance, else a condition by a disease's shape.
        ("Ich habe eine Sojaallergie.", {("allergic_to", "soja", False)}),
        ("Bei mir wurde eine Fruktoseunverträglichkeit festgestellt.",
         {("intolerant_to", "fruktose", False)}),
        ("I was diagnosed with Crohn's disease last year.",
         {("condition", "crohn s disease", False)}),
        ("Ich habe Neurodermitis.", {("condition", "neurodermitis", False)}),
        ("I have a car.", set()),
        ("Meine Frau hat eine Nussallergie.", set()),
        # Polarity kept: a negated allergy is never also read as one.
        ("Ich bin nicht gegen Hausstaub allergisch.", {("allergic_to", "hausstaub", True)}),
        # Habits given up, the object anywhere.
        ("Bier trink ich keins mehr.", {("avoids", "bier", False)}),
        ("Ich esse seit Ostern kein Fleisch mehr.", {("avoids", "fleisch", False)}),
        ("Mit dem Snooze-Knopf hab ich aufgehört.", {("avoids", "snooze-knopf", False)}),
        ("I'm not on Twitter anymore.", {("avoids", "twitter", False)}),
        ("Mein Vater trinkt keinen Alkohol mehr.", set()),
        ("Mit Keto habe ich aufgehört, ich esse wieder Kohlenhydrate.", set()),
        # Stop list: a pointer or a function word is no object.
        ("Das ess ich keins mehr.", set()),
        ("That I'm allergic to.", set()),
        # Fronted objects, verbless homes and births.
        ("Latex I'm properly allergic to.", {("allergic_to", "latex", False)}),
        ("Home for me these days is Tromsø.", {("lives_in", "tromsø", False)}),
        ("Home for the holidays is Mum's place in Kent.", set()),
        ("Born in Derry, raised in Belfast.",
         {("birthplace", "derry", False), ("comes_from", "belfast", False)}),
        # Trait compounds and words of degree; a negated trait keeps its "kein".
        ("Ich bin ein richtiger Morgenmensch.", {("trait", "morgenmensch", False)}),
        ("I'm a huge extrovert.", {("trait", "extrovert", False)}),
        ("Ich bin kein Morgenmensch.", {("trait", "kein morgenmensch", False)}),
        ("Mein Mann ist ein echter Morgenmensch.", set()),
    ],
)
def test_open_slots_by_the_slot_nouns_shape(
    text: str, expected: set[tuple[str, str, bool]]
) -> None:
    assert {(r, o, n) for _s, r, o, n in found(text)} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Servus, i bin da Sepp, eigentlich Josef.", {("name", "josef")}),
        ("Hoi zäme, ich bin d'Anna.", {("name", "anna")}),
        ("Kit here, short for Christopher.", {("name", "christopher")}),
        ("People call me Mo, short for Mohammed.", {("name", "mo")}),
        ("Mir wohnen in Chur, direkt am Bahnhof.", {("lives_in", "chur")}),
        ("Huge fan of the Chicago Cubs.", {("likes", "chicago cubs")}),
        ("Honestly can't stand reality TV.", {("dislikes", "reality tv")}),
        ("Sold my old Vespa last weekend.", {("event", "sold my old vespa")}),
        ("Looked great on you yesterday.", set()),
        ("I love hiking 🏔️", {("likes", "hiking")}),
        ("Jedenfalls, Tarek und ich sind seit Mai zusammen.", {("partner", "tarek")}),
        ("Wir sind verheiratet, Jonas und ich, seit sieben Jahren.", {("partner", "jonas")}),
        # Quoted words are someone's words, not a statement.
        ('Korrigier bitte: "I am living in Paris since 2019."', set()),
        ('My kid wrote "I love broccoli" on the fridge.', set()),
    ],
)
def test_chat_registers_and_dialect(text: str, expected: set[tuple[str, str]]) -> None:
    assert {(r, o) for _s, r, o, _n in found(text)} == expected


def test_fuller_name() -> None:
    assert fuller_name("Dev here, short for Devendra", "Dev") == "Devendra"
    assert fuller_name("Dev here.", "Dev") == "Dev"


@pytest.mark.parametrize(
    ("question", "relations"),
    [
        ("What am I scared of?", {"afraid_of"}),
        ("Wovor hab ich Angst?", {"afraid_of"}),
        ("Hab ich irgendwelche Vorerkrankungen?", {"condition"}),
        ("Do I have a sister?", {"sister"}),
        ("Wie ernähr ich mich?", {"diet"}),
        ("What's the weather like?", set()),
    ],
)
def test_questions_name_a_relation_by_its_own_word(question: str, relations: set[str]) -> None:
    assert relations_asked(question) == frozenset(relations)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A possessed noun that names the relation; someone else's is not the user's.
        ("My biggest fear is deep water.", {("afraid_of", "deep water")}),
        ("Meine einzige Allergie ist gegen Pferdehaare.", {("allergic_to", "pferdehaare")}),
        ("My diet is mostly pescatarian.", {("diet", "pescatarian")}),
        ("My sister's allergy is to nuts.", set()),
        # A possessed place with its name; a pet named in a later clause.
        ("I moved back to my home village, Kilcoole.", {("lives_in", "kilcoole")}),
        ("Ich wohne wieder in meiner Geburtsstadt Gotha.", {("lives_in", "gotha")}),
        ("Mein Hund ist ein Beagle und heißt Otto.", {("pet", "otto")}),
        ("Wir haben eine Katze aus Spanien, die heißt Luna.", {("pet", "luna")}),
        ("Unser Nachbar hat einen Hund, der heißt Rex.", set()),
        # A home as the setting of the user's own clause only.
        ("Since moving to Leeds I take the bus everywhere.", {("lives_in", "leeds")}),
        ("Since moving to Leeds, my brother has been happier.", set()),
        ("Ich bin eine Österreicherin, die in Prag lebt.",
         {("nationality", "österreicherin"), ("lives_in", "prag")}),
        ("I'm allergic to both latex and plasters.",
         {("allergic_to", "latex"), ("allergic_to", "plasters")}),
    ],
)
def test_possessed_nouns_and_names_given_later(text: str, expected: set[tuple[str, str]]) -> None:
    assert {(r, o) for _s, r, o, _n in found(text)} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A start point ends the object; a state since childhood holds now, one as a kid not.
        ("Milch vertrag ich seit der Schwangerschaft nicht mehr.", {("intolerant_to", "milch")}),
        ("Ich bin seit meiner Kindheit allergisch gegen Hausstaub.",
         {("allergic_to", "hausstaub")}),
        ("Als Kind hatte ich Angst vor Hunden.", set()),
        # A home acquired and moved into; bought alone is no move.
        ("We bought a cottage in Devon and moved in last month.",
         {("lives_in", "devon"), ("event", "bought a cottage in devon")}),
        ("Ich hab endlich eine eigene Wohnung in Marburg.", {("lives_in", "marburg")}),
        ("Wir haben eine Ferienwohnung in Ahlbeck gekauft.", set()),
        ("My brother bought a house in Reading and moved in.", set()),
    ],
)
def test_start_points_and_homes_acquired(text: str, expected: set[tuple[str, str]]) -> None:
    assert {(r, o) for _s, r, o, _n in found(text)} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nichts geht über einen Sonntag auf dem Segelboot.",
         {("user", "likes", "sonntag auf dem segelboot", False)}),
        ("Für meinen Bruder geht nichts über Fußball.", set()),
        ("Bei Siemens bin ich nicht mehr, seit Juni bin ich bei Festo.",
         {("user", "works_at", "siemens", True), ("user", "works_at", "festo", False)}),
        ("Beim Zahnarzt bin ich seit Jahren nicht mehr gewesen.", set()),
        # Bavarian and Austrian spellings read as standard German.
        ("Mei Tochter is jetzt 12.", {("daughter", "age", "12", False)}),
        ("I wohn scho lang in Graz.", {("user", "lives_in", "graz", False)}),
        ("Mei Bruada wohnt in Linz.", {("brother", "lives_in", "linz", False)}),
        ("Des is mir wurscht.", set()),
    ],
)
def test_fronted_workplaces_likes_by_comparison_and_dialect(
    text: str, expected: set[tuple[str, str, str, bool]]
) -> None:
    assert found(text) == expected
