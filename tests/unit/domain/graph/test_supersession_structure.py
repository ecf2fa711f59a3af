"""Supersession by structure, on sentences no rule was tuned on: who holds a value (a person's
pronoun, a relative), German tenses and separable verbs, a fronted time, a thing moved."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest

from memlane.domain.graph.supersession import Candidate, judge_supersession

NOW = datetime(2025, 6, 11, 10, tzinfo=UTC)
HAMBURG = ["Ich wohne in Hamburg.", "Ich mag den Hafen."]
SIEMENS = ["Ich arbeite bei Siemens.", "Ich fahre mit dem Rad."]
LEEDS = ["I live in Leeds.", "I work at a bank."]


def replaced(new: str, older: list[str]) -> int | None:
    """Which older statement (said an hour apart, oldest first, `new` an hour after the last)
    `new` replaces, if any."""
    candidates = [Candidate(UUID(int=i + 1), text, 0.5, NOW - timedelta(hours=30 - i))
                  for i, text in enumerate(older)]
    decisions = judge_supersession(new, candidates, said_at=NOW - timedelta(hours=30 - len(older)))
    return decisions[0].replaces.int - 1 if decisions else None


@pytest.mark.parametrize(("new", "older", "expected"), [
    # German tenses: Perfekt, present for the future with a separable verb, future, V2 with a
    # fronted time.
    ("Letzten Monat bin ich nach Bremen gezogen.", HAMBURG, 0),
    ("Nächsten Monat ziehe ich nach Köln um.", HAMBURG, 0),
    ("Ich ziehe im Juli nach Köln.", HAMBURG, 0),
    ("Ich werde im Herbst nach Köln ziehen.", HAMBURG, 0),
    ("Seit Mai wohnen wir in Lübeck.", ["Wir wohnen in Hamburg.", "Wir haben einen Garten."], 0),
    ("Im Juli fange ich bei Bosch an.", SIEMENS, 0),
    ("Ab Juli arbeite ich bei Bosch.", SIEMENS, 0),
    ("Ich habe mir einen Tesla gekauft.", ["Ich fahre einen Golf.", "Ich wohne in Ulm."], 0),
    ("Jetzt wohne ich in Düsseldorf.", ["Ich wohne in Bonn.", "Ich bin nach Köln gezogen."], 1),
    # English said ahead.
    ("We're moving to York next month.", LEEDS, 0),
    ("I'll be living in York from July.", LEEDS, 0),
    ("I traded the Golf for a Tesla.", ["I drive a Golf.", "I live in Leeds."], 0),
    ("Ich habe den Arbeitgeber gewechselt, ich bin jetzt bei Bosch.", SIEMENS, 0),
    ("Seit drei Wochen bin ich bei Bosch.", SIEMENS, 0),
    ("Bei Siemens bin ich nicht mehr.", SIEMENS, 0),
    ("Wir sind seit Mai verheiratet.", ["Ich bin verlobt.", "Ich wohne in Ulm."], 0),
    ("Ich lebe jetzt vegan.", ["Ich bin Vegetarier.", "Ich wohne in Ulm."], 0),
    ("Ich fahre inzwischen mit der Bahn zur Arbeit.",
     ["Ich fahre mit dem Auto zur Arbeit.", "Ich wohne in Ulm."], 0),
    ("Wir haben uns ein Haus in Neu-Ulm gekauft.",
     ["Wir wohnen zur Miete in Ulm.", "Ich arbeite bei Bosch."], 0),
    ("Sie sind letztes Jahr nach Köln gezogen.", ["Meine Eltern wohnen in Bonn.", *HAMBURG], 0),
    ("I got a job at Bosch.", ["I work at Siemens.", "I cycle to work."], 0),
    ("These days I take the train to work.", ["I drive to work.", "I live in Leeds."], 0),
    ("They moved to Leeds in May.", ["My parents live in Hull.", "I live in York."], 0),
])
def test_a_change_said_in_any_tense_replaces_the_users_value(
        new: str, older: list[str], expected: int) -> None:
    assert replaced(new, older) == expected


@pytest.mark.parametrize(("new", "older"), [
    # Someone else holds the new value: a person's pronoun, a relative.
    ("Er ist letztes Jahr nach Köln gezogen.", HAMBURG),
    ("Sie wohnt jetzt in Köln.", HAMBURG),
    ("He moved to York last year.", LEEDS),
    ("She started a new job at the hospital.", ["I work at a bank.", "I live in Leeds."]),
    ("Meine Schwester zieht nächsten Monat nach Köln.", HAMBURG),
    ("Mein Mann arbeitet jetzt bei Bosch.", SIEMENS),
    # A thing moved is no move of home.
    ("We moved the sofa to the bedroom.", LEEDS),
    ("I moved the piano into the hallway.", LEEDS),
    ("Wir haben die Couch ins Wohnzimmer verschoben.",
     ["Ich wohne in Leeds.", "Ich arbeite bei einer Bank."]),
    ("Er hat bei Bosch angefangen.", SIEMENS),
    ("Meine Eltern sind nach Köln gezogen.", HAMBURG),
    ("She got a job at Bosch.", ["I work at Siemens.", "I cycle to work."]),
    ("My flatmate moved out.", ["I live in York.", "I cycle to work."]),
    # A thing got for someone else is theirs.
    ("Ich habe meiner Mutter einen Tesla gekauft.", ["Ich fahre einen Golf.", "Ich wohne in Ulm."]),
    ("I bought my son a Tesla for his birthday.", ["I drive a Golf.", "I live in York."]),
    ("I moved my desk to the window.", ["I live in York.", "I work from home."]),
    ("Ich habe den Schreibtisch ins Schlafzimmer gestellt.", HAMBURG),
    # Away, not moved: a trip, a holiday home.
    ("Nächste Woche bin ich auf Dienstreise in Köln.", HAMBURG),
    ("Im Urlaub wohnen wir in einem Ferienhaus in Dänemark.", HAMBURG),
    ("I'm flying to Leeds tomorrow.", ["I live in York.", "I cycle to work."]),
    # The past, and a plan hedged.
    ("Als Kind habe ich in Kiel gewohnt.", HAMBURG),
    ("Vielleicht ziehe ich nächstes Jahr nach Köln.", HAMBURG),
    ("2015 habe ich in Köln gewohnt.", HAMBURG),
    ("In 2012 I lived in Leeds.", ["I live in York.", "I cycle to work."]),
    ("Soll ich nach Köln ziehen?", HAMBURG),
    ("Ich wohne immer noch in Hamburg.", HAMBURG),
])
def test_what_another_holds_or_a_thing_moved_replaces_nothing(new: str, older: list[str]) -> None:
    assert replaced(new, older) is None


def test_a_pronoun_about_a_relative_replaces_what_was_said_of_them() -> None:
    assert replaced("Er ist nach Köln gezogen.", ["Mein Bruder wohnt in Bonn.", *HAMBURG]) == 0


def test_a_pronoun_that_names_the_user_too_is_the_users_change() -> None:
    assert replaced("She moved in with us last week.",
                    ["We live alone in a flat in Leeds.", "We have a cat."]) == 0


def test_a_change_said_of_er_is_about_what_was_said_just_before() -> None:
    assert replaced("Er wurde auf Mittwoch verschoben.",
                    ["Ich wohne in Ulm.", "Der Zahnarzttermin ist am Montag."]) == 1
    assert replaced("It got moved to Friday.",
                    ["I live in York.", "The dentist appointment is on Monday."]) == 1


@pytest.mark.parametrize(("new", "older"), [
    # A venue, a company or a group with news of its own.
    ("Unser Verein hat jetzt einen neuen Trainer.",
     ["Ich spiele Handball im Verein.", "Wir trainieren mittwochs."]),
    ("Der Bäcker an der Ecke hat jetzt sonntags zu.",
     ["Ich hole sonntags Brötchen beim Bäcker.", "Ich wohne in Ulm."]),
    ("Die Telekom hat ihre Tarife geändert.",
     ["Ich bin bei der Telekom.", "Ich telefoniere viel."]),
    ("The gym changed its opening hours.", ["I go to the gym at 6.", "I live in Leeds."]),
    ("Amazon raised the price of Prime.", ["I have Amazon Prime.", "I order a lot."]),
    # Someone else's life: an ex, a colleague, someone named with a new thing of their own.
    ("Mein Ex ist jetzt mit Laura zusammen.", ["Ich bin Single.", "Ich wohne allein."]),
    ("My ex is dating Laura now.", ["I'm single.", "I live alone."]),
    ("Tom got a new phone number.", ["My number is 0151 123.", "Tom is my brother."]),
    ("Meine Kollegin ist nach Wien gezogen.", ["Ich wohne in Graz.", "Ich arbeite bei der Post."]),
    ("His new job is in Manchester.", ["I work in Leeds.", "My husband is a chef."]),
    ("Meine Tochter fährt jetzt mit dem Bus zur Schule.",
     ["Ich fahre mit dem Bus zur Arbeit.", "Ich wohne in Ulm."]),
    # A visit, a help, a wish, a one-off.
    ("Ich habe meinem Kumpel beim Umzug nach Kiel geholfen.", HAMBURG),
    ("We visited Leeds last weekend.", ["We live in York.", "We have two kids."]),
    ("I sometimes wish I still lived in Paris.", ["I live in Lyon.", "I moved here in 2021."]),
    ("Ich hätte gern einen Hund.", ["Ich habe eine Katze.", "Sie heißt Miso."]),
    ("Heute habe ich ausnahmsweise Fleisch gegessen.", ["Ich bin Vegetarier.", "Ich koche gern."]),
])
def test_news_of_others_visits_and_wishes_replace_nothing(new: str, older: list[str]) -> None:
    assert replaced(new, older) is None


@pytest.mark.parametrize(("new", "older", "expected"), [
    # time anchors
    ("Seit Oktober bin ich Teamleiterin.",
     ["Ich bin Entwicklerin im Backend-Team.", "Ich mag Python."], 0),
    ("Seit letztem Sommer wohnen wir auf dem Land.",
     ["Wir wohnen mitten in Frankfurt.", "Wir haben kein Auto."], 0),
    ("Ab sofort trinke ich nur noch Tee.",
     ["Ich trinke drei Tassen Kaffee am Tag.", "Ich arbeite im Büro."], 0),
    ("Neuerdings gehe ich morgens schwimmen.", ["Ich gehe abends joggen.", "Ich wohne in Ulm."], 0),
    ("From now on I work Mondays to Thursdays only.",
     ["I work five days a week.", "I live in Leeds."], 0),
    ("Since March I've been commuting by bike.", ["I drive to work.", "I live in Leeds."], 0),
    ("As of this week I'm on the night shift.", ["I work the early shift.", "I'm a nurse."], 0),
    # chains
    ("Jetzt ist der Termin am Freitag.",
     ["Der Termin ist am Montag.", "Er wurde auf Mittwoch verschoben."], 1),
    ("Now I'm at Bosch.", ["I work at Siemens.", "I switched to Continental."], 1),
    ("Wir sind schon wieder umgezogen, jetzt nach Mainz.",
     ["Wir wohnen in Köln.", "Wir sind nach Bonn gezogen."], 1),
    ("We moved again, to Bath this time.", ["We live in Bristol.", "We moved to Cardiff."], 1),
    # indirect
    ("Ich bin jetzt Abteilungsleiter.",
     ["Ich bin Sachbearbeiter im Einkauf.", "Ich wohne in Ulm."], 0),
    ("Wir haben uns ein Auto gekauft.", ["Wir haben kein Auto.", "Wir fahren Rad."], 0),
    ("Unsere Tochter ist am Montag zur Welt gekommen!",
     ["Wir erwarten im Juni ein Baby.", "Ich wohne in Ulm."], 0),
    ("Ich habe die Fahrprüfung bestanden.",
     ["Ich mache gerade den Führerschein.", "Ich wohne in Ulm."], 0),
    ("I got my driving licence last week.", ["I'm learning to drive.", "I live in Leeds."], 0),
    ("We got married in June.", ["I'm engaged to Sam.", "We live in Leeds."], 0),
    ("I've been promoted to senior engineer.", ["I'm a junior engineer.", "I live in Leeds."], 0),
    ("I retired in April.", ["I work as a teacher.", "I live in Leeds."], 0),
    ("Ich bin seit April in Rente.", ["Ich arbeite als Lehrer.", "Ich wohne in Ulm."], 0),
    # names
    ("Ich heiße jetzt Schmidt, ich habe geheiratet.",
     ["Mein Nachname ist Weber.", "Ich wohne in Ulm."], 0),
    ("Call me Liz from now on.", ["My name is Elizabeth.", "I live in Leeds."], 0),
    ("I changed my surname to Patel.", ["My surname is Shah.", "I live in Leeds."], 0),
    # family ages
    ("Mein Sohn ist letzte Woche acht geworden.",
     ["Mein Sohn ist sieben.", "Er spielt Fußball."], 0),
    ("Our daughter turned four on Sunday.", ["Our daughter is three.", "She loves dinosaurs."], 0),
    ("I'm 41 now.", ["I'm 40.", "I live in Leeds."], 0),
    ("Ich bin jetzt 41.", ["Ich bin 40.", "Ich wohne in Ulm."], 0),
    # appointments
    ("Der Zahnarzttermin ist jetzt am Donnerstag.",
     ["Ich habe am Dienstag einen Zahnarzttermin.", "Ich wohne in Ulm."], 0),
    ("Die Abgabe wurde auf den 15. Juli verschoben.",
     ["Die Abgabe ist am 30. Juni.", "Es ist ein Bericht."], 0),
    ("The dentist moved my appointment to Thursday.",
     ["My dentist appointment is on Tuesday.", "I live in Leeds."], 0),
    ("The deadline was extended to Friday.",
     ["The deadline is Wednesday.", "It's for the grant."], 0),
    ("Das Elterngespräch findet nun am Mittwoch statt.",
     ["Das Elterngespräch ist am Montag.", "Ich wohne in Ulm."], 0),
    # relationship durations
    ("Wir sind jetzt seit fünf Jahren verheiratet.",
     ["Wir sind seit vier Jahren verheiratet.", "Ich wohne in Ulm."], 0),
    ("We've now been together for three years.",
     ["We've been together for two years.", "I live in Leeds."], 0),
    # negation
    ("Ich esse keinen Zucker mehr.", ["Ich esse gern Süßes.", "Ich wohne in Ulm."], 0),
    ("I don't eat gluten anymore.", ["I eat bread every day.", "I live in Leeds."], 0),
    ("Ich spiele kein Tennis mehr.",
     ["Ich spiele zweimal die Woche Tennis.", "Ich wohne in Ulm."], 0),
    ("I no longer play the guitar.", ["I play the guitar.", "I live in Leeds."], 0),
])
def test_changes_said_from_a_time_along_a_chain_or_by_what_happened(
        new: str, older: list[str], expected: int) -> None:
    assert replaced(new, older) == expected


@pytest.mark.parametrize(("new", "older", "expected"), [
    # The candidate that shares more words ("arbeite", "rent") holds another kind of value.
    ("Ab August arbeite ich von 9 bis 17 Uhr.",
     ["Ich arbeite in der Kantine.", "Meine Arbeitszeit ist von 6 bis 14 Uhr."], 1),
    ("Starting in May the rent is €950.", ["I rent a flat in Leeds.", "The rent is €800."], 1),
])
def test_a_new_value_replaces_one_of_its_kind(new: str, older: list[str], expected: int) -> None:
    assert replaced(new, older) == expected


def test_a_change_announced_as_such_follows_the_chain() -> None:
    assert replaced("Noch eine Änderung: das Treffen ist am Freitag.",
                    ["Das Treffen ist am Montag.", "Es wurde auf Donnerstag verschoben."]) == 1
    assert replaced("One more change: the call is on Friday.",
                    ["The call is on Monday.", "It got moved to Thursday."]) == 1


@pytest.mark.parametrize(("new", "older", "expected"), [
    # German verb second with a fronted object or place.
    ("Nach Köln bin ich im Mai gezogen.", HAMBURG, 0),
    ("Bei Bosch arbeite ich seit Juni.", SIEMENS, 0),
    ("Den Audi habe ich verkauft, ich fahre jetzt Rad.",
     ["Ich fahre einen Audi.", "Ich wohne in Ulm."], 0),
    ("Wohnen tu ich jetzt in Köln.", HAMBURG, 0),
    # Someone joining the user's household changes the user's.
    ("My girlfriend moved in with me.", ["I live alone.", "I work at a bank."], 0),
    ("Mama ist in ein Pflegeheim bei uns in Göttingen gezogen.",
     ["Meine Mutter wohnt allein in Kassel.", "Ich besuche sie monatlich."], 0),
    # Origin, birthplace, a stay, the Präteritum, a value kept beside one that changed.
    ("Ich bin in Köln geboren.", HAMBURG, None),
    ("Ich komme aus Köln.", HAMBURG, None),
    ("I grew up in Leeds.", LEEDS, None),
    ("I'm in Leeds this week for work.", LEEDS, None),
    ("Ich wohnte früher in Kiel.", HAMBURG, None),
    ("Damals fuhr ich einen Opel.", ["Ich fahre einen Audi.", "Ich wohne in Ulm."], None),
    ("Ich arbeite jetzt in Köln, wohne aber weiter in Hamburg.", HAMBURG, None),
    ("Unsere Tochter studiert jetzt in Köln.", HAMBURG, None),
])
def test_german_word_order_households_and_origins(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


LONG_EN = ["I live in Leeds.", "I work at a bank.", "My office is in the city centre.",
           "I cycle to the office.", "My sister lives in York.", "I play squash on Tuesdays."]
LONG_DE = ["Ich wohne in Leipzig.", "Ich arbeite bei einer Versicherung.",
           "Mein Büro ist in der Innenstadt.", "Ich fahre mit dem Rad ins Büro.",
           "Meine Schwester wohnt in Halle.", "Dienstags spiele ich Squash."]


@pytest.mark.parametrize(("new", "older", "expected"), [
    ("I moved to Harrogate.", LONG_EN, 0),
    ("Our office moved to Headingley.", LONG_EN, 2),
    ("I take the bus to the office now.", LONG_EN, 3),
    ("Squash is on Thursdays now.", LONG_EN, 5),
    ("My sister moved to Hull.", LONG_EN, 4),
    ("I also play tennis now.", LONG_EN, None),
    ("Ich bin nach Halle gezogen.", LONG_DE, 0),
    ("Unser Büro ist jetzt am Stadtrand.", LONG_DE, 2),
    ("Ins Büro fahre ich jetzt mit der Straßenbahn.", LONG_DE, 3),
    ("Squash spiele ich jetzt donnerstags.", LONG_DE, 5),
    ("Meine Schwester ist nach Dessau gezogen.", LONG_DE, 4),
    ("Seit Mai arbeite ich bei einer Bank.", LONG_DE, 1),
    ("Meine Schwester hat jetzt einen Hund.", LONG_DE, None),
])
def test_in_a_long_history_the_change_finds_its_own_value(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


@pytest.mark.parametrize(("new", "older", "expected"), [
    # Others in the plural, a relative's thing by the German genitive, help given.
    ("Our neighbours are moving to Spain.", LEEDS, None),
    ("Ich habe mir die neue Wohnung meiner Schwester angeschaut.", HAMBURG, None),
    ("I helped my dad set up his new phone.", ["My phone is a Pixel.", "I live in Leeds."], None),
    ("My brother-in-law just started at Google.", ["I work at Siemens.", "I live in Leeds."], None),
    # Someone named again, with news of their own.
    ("My friend Jonas moved to Berlin.", ["I live in Hamburg.", "Jonas is my best friend."], None),
    ("Jonas ist nach Berlin gezogen.", ["Ich wohne in Hamburg.", "Jonas ist mein bester Freund."],
     None),
    # A role acting on something is who did it: the standup, not the job.
    ("My team lead changed the standup to 10.", ["Our standup is at 9.", "I work at a bank."], 0),
    ("Mein Chef hat das Jour fixe auf Donnerstag verschoben.",
     ["Unser Jour fixe ist am Dienstag.", "Ich arbeite bei einer Bank."], 0),
    # Plans, one-offs, anniversaries.
    ("Falls ich umziehe, dann nach Köln.", HAMBURG, None),
    ("I'm thinking of quitting my job.", ["I work at a bank.", "I live in Leeds."], None),
    ("Wir haben letzte Woche unseren Hochzeitstag gefeiert.",
     ["Ich bin verheiratet.", "Wir wohnen in Ulm."], None),
    ("I went to the dentist today, all fine.",
     ["I have a dentist appointment on Tuesday.", "I live in Leeds."], None),
])
def test_others_roles_and_one_offs(new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


def chain(texts: list[str]) -> list[list[int]]:
    """What each statement replaced, each judged as it was said (a day apart), with the ones
    already replaced marked, as the write path hands them to the judge."""
    ids = [UUID(int=i + 1) for i in range(len(texts))]
    gone: set[UUID] = set()
    found = []
    for at in range(1, len(texts)):
        said = [NOW - timedelta(days=len(texts) - i) for i in range(len(texts))]
        decisions = judge_supersession(
            texts[at], [Candidate(ids[i], texts[i], 0.5, said[i]) for i in range(at)],
            said_at=said[at], replaced=frozenset(gone))
        gone |= {d.replaces for d in decisions}
        found.append([d.replaces.int - 1 for d in decisions])
    return found


@pytest.mark.parametrize("texts", [
    ["I live in Bonn.", "I moved to Cologne.", "Now I live in Düsseldorf.",
     "We moved to Essen last month.", "I'm in Dortmund now, new flat."],
    ["Ich wohne in Bonn.", "Ich bin nach Köln gezogen.", "Jetzt wohne ich in Düsseldorf.",
     "Wir sind letzten Monat nach Essen umgezogen.", "Seit Mai wohne ich in Dortmund."],
    ["Das Meeting ist am Montag.", "Das Meeting wurde auf Dienstag verschoben.",
     "Jetzt ist das Meeting am Mittwoch.", "Das Meeting ist doch am Donnerstag.",
     "Neuer Stand: das Meeting ist am Freitag."],
])
def test_each_new_value_replaces_the_current_head_of_a_chain(texts: list[str]) -> None:
    assert chain(texts) == [[at] for at in range(len(texts) - 1)]


def test_a_landlord_acting_on_the_rent_changes_the_users_rent() -> None:
    assert replaced("Mein Vermieter hat die Miete erhöht.",
                    ["Meine Miete beträgt 800 Euro.", "Ich wohne in Ulm."]) == 0
