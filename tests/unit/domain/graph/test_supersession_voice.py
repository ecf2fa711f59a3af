"""Supersession mechanisms of the fifth round, on sentences of their own (none from a bench
set): someone else's words, negative idioms, bounded stays, kept values, feared changes, a
relative's own people, the same figure said again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest

from memlane.domain.graph.supersession import DEFAULT_CUES, Candidate, judge_supersession
from memlane.domain.graph.supersession_voice import unreported
from memlane.domain.graph.supersession_words import stem

NOW = datetime(2025, 6, 11, 10, tzinfo=UTC)


def replaced(new: str, older: list[str]) -> int | None:
    """Which older statement (an hour apart, oldest first) `new` replaces, if any."""
    candidates = [Candidate(UUID(int=i + 1), text, 0.5, NOW - timedelta(hours=30 - i))
                  for i, text in enumerate(older)]
    decisions = judge_supersession(new, candidates, said_at=NOW - timedelta(hours=30 - len(older)))
    return decisions[0].replaces.int - 1 if decisions else None


@pytest.mark.parametrize(("new", "older", "expected"), [
    # A quote, or a report of what someone else says, is their view, not the user's news.
    ("My physio says: 'you don't need the brace any more'. We'll see.",
     ["I wear a knee brace for running.", "I live in Hove."], None),
    ("Mein Steuerberater meinte: „Den Dienstwagen brauchen Sie nicht mehr.“ Mal sehen.",
     ["Ich fahre einen Dienstwagen.", "Ich wohne in Kiel."], None),
    ("A headhunter called saying 'a nurse like you should be in management'. Not for me.",
     ["I work as a nurse.", "I live in Bath."], None),
    # What the user says beside the report still counts.
    ("Ich fahre jetzt Rad zur Arbeit, mein Kollege sagt, das sei zu gefährlich.",
     ["Ich fahre mit dem Auto zur Arbeit.", "Ich wohne in Ulm."], 0),
])
def test_someone_elses_words_replace_nothing(new: str, older: list[str],
                                             expected: int | None) -> None:
    assert replaced(new, older) == expected


def test_a_report_is_read_without_the_words_it_reports() -> None:
    assert unreported("Meine Ärztin sagt: 'Laufen ist kein Problem.' Na gut.") == "."
    assert unreported("I'd had it wrong, says so on the card.") == (
        "I'd had it wrong, says so on the card.")


@pytest.mark.parametrize(("new", "older"), [
    # "no need", "kein Problem" deny nothing about the value.
    ("Looked it up: the visa runs till 2029, no need to do anything.",
     ["My visa is valid until 2029.", "I work in Osaka."]),
    ("Nachgeschaut, die Garantie läuft bis 2027, kein Problem also.",
     ["Die Garantie meines Laptops läuft bis 2027.", "Ich studiere in Jena."]),
])
def test_the_same_figure_checked_again_is_a_restatement(new: str, older: list[str]) -> None:
    assert replaced(new, older) is None


def test_a_new_month_of_the_same_year_is_a_change() -> None:
    assert replaced("We moved the party to October 2026.",
                    ["Our party is in August 2026.", "I live in Leeds."]) == 0


@pytest.mark.parametrize(("new", "older"), [
    # A stay bounded by a short span ends by itself.
    ("Priya stayed in Oxford for the whole week, heaven, back to phone calls now.",
     ["I live in Oxford.", "My girlfriend Priya lives in Pune."]),
    ("Ich bin für ein paar Tage bei meinen Eltern in Trier.",
     ["Ich wohne in Mainz.", "Ich arbeite als Lehrer."]),
    ("I'm temporarily working from my sister's flat.",
     ["I work from the office in Leeds.", "I cycle."]),
])
def test_a_bounded_stay_replaces_nothing(new: str, older: list[str]) -> None:
    assert replaced(new, older) is None


@pytest.mark.parametrize(("new", "older"), [
    # The old value said to stay: an addition.
    ("Hab mit Cello angefangen, die Geige bleibt aber.",
     ["Ich spiele Geige.", "Ich wohne in Graz."]),
    ("Started on the banjo, the guitar stays though.",
     ["I play the guitar.", "I live in Cork."]),
])
def test_an_old_value_said_to_stay_is_kept(new: str, older: list[str]) -> None:
    assert replaced(new, older) is None


@pytest.mark.parametrize(("new", "older"), [
    ("Neither of my housemates is leaving, it was a false alarm.",
     ["I share a house with two housemates.", "I work in Hull."]),
    ("Fehlalarm, unser Vermieter verkauft das Haus nicht.",
     ["Wir wohnen zur Miete in Kassel.", "Ich arbeite bei VW."]),
])
def test_a_feared_change_that_did_not_come_replaces_nothing(new: str, older: list[str]) -> None:
    assert replaced(new, older) is None


@pytest.mark.parametrize(("new", "older"), [
    ("Dad's friend moved into a care home, Dad visits him on Sundays.",
     ["My dad lives in Carlisle.", "I'm a teacher."]),
    ("Mini Schwöschter isch uf Basel zoge.",
     ["Ich wohne in Zürich.", "Ich bin Pflegefachfrau."]),
])
def test_a_relatives_own_people_are_not_the_user(new: str, older: list[str]) -> None:
    assert replaced(new, older) is None


def test_a_present_perfect_reaches_the_present_where_a_preterite_is_history() -> None:
    assert not DEFAULT_CUES.read("I've had eczema since I was little.").past
    assert DEFAULT_CUES.read("I had eczema.").past


@pytest.mark.parametrize(("new", "older", "expected"), [
    # Someone the user named leaves their place and another takes it: whoever the sentence
    # is about, the statement that named the one who left is replaced.
    ("Mrs Hale retired at Easter, the new head of year is Mr Osei.",
     ["I live in Luton.", "My daughter's head of year is Mrs Hale."], 1),
    ("Herr Brandt ist in den Ruhestand gegangen, jetzt betreut mich Frau Yilmaz.",
     ["Mein Hausarzt ist Herr Brandt.", "Ich wohne in Gera."], 0),
    ("Lukas ist im März ausgezogen, sein Zimmer hat jetzt Ines.",
     ["Ich studiere in Bonn.", "Ich wohne mit Lukas und Pia in einer WG."], 1),
    ("Maeve handed the allotment committee over to me, I'm the secretary now.",
     ["Maeve runs our allotment committee.", "I grow leeks."], 0),
    # A place taken elsewhere: the one who left named nothing of the user's.
    ("Mr Grant retired, the new head of year is Mr Osei.",
     ["I live in Luton.", "I teach maths."], None),
])
def test_someone_leaving_a_place_another_takes_replaces_what_named_them(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


def test_a_past_reason_beside_a_present_state_is_no_history() -> None:
    assert not DEFAULT_CUES.read("Frau Roth war zu teuer, ich bin jetzt beim Mieterverein.").past
    assert not DEFAULT_CUES.read("Tesco was too far, I'm at Aldi now.").past
    assert DEFAULT_CUES.read("Mein Zahnarzt war Dr. Roth.").past


@pytest.mark.parametrize(("new", "older", "expected"), [
    # The old value named beside the new one points at the statement that says it.
    ("Stepped down as treasurer in May, I'm the club's welfare officer now.",
     ["I'm the treasurer of our rowing club.", "I work as a surveyor."], 0),
    ("Ich hab als Kassenwart aufgehört, jetzt bin ich Jugendleiter.",
     ["Ich arbeite als Schreiner.", "Ich bin Kassenwart im Schützenverein."], 1),
    ("Diesen Winter arbeite ich nicht in der Skischule, sondern an der Liftkasse.",
     ["Ich bin Bergführerin.", "Im Winter arbeite ich in der Skischule."], 1),
])
def test_the_old_value_named_points_at_its_statement(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


def test_a_fronted_time_before_a_subject_is_a_clause_not_a_fragment() -> None:
    assert not DEFAULT_CUES.read("Im Sommer arbeite ich auf der Alm.").refers
    assert DEFAULT_CUES.read("Im Sommer meistens.").refers


@pytest.mark.parametrize(("new", "older"), [
    # An episode with what holds after it said beside it changes the state.
    ("The hearing was this morning, I'm officially divorced now.",
     ["I'm separated from my husband.", "I live in Hull."]),
    ("Gestern die letzte Rate überwiesen, das Auto gehört jetzt mir.",
     ["Ich zahle mein Auto noch in Raten ab.", "Ich wohne in Hof."]),
])
def test_an_episode_with_the_state_after_it_is_a_change(new: str, older: list[str]) -> None:
    assert replaced(new, older) == 0


def test_an_episode_alone_changes_nothing() -> None:
    assert replaced("Yesterday I worked from the library.",
                    ["I work from home.", "I live in Hull."]) is None


@pytest.mark.parametrize(("new", "older", "expected"), [
    # Debts paid, plans deferred, a faith left, a return to duty, dialect endings.
    ("Paid off the credit card at last, not a penny owed.",
     ["I live in Crewe.", "I've got about £900 on my credit card."], 1),
    ("Das Darlehen für die Küche haben wir getilgt.",
     ["Wir zahlen ein Darlehen für die Küche ab.", "Wir wohnen in Fürth."], 0),
    ("Rafe and I called it quits in April.",
     ["My boyfriend Rafe lives in Perth.", "I teach yoga."], 0),
    ("I've deferred my place on the PGCE until next year.",
     ["I'm starting a PGCE in September.", "I live in Stoke."], 0),
    ("Ich bin aus der Kirche ausgetreten.",
     ["Ich bin katholisch.", "Ich wohne in Passau."], 0),
    ("We've been going to the Methodist church since the move, not St Mary's.",
     ["I go to mass at St Mary's.", "I live in Truro."], 0),
    ("Seit gestern bin ich wieder im Dienst.",
     ["Ich bin krankgeschrieben.", "Ich arbeite bei der Polizei."], 0),
    ("Des Abo hob i kündigt, i geh nimma hin.",
     ["I bin Maurer.", "I hob a Abo fürs Hallenbad."], 1),
])
def test_endings_and_returns_of_more_domains(new: str, older: list[str],
                                             expected: int | None) -> None:
    assert replaced(new, older) == expected


@pytest.mark.parametrize(("new", "older"), [
    # Who looks after the user's home fitting or replacing what is in it acts on the user's
    # thing.
    ("The housing association fitted double glazing in March, the draughty sash windows "
     "are gone.", ["Our flat has draughty sash windows.", "I work nights."]),
    ("Die Hausverwaltung hat neue Fenster einbauen lassen, die alten Holzfenster sind raus.",
     ["Unsere Wohnung hat alte Holzfenster.", "Ich arbeite im Schichtdienst."]),
])
def test_who_looks_after_the_home_acts_on_the_users_thing(new: str, older: list[str]) -> None:
    assert replaced(new, older) == 0


def test_an_english_time_phrase_before_the_subject_opens_the_main_clause() -> None:
    assert replaced("Since Christmas we've been shopping at the Co-op instead, it's closer.",
                    ["I do our big shop at Tesco.", "I live in Ely."]) == 0
    # A clause opened by "since" and its own subject only says when.
    assert DEFAULT_CUES.holder("Since I moved here, Oslo has changed so much.") != "self"


@pytest.mark.parametrize(("new", "older", "expected"), [
    # A new one of a thing the user has replaces it, a German short form included.
    ("New bank card arrived today, the old one is shredded.",
     ["My bank card expires in May.", "I live in Hove."], 0),
    ("Die neue Gesundheitskarte ist da.",
     ["Ich arbeite in Hof.", "Meine Gesundheitskarte ist abgelaufen."], 1),
    # A new person adds one; a new thing only tried or reached is an episode.
    ("I have a new colleague, Priya.", ["My colleague Tom sits next to me.", "I run."], None),
    ("Tried out a new e-bike yesterday, just for fun.", ["I ride a Brompton.", "I run."], None),
])
def test_a_new_one_of_a_thing_replaces_the_users(new: str, older: list[str],
                                                 expected: int | None) -> None:
    assert replaced(new, older) == expected


def test_the_latest_of_a_series_holds_until_the_next() -> None:
    assert not DEFAULT_CUES.read("My last cholesterol reading was 6.1.").past
    assert not DEFAULT_CUES.read("Mein letzter Blutdruckwert war zu hoch.").past


def test_a_morning_as_a_time_is_no_sleep() -> None:
    assert "sleep" not in DEFAULT_CUES.read("I swim on Saturday mornings.").slots
    assert "sleep" in DEFAULT_CUES.read("I'm a morning person.").slots


@pytest.mark.parametrize(("new", "older"), [
    # Living together is the user's household, whoever else the sentence speaks of.
    ("Jonas hat seine Stelle in Kiel gekündigt, seit März wohnen wir zusammen.",
     ["Mein Freund Jonas wohnt in Kiel, wir pendeln.", "Ich arbeite in Hamburg."]),
    ("Ama finished her PhD in Leeds and we've moved in together.",
     ["My girlfriend Ama lives in Leeds.", "I work in York."]),
])
def test_living_together_is_the_users_household(new: str, older: list[str]) -> None:
    assert replaced(new, older) == 0


@pytest.mark.parametrize(("new", "older", "expected"), [
    # "his"/"ihr" point at the person the older statement names.
    ("Her piano lesson is on Thursdays from now on.",
     ["I drive my daughter to her piano lesson on Tuesdays.", "I work in Derby."], 0),
    ("Ab sofort ist sein Training mittwochs.",
     ["Ich arbeite in Celle.", "Ich bringe meinen Sohn dienstags zum Training."], 1),
    # Not when the older statement names nobody but the user.
    ("Her flat is in Leith now.", ["I live in Leith.", "I work in Leith."], None),
])
def test_a_persons_thing_points_at_the_person_the_older_statement_names(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


@pytest.mark.parametrize(("new", "older", "expected"), [
    # What a waiting state waited for, arriving, replaces it.
    ("Got a place at the allotments at last, plot 14 is mine.",
     ["I'm on the waiting list for an allotment.", "I live in Frome."], 0),
    ("Ich hab endlich einen Kitaplatz, ab August geht Mila in die Kita Sonnenschein.",
     ["Ich wohne in Gotha.", "Ich bin auf der Warteliste für einen Kitaplatz."], 1),
    ("Signed with Arup on Friday, I start in September.",
     ["I'm looking for work since the redundancy.", "I cycle."], 0),
    # Another search is no arrival.
    ("I'm looking for a flat in Bristol now.",
     ["I'm looking for work since the redundancy.", "I cycle."], None),
])
def test_what_a_waiting_state_waited_for_replaces_it(new: str, older: list[str],
                                                     expected: int | None) -> None:
    assert replaced(new, older) == expected


def test_a_german_ung_noun_meets_its_agent_and_verb() -> None:
    assert stem("kassenführung") == stem("kassenführer") == stem("kassenführen")
    assert replaced("Die Kassenführung macht jetzt Petra, ich bin Zweiter Vorsitzender.",
                    ["Ich wohne in Lahr.", "Ich bin Kassenführer im Turnverein."]) == 1


@pytest.mark.parametrize(("new", "older", "expected"), [
    # Doing again what the older statement has is a change of it.
    ("We refinanced in March, the new rate is 3.2%.",
     ["We have two kids.", "Our financing runs at 4.5% until 2026."], 1),
    # A new standing entered where the older value is: the same place, a new role.
    ("Passed my finals! junior doctor at Addenbrooke's from August.",
     ["I'm a medical student at Addenbrooke's.", "I live in Cambridge."], 0),
    ("Prüfung bestanden, jetzt Meisterin bei der Bäckerei Ruf.",
     ["Ich wohne in Aalen.", "Ich bin Gesellin bei der Bäckerei Ruf."], 1),
])
def test_doing_again_or_entering_a_standing_at_the_same_place(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


@pytest.mark.parametrize(("new", "older"), [
    # The user moving in with someone, and a thing said to be history.
    ("Moved in with my boyfriend in Salford, the house share is history.",
     ["I live in a house share in Didsbury.", "I work at the BBC."]),
    ("Bin im März zu meinem Freund nach Linz zogen, die alte Wohnung is Geschichte.",
     ["I wohn in ana Wohnung in Wels.", "I bin Krankenpflegerin."]),
])
def test_moving_in_with_someone_is_the_users_move(new: str, older: list[str]) -> None:
    assert replaced(new, older) == 0


@pytest.mark.parametrize(("new", "older"), [
    # A relative the user moves somewhere: the relative's home, not the user's.
    ("We moved Mum into a care home here in Ely last month.",
     ["My mum lives alone in Hull.", "I live in Ely."]),
    ("Wir haben Oma in eine Pflege-WG hier in Lahr gebracht.",
     ["Meine Oma wohnt allein in Offenburg.", "Ich wohne in Lahr."]),
])
def test_a_relative_the_user_moves_changes_the_relatives_home(
        new: str, older: list[str]) -> None:
    assert replaced(new, older) == 0


def test_a_greeting_is_no_content() -> None:
    assert unreported("Sehr geehrte Frau Dr. Keller, ich bin umgezogen.") == "ich bin umgezogen."
    assert unreported("Hi Sam, I moved.") == "I moved."
    assert replaced("Sehr geehrte Damen und Herren, ich stehe seit dem 1. Mai in einem "
                    "Anstellungsverhältnis bei der Post.",
                    ["Ich wohne in Gera.",
                     "Sehr geehrte Damen und Herren, ich bin arbeitslos gemeldet."]) == 1


def test_a_first_week_at_a_place_ends_a_job_search() -> None:
    assert replaced("First week at the call centre in Leith done, shattered.",
                    ["I'm looking for work since the shop closed.", "I live in Leith."]) == 0
