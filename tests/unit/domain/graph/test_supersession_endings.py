"""Supersession mechanisms of the fourth round, on sentences of their own (none from a bench
set): the end of a thing, a denied change, spoken German without a subject, people named by
role and name, the old value named beside the new one, and the slots of a club supported and
a band part."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest

from memlane.domain.graph.supersession import DEFAULT_CUES, Candidate, judge_supersession

NOW = datetime(2025, 6, 11, 10, tzinfo=UTC)


def replaced(new: str, older: list[str]) -> int | None:
    """Which older statement (an hour apart, oldest first) `new` replaces, if any."""
    candidates = [Candidate(UUID(int=i + 1), text, 0.5, NOW - timedelta(hours=30 - i))
                  for i, text in enumerate(older)]
    decisions = judge_supersession(new, candidates, said_at=NOW - timedelta(hours=30 - len(older)))
    return decisions[0].replaces.int - 1 if decisions else None


@pytest.mark.parametrize(("new", "older", "expected"), [
    # The thing ended is the topic, whatever slots the rest of the sentence names.
    ("Sold the Vespa on Saturday, bought a season ticket for the tram instead.",
     ["I work in Lyon.", "I ride a Vespa to the office."], 1),
    ("Den Töpferkurs hab ich geschmissen, mach jetzt lieber Aquarell.",
     ["Ich mache einen Töpferkurs an der VHS.", "Ich wohne in Kassel."], 0),
    ("Cancelled Audible yesterday, the library app is enough.",
     ["I have an Audible membership.", "I commute by train."], 0),
    ("Kasimir ist letzte Woche gestorben, jetzt haben wir zwei Hühner.",
     ["Ich arbeite im Schichtdienst.", "Wir haben eine Schildkröte namens Kasimir."], 1),
    # "X-free" and "kein ... mehr" after "auch" say a value ended, not one added.
    ("Six weeks sugar-free today.", ["I eat a lot of sugar.", "I live in Hull."], 0),
    ("Seit Januar vegan, auch kein Käse mehr.",
     ["Ich esse kein Fleisch, aber Käse.", "Ich koche gern."], 0),
    # Someone else ending their own thing, or a one-off, ends nothing of the user's.
    ("My sister cancelled her Audible membership.",
     ["I have an Audible membership.", "My sister lives in Ghent."], None),
    ("Heute ist der Töpferkurs ausgefallen.",
     ["Ich mache einen Töpferkurs an der VHS.", "Ich wohne in Kassel."], None),
])
def test_the_end_of_a_thing_replaces_what_says_the_user_has_it(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


@pytest.mark.parametrize(("new", "older", "expected"), [
    ("We're not moving to Derby after all.", ["I live in Nottingham.", "I work at Boots."], None),
    ("Wir ziehen doch nicht nach Mainz, das hat sich zerschlagen.",
     ["Ich wohne in Wiesbaden.", "Ich arbeite bei der Bahn."], None),
    ("Ich wechsle doch nicht zu Bosch.", ["Ich arbeite bei Siemens.", "Ich fahre Rad."], None),
])
def test_a_denied_change_leaves_the_present_standing(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


def test_a_denied_change_ends_the_plan_it_denies() -> None:
    older = ["I live in Nottingham.", "We're moving to Derby in the spring."]
    assert replaced("We're not moving to Derby after all, the sale fell through.", older) == 1


@pytest.mark.parametrize(("text", "question"), [
    ("Sind im Mai nach Fulda gezogen.", False),
    ("Ist jetzt auf Freitag verlegt.", False),
    ("Bin seit Montag krankgeschrieben.", False),
    ("Ist das Treffen noch am Freitag", True),
    ("Sind wir morgen bei Oma", True),
    ("Is the meeting still on Friday", True),
])
def test_spoken_german_without_a_subject_is_a_statement(text: str, question: bool) -> None:
    assert DEFAULT_CUES.is_question(text) is question


def test_a_subject_dropped_move_replaces_the_home() -> None:
    older = ["Ich wohne in Gießen.", "Ich arbeite im Labor."]
    assert replaced("Sind im Mai nach Fulda gezogen, Gießen war zu teuer.", older) == 0


@pytest.mark.parametrize(("text", "holder"), [
    ("Mein Kumpel Ole hat bei Bosch gekündigt.", "kumpel"),
    ("My buddy Raj moved to Derby.", "buddy"),
    ("Die Nachbarn haben jetzt einen Pool.", "nachbarn"),
    ("The neighbours got a trampoline.", "neighbours"),
    # An adjective before a noun is no role with a name: "Meine neue Adresse ist ...".
    ("Meine neue Adresse ist Ringstraße 4.", "self"),
])
def test_people_named_by_role_and_name_or_an_article_hold_their_own_news(
        text: str, holder: str) -> None:
    assert DEFAULT_CUES.holder(text) == holder


@pytest.mark.parametrize(("new", "older", "expected"), [
    ("Mein Kumpel Ole hat bei Bosch gekündigt.",
     ["Ich arbeite bei Bosch.", "Ich wohne in Stuttgart."], None),
    ("The neighbours switched to solar too.",
     ["We switched to solar.", "I live in Exeter."], None),
])
def test_what_people_of_the_user_do_replaces_nothing_of_the_users(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


@pytest.mark.parametrize(("new", "older", "expected"), [
    # The old value named beside the new one, even where the slots read differently.
    ("Bin zur Barmer gewechselt, die DAK hat zu viel verlangt.",
     ["Meine Krankenkasse ist die DAK.", "Ich habe zwei Kinder."], 0),
    ("We switched to Octopus, Ovo kept raising the rates.",
     ["Our energy supplier is Ovo.", "I work from home."], 0),
    # A shared name the change goes to is no old value ("moved to Croydon" / "flats in
    # Croydon" is still the home).
    ("I moved to Croydon in May.", ["I'm looking at flats in Croydon.", "I live in Brixton."], 1),
])
def test_the_old_value_named_beside_the_new_one_is_replaced(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


@pytest.mark.parametrize(("new", "older", "expected"), [
    ("I've switched allegiance to Leeds, sorry dad.",
     ["I support Sheffield United.", "I watch games at the Crown with my dad."], 0),
    ("Ich halte jetzt zu Union, Hertha hat mich zu oft enttäuscht.",
     ["Ich bin Fan von Hertha.", "Ich schaue Spiele in der Eckkneipe."], 0),
    ("I'm on bass in the band now, our bassist moved away.",
     ["I play guitar in a band.", "I work as a teacher."], 0),
    ("Im Chor singe ich jetzt Alt statt Sopran, und am Klavier bin ich nicht mehr.",
     ["Ich spiele Klavier in der Band.", "Ich wohne in Jena."], 0),
])
def test_a_club_supported_and_a_band_part_hold_one_value(
        new: str, older: list[str], expected: int | None) -> None:
    assert replaced(new, older) == expected


@pytest.mark.parametrize(("new", "older"), [
    ("I actually like anchovies now.", ["I can't stand anchovies.", "I cook a lot."]),
    ("Rosenkohl mag ich inzwischen gern.", ["Ich kann Rosenkohl nicht ausstehen.", "Ich koche."]),
])
def test_a_dislike_said_with_stand_is_no_past_and_flips(new: str, older: list[str]) -> None:
    assert replaced(new, older) == 0


@pytest.mark.parametrize(("new", "older"), [
    ("Sam and I switched to the Monday pottery class now.",
     ["I go climbing with Sam.", "I live in Hove."]),
    ("Jonas und ich sind jetzt im Töpferkurs am Montag.",
     ["Ich gehe mit Jonas klettern.", "Ich wohne in Jena."]),
])
def test_someone_the_user_is_with_is_no_old_value(new: str, older: list[str]) -> None:
    assert replaced(new, older) is None
