"""Facts hold on text nobody tuned for (issue 23): colloquial spelling, other word orders,
relatives as subjects, ended states and constructions whose words vary, EN and DE."""

from __future__ import annotations

import pytest

from memlane.domain.facts.colloquial import is_german, spelled_out
from memlane.domain.facts.extraction import extract_facts
from memlane.domain.facts.model import USER, normalise
from memlane.domain.facts.questions import relations_asked
from memlane.domain.facts.rules import is_filler

Found = set[tuple[str, str, str, bool]]


def found(text: str) -> Found:
    return {(normalise(f.subject), f.relation, normalise(f.object), f.negated)
            for f in extract_facts(text)}


def mine(relation: str, obj: str, *, negated: bool = False) -> tuple[str, str, str, bool]:
    return (USER, relation, normalise(obj), negated)


@pytest.mark.parametrize(
    ("said", "spelled"),
    [
        ("Bin seit März bei Siemens.", "ich bin seit März bei Siemens."),
        ("Wohn jetzt in Leipzig.", "ich wohne jetzt in Leipzig."),
        ("Hab 'ne Tochter.", "ich habe eine Tochter."),
        ("Moin! Jan hier, wohne in Flensburg.", "Moin! Jan hier, ich wohne in Flensburg."),
        ("Ich heisse Reto.", "Ich heiße Reto."),
        ("Im Jänner bin ich umgezogen.", "Im Januar bin ich umgezogen."),
        ("im a dentist", "I'm a dentist"),
        ("Been living in Cork for years.", "I've been living in Cork for years."),
        ("I'm alergic to cats.", "I'm allergic to cats."),
        ("my nmae is carla", "my name is Carla"),
        ("Not sure if I told you, but I'm a nurse.", "I'm a nurse."),
        # An imperative stays one: "Schreib mir" is no "ich schreibe".
        ("Schreib mir bitte morgen.", "Schreib mir bitte morgen."),
        # "im" is a German preposition.
        ("Ich wohne im Norden.", "Ich wohne im Norden."),
    ],
)
def test_colloquial_forms_are_spelled_out_as_the_patterns_read_them(said: str,
                                                                  spelled: str) -> None:
    assert spelled_out(said) == spelled


def test_the_language_of_a_sentence_is_told_by_its_function_words() -> None:
    assert is_german("Bin 29.")
    assert is_german("Ich schaff beim Bosch in Feuerbach.")
    assert not is_german("i live in manchester and im 29")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Dropped subjects, clipped verbs and colloquial spelling.
        ("Bin seit März bei Siemens.", {mine("works_at", "Siemens")}),
        ("Hab zwei Katzen, Mimi und Lotte.", {mine("pet", "Mimi"), mine("pet", "Lotte")}),
        ("Kaffee trink ich keinen mehr.", {mine("avoids", "Kaffee")}),
        ("live in Bristol now, work at a bakery",
         {mine("lives_in", "Bristol"), mine("works_at", "a bakery")}),
        ("i live in manchester and im 29", {mine("lives_in", "manchester"), mine("age", "29")}),
        ("Ich schaff beim Bosch in Feuerbach.", {mine("works_at", "Bosch")}),
        # German typed in lower case: the nouns the patterns need get their capital back.
        ("ich bin lehrerin", {mine("works_as", "Lehrerin")}),
        ("ich hab eine katze", {mine("pet", "Katze")}),
        ("ich bin total müde", set()),
        ("ich bin nach bern gezügelt", {mine("lives_in", "bern")}),
        # A preamble about the conversation and a greeting before the subject.
        ("Keine Ahnung, ob ich das schon gesagt hab, aber ich wohne in Kassel.",
         {mine("lives_in", "Kassel")}),
        ("Grüezi, ich heisse Reto und wohne in Winterthur.",
         {mine("name", "Reto"), mine("lives_in", "Winterthur")}),
        # German subordinate clauses and fronted places.
        ("Weil ich in Hamburg wohne, fahre ich viel Rad.", {mine("lives_in", "Hamburg")}),
        ("In Graz wohne ich seit 2019.", {mine("lives_in", "Graz")}),
        ("Bei Bosch arbeite ich seit drei Jahren.", {mine("works_at", "Bosch")}),
        # A clause that hangs on a belief states nothing yet.
        ("Ich glaube nicht, dass ich gegen irgendwas allergisch bin.", set()),
    ],
)
def test_a_colloquial_sentence_yields_the_facts_of_its_standard_form(text: str,
                                                                   expected: Found) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My sister Lena lives in Vienna.",
         {mine("sister", "Lena"), ("lena", "lives_in", "vienna", False)}),
        ("Mein Vater wohnt in Linz.", {("father", "lives_in", "linz", False)}),
        ("My wife is a paramedic.", {("partner", "works_as", "paramedic", False)}),
        ("Mein Partner arbeitet als Pilot bei der Lufthansa.",
         {("partner", "works_as", "pilot", False), ("partner", "works_at", "lufthansa", False)}),
        # Only a partner's job is theirs to keep; a retired job and someone's words none.
        ("My brother works at Audi.", set()),
        ("Mein Vater Rahul ist Ingenieur im Ruhestand.", {mine("father", "Rahul")}),
        ("Mein Bruder meint, ich wohne zu weit weg.", set()),
        ("My colleague lives in Oslo.", set()),
    ],
)
def test_a_relative_as_subject_gives_the_relative_their_home(text: str,
                                                             expected: Found) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm not at Google anymore.", {mine("works_at", "Google", negated=True)}),
        ("I'm not vegetarian anymore, I eat fish again.",
         {mine("diet", "vegetarian", negated=True)}),
        ("I don't live in Paris anymore, I live in Lyon now.",
         {mine("lives_in", "Paris", negated=True), mine("lives_in", "Lyon")}),
        ("Ich bin keine Veganerin mehr.", {mine("diet", "Veganerin", negated=True)}),
        ("Bin nicht mehr bei der Telekom.", {mine("works_at", "der Telekom", negated=True)}),
        ("Ich arbeite nicht mehr als Lehrer.", {mine("works_as", "Lehrer", negated=True)}),
        ("Mit Felix bin ich nicht mehr zusammen.", {mine("partner", "Felix", negated=True)}),
        ("Ich hab keine Angst mehr vorm Fliegen.", {mine("afraid_of", "Fliegen", negated=True)}),
        # "nicht mehr als" is a limit, no ending.
        ("Ich darf nicht mehr als fünf Kilo heben.", {mine("cannot", "mehr als fünf Kilo heben")}),
    ],
)
def test_a_state_that_ended_keeps_its_negation(text: str, expected: Found) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As a teacher I get the summers off.", {mine("works_as", "teacher")}),
        ("As a kid I lived in Spain.", set()),
        ("Als Ärztin habe ich oft Nachtdienste.", {mine("works_as", "Ärztin")}),
        ("What I can't stand is loud chewing.", {mine("dislikes", "loud chewing")}),
        ("Was ich wirklich liebe, ist Segeln.", {mine("likes", "Segeln")}),
        ("Working at Spotify has been great so far.", {mine("works_at", "Spotify")}),
        ("My kids are Max and Lotte.", {mine("children", "Max"), mine("children", "Lotte")}),
        ("Meine Kinder heißen Ben und Lina.",
         {mine("children", "Ben"), mine("children", "Lina")}),
        ("My employer is Siemens Healthineers.", {mine("works_at", "Siemens Healthineers")}),
        ("Mein Wohnort ist Göttingen.", {mine("lives_in", "Göttingen")}),
        ("I've been at Deloitte for three years now.", {mine("works_at", "Deloitte")}),
        ("I've been at the gym for two hours.", set()),
        ("Seit zwei Stunden bin ich bei Oma.", set()),
        ("I'm vegan and allergic to soy.", {mine("diet", "vegan"), mine("allergic_to", "soy")}),
        ("Ben turned 8 yesterday.", {("ben", "age", "8", False)}),
        ("Isla turned ten at the weekend.", {("isla", "age", "10", False)}),
        ("Opa ist 90 geworden, wir haben groß gefeiert.", {("grandfather", "age", "90", False)}),
        ("I've been with Aaron for three years.", {mine("partner", "Aaron")}),
        ("My company is remote-first.", set()),
        ("Im Krankenhaus.", set()),
        ("Jazz gefällt mir sehr.", {mine("likes", "Jazz")}),
        ("Rosenkohl schmeckt mir nicht.", {mine("dislikes", "Rosenkohl")}),
        ("Der Film gefällt mir.", set()),
        ("Me and my wife live in Bath.", {mine("lives_in", "Bath")}),
        ("Ich arbeite in der Logistik.", {mine("works_in", "Logistik")}),
        # A gapped verb, "got to", a birthday with "am", a time that is no food.
        ("Mein Sohn ist 12 und meine Tochter 9.",
         {("son", "age", "12", False), ("daughter", "age", "9", False)}),
        ("I've got to finish the report by Friday.",
         {mine("commits_to", "finish the report by Friday")}),
        ("Ich bin am 3. Mai 1990 geboren.", {mine("birthday", "3. Mai 1990")}),
        ("I never eat after 8pm.", set()),
        ("My twins, Ada and Eli, just turned 3.",
         {mine("children", "Ada"), mine("children", "Eli"), ("ada", "age", "3", False),
          ("eli", "age", "3", False)}),
        ("Übrigens bin ich Vegetarierin.", {mine("diet", "Vegetarierin")}),
        ("Mit Laktose hab ich Probleme.", {mine("intolerant_to", "Laktose")}),
        ("Ich habe Probleme mit meinem Chef.", set()),
        # A dropped "I" only before what the verb needs: "Live music" is no home.
        ("Live music is the best.", set()),
        ("Moved the meeting to Friday.", set()),
        ("Apple turned 50 this year.", set()),
        # Passive hires; a subordinate clause with a modal verb last.
        ("I've been hired by Zalando.", {mine("works_at", "Zalando")}),
        ("Ich wurde letzte Woche von Bosch eingestellt.", {mine("works_at", "Bosch")}),
        ("Obwohl ich Hunde mag, habe ich keinen.", {mine("likes", "Hunde")}),
        # A contrast keeps its verb; a count of places is none; "we" said otherwise.
        ("Ich bin nicht mehr vegan, nur noch vegetarisch.",
         {mine("diet", "vegan", negated=True), mine("diet", "vegetarisch")}),
        ("I've lived in three countries, currently Spain.", set()),
        ("ich und mein freund sind grad in Utrecht zusammengezogen",
         {mine("lives_in", "Utrecht")}),
        ("Ich arbeite in der IT.", {mine("works_in", "IT")}),
    ],
)
def test_a_construction_carries_its_fact_whatever_the_words_inside(text: str,
                                                                  expected: Found) -> None:
    assert found(text) == expected


@pytest.mark.parametrize("value", ["to", "anymore", "it", "mehr", "das", "nicht mehr",
                                   "the one", "auch noch", "so", "doch"])
def test_an_object_of_function_words_and_fillers_is_refused_in_both_languages(value: str) -> None:
    assert is_filler(value)


@pytest.mark.parametrize("value", ["IT", "US", "Bosch", "Kaffee", "coffee"])
def test_a_name_or_an_acronym_is_no_filler(value: str) -> None:
    assert not is_filler(value)


@pytest.mark.parametrize(
    ("question", "relations"),
    [
        ("Welche Termine hab ich morgen?", {"commits_to"}),
        ("What have I got planned this week?", {"commits_to"}),
        ("Weißt du noch, wie ich heiße?", {"name"}),
        ("Wie heißt unsere Katze?", {"pet"}),
        ("Was hab ich letztes Wochenende gemacht?", {"event"}),
        ("In welchem Jahr bin ich geboren?", {"birthday", "birth_year"}),
        ("Was esse ich überhaupt nicht gern?", {"dislikes"}),
        ("Wo bin ich geboren?", {"birthplace"}),
        ("Was ist heute los?", set()),
    ],
)
def test_a_question_in_other_words_still_asks_for_its_relations(question: str,
                                                                relations: set[str]) -> None:
    assert relations_asked(question) == frozenset(relations)


def test_next_weekend_is_the_weekend_not_the_week() -> None:
    [fact] = extract_facts("I promised my mum I'd visit her next weekend.")
    assert fact.when == "next weekend"
