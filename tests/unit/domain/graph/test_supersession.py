"""Supersession without an LLM: EN/DE corrections, the negatives it must leave alone, the past."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

import pytest
from hypothesis import given, strategies as st

from memlane.domain.graph.supersession import (
    DEFAULT_BAND,
    SupersessionCues,
    SupersessionDecision,
    SupersessionKind,
    asks_about_past,
    judge_supersession,
)
from memlane.domain.graph.supersession_cues import CHANGE_CUES
from memlane.domain.graph.supersession_scene import Candidate

# Cosines as all-MiniLM-L6-v2 gives them for these pairs (rounded; bench/supersession.py).
Older = list[tuple[str, float]]


def judge(new: str, older: Older, **options: Any) -> tuple[list[UUID], list[SupersessionDecision]]:
    ids = [uuid4() for _ in older]
    candidates = [(i, text, cosine) for i, (text, cosine) in zip(ids, older, strict=True)]
    return ids, judge_supersession(new, candidates, **options)


def replaced_index(new: str, older: Older) -> int | None:
    ids, decisions = judge(new, older)
    assert len(decisions) <= 1
    return ids.index(decisions[0].replaces) if decisions else None


BERLIN: Older = [("I live in Berlin.", 0.43), ("Berlin has great techno clubs.", 0.38),
                 ("My sister visits me twice a year.", 0.2)]
MEETINGS: Older = [("I need to prepare slides for the team meeting.", 0.55),
                   ("The team meeting is on Monday at 10.", 0.71), ("Lunch is at noon.", 0.2)]
KAFFEE: Older = [("Ich frühstücke um sieben.", 0.45), ("Meine Lieblingstasse ist rot.", 0.4),
                 ("Ich liebe Kaffee.", 0.74)]


@pytest.mark.parametrize(
    ("new", "older", "expected"),
    [
        ("I moved to Lisbon last month.", BERLIN, 0),
        ("Actually the meeting is Tuesday.", MEETINGS, 1),
        ("I switched jobs, I'm at Bosch now.", [("I work at Siemens as an engineer.", 0.44),
                                                 ("I like my colleagues.", 0.3)], 0),
        ("Wait, the kickoff call is at 4 pm, not 3.", [("The client is Acme Corp.", 0.3),
                                                        ("The kickoff call is at 3 pm.", 0.9)], 1),
        ("Ich bin nach Hamburg umgezogen.", [("Ich wohne in Berlin.", 0.55),
                                             ("Meine Schwester besucht mich oft.", 0.3)], 0),
        ("Eigentlich ist das Meeting am Dienstag.", [("Das Meeting ist am Montag um 10 Uhr.", 0.64),
                                                     ("Mittagessen gibt es um zwölf.", 0.3)], 0),
        ("Wir nehmen jetzt Bento statt Resend.", [("Unsere Domain liegt bei Cloudflare.", 0.3),
                                                  ("Wir nutzen Resend für E-Mails.", 0.42)], 1),
        ("Annas Feier wurde auf Sonntag verlegt.",
         [("Annas Geburtstagsfeier ist am Samstag.", 0.7), ("Ein Schal für Anna.", 0.4)], 0),
    ],
)
def test_a_correction_names_the_older_statement_it_replaces(
    new: str, older: Older, expected: int
) -> None:
    assert replaced_index(new, older) == expected


def test_giving_up_what_one_loved_is_a_contradiction_in_german() -> None:
    ids, decisions = judge("Ich trinke keinen Kaffee mehr.", KAFFEE)
    assert [(d.replaces, d.kind) for d in decisions] == [(ids[2], SupersessionKind.CONTRADICTION)]


def test_no_longer_drinking_coffee_contradicts_loving_it_in_english() -> None:
    _, decisions = judge("I don't drink coffee anymore.", [("I love coffee.", 0.62)])
    assert decisions[0].kind is SupersessionKind.CONTRADICTION
    assert "polarity" in decisions[0].reasons


def test_naming_the_old_value_is_a_correction_not_a_negation() -> None:
    _, decisions = judge("Correction: the flight is on March 5, not March 3.",
                         [("My flight to New York is on March 3.", 0.8)])
    assert decisions[0].kind is SupersessionKind.SUPERSEDES


def test_the_best_matching_meeting_is_replaced_not_the_other_one() -> None:
    older = [("The team meeting is on Monday.", 0.7), ("The client meeting is on Thursday.", 0.88),
             ("The client is based in Vienna.", 0.5)]
    assert replaced_index("Actually the client meeting is on Friday.", older) == 1


def test_a_statement_about_the_past_is_never_the_one_replaced() -> None:
    older = [("I lived in Munich before.", 0.6), ("I live in Berlin.", 0.5)]
    assert replaced_index("I've moved to Lisbon.", older) == 1


@pytest.mark.parametrize(
    ("new", "older"),
    [
        ("I also like tea.", [("I like coffee.", 0.6)]),  # an addition
        ("Ich mag auch Tee.", [("Ich mag Kaffee.", 0.7)]),
        ("I now also play padel.", [("I play tennis.", 0.55)]),
        ("As I said, I live in Berlin.", BERLIN),  # restatements
        ("Ich trinke immer noch gern Kaffee.", KAFFEE),
        ("Doch, ich wohne wirklich in Berlin.", [("Ich wohne in Berlin.", 0.9)]),
        ("My sister moved to Lisbon.", BERLIN),  # someone else
        ("Mein Vater trinkt keinen Kaffee mehr.", KAFFEE),
        ("Is the meeting actually on Tuesday?", MEETINGS),  # questions
        ("Should I switch jobs to Bosch", [("I work at Siemens.", 0.5)]),
        ("Wo wohne ich jetzt", [("Ich wohne in Berlin.", 0.7)]),
        ("I might move to Lisbon next year.", BERLIN),  # hypotheticals
        ("Vielleicht ziehe ich nächstes Jahr nach Hamburg.", [("Ich wohne in Berlin.", 0.6)]),
        ("Tom now has a new puppy.", [("Tom is our designer.", 0.58)]),  # unrelated, in band
        ("Lena arbeitet jetzt als Ärztin.", [("Meine Freundin heißt Lena.", 0.6)]),
        ("Der Zahnarzttermin ist jetzt um 9 Uhr.", [("Das Teammeeting ist am Montag.", 0.4)]),
        ("Das Meeting findet in Raum 4B statt.", [("Das Meeting ist am Montag.", 0.59)]),
    ],
)
def test_additions_restatements_others_questions_and_unrelated_memories_replace_nothing(
    new: str, older: Older
) -> None:
    assert replaced_index(new, older) is None


@pytest.mark.parametrize(
    ("new", "trip"),
    [
        ("I moved to Lisbon last month.", "I'm looking for flights from Berlin to Lisbon."),
        ("I just moved to Lisbon!", "Searching for cheap flights to Lisbon in March."),
        ("Ich bin letzten Monat nach Lissabon gezogen.",
         "Ich suche Flüge von Berlin nach Lissabon."),
        ("Ich bin gerade nach Lissabon umgezogen!",
         "Günstige Flüge nach Lissabon im März gesucht."),
    ],
)
def test_a_move_never_replaces_a_trip_that_only_shares_the_place(new: str, trip: str) -> None:
    # Seen on real data: a move and a flight search share the city and a change cue, nothing
    # more; both name a kind of thing (home, a flight) and not the same one.
    assert replaced_index(new, [(trip, 0.62)]) is None


@pytest.mark.parametrize(
    ("new", "home", "trip"),
    [
        ("I moved to Lisbon last month.", "I live in Berlin.",
         "I'm looking for flights from Berlin to Lisbon."),
        ("Ich bin letzten Monat nach Lissabon gezogen.", "Ich wohne in Berlin.",
         "Ich suche Flüge von Berlin nach Lissabon."),
    ],
)
def test_a_move_replaces_the_old_home_even_when_a_closer_trip_names_the_new_city(
    new: str, home: str, trip: str
) -> None:
    assert replaced_index(new, [(home, 0.45), (trip, 0.62)]) == 0


def test_too_as_an_intensifier_is_no_addition() -> None:
    older = [("I take the 7:45 train to work.", 0.6), ("I read on the train.", 0.4)]
    assert replaced_index("I drive to work now, the train was too unreliable.", older) == 0


def test_below_the_band_nothing_is_replaced_however_strong_the_cue() -> None:
    low = DEFAULT_BAND[0]
    assert replaced_index("I moved to Lisbon.", [("I live in Berlin.", low + 0.01)]) == 0
    assert replaced_index("I moved to Lisbon.", [("I live in Berlin.", low - 0.01)]) is None


def test_a_correction_above_the_merge_threshold_is_still_a_supersession() -> None:
    older = [("The book club meets on Thursdays.", 0.92)]
    assert replaced_index("The book club meets on Wednesdays from now on.", older) == 0


def test_a_conflicting_functional_fact_supersedes_without_any_cue() -> None:
    berlin = uuid4()
    candidates = [(berlin, "I live in Berlin.", 0.55)]
    assert judge_supersession("I live in Lisbon.", candidates) == []
    (decision,) = judge_supersession("I live in Lisbon.", candidates, fact_conflicts={berlin})
    assert decision.replaces == berlin
    assert decision.reasons == ("fact",)


def test_several_memories_are_replaced_only_when_their_facts_conflict() -> None:
    first, second, other = uuid4(), uuid4(), uuid4()
    candidates = [(first, "I live in Berlin.", 0.5), (second, "I live in Berlin-Mitte.", 0.45),
                  (other, "I love living in Berlin.", 0.6)]
    decisions = judge_supersession("I moved to Lisbon.", candidates,
                                   fact_conflicts={first, second})
    assert {d.replaces for d in decisions} == {first, second}


def test_cue_lists_are_data_that_configuration_can_extend() -> None:
    older = [(uuid4(), "Das Meeting ist am Montag.", 0.7)]
    new = "Das Meeting ist laut Aushang am Dienstag."
    assert judge_supersession(new, older) == []
    extended = SupersessionCues(change=(*CHANGE_CUES, "laut aushang"))
    assert len(judge_supersession(new, older, cue_set=extended)) == 1


sentences = st.text(alphabet=st.characters(codec="utf-8"), max_size=120)
candidate_lists = st.lists(
    st.tuples(st.uuids(), sentences, st.floats(min_value=-1, max_value=1)), max_size=6,
    unique_by=lambda c: c[0],
)


@given(new=sentences, candidates=candidate_lists)
def test_at_most_one_memory_is_replaced_without_fact_conflicts_and_it_is_a_candidate(
    new: str, candidates: list[tuple[UUID, str, float]]
) -> None:
    decisions = judge_supersession(new, candidates)
    assert len(decisions) <= 1
    assert all(d.replaces in {c[0] for c in candidates} for d in decisions)


@given(new=sentences, candidates=candidate_lists)
def test_a_question_never_supersedes_anything(
    new: str, candidates: list[tuple[UUID, str, float]]
) -> None:
    facts = frozenset(c[0] for c in candidates)
    assert judge_supersession(new + "?", candidates, fact_conflicts=facts) == []


@given(new=sentences, candidates=candidate_lists)
def test_outside_the_band_only_a_fact_conflict_can_supersede(
    new: str, candidates: list[tuple[UUID, str, float]]
) -> None:
    assert judge_supersession(new, candidates, band=(1.5, 2.0)) == []


@pytest.mark.parametrize(
    "query",
    ["Where did I live before?", "I used to work somewhere else, where?",
     "Who was my manager previously?", "Which editor did I use?", "What did I drink in 2020?",
     "Wo habe ich früher gewohnt?", "Was war mein Job damals?", "Wer war vorher mein Chef?",
     "Welche Adresse hatte ich ehemals?"],
)
def test_questions_about_the_past_ask_for_superseded_memories(query: str) -> None:
    assert asks_about_past(query)


@pytest.mark.parametrize(
    "query",
    ["Where do I live?", "What is my job?", "Who is my manager?", "Wo wohne ich?",
     "Was ist meine Handynummer?", "Wann ist das Meeting?"],
)
def test_questions_about_the_present_do_not(query: str) -> None:
    assert not asks_about_past(query)


@pytest.mark.parametrize(
    ("older", "new"),
    [
        ("Mein Partner heißt Nils.", "Seit letzter Woche lässt sich Nils einen Bart wachsen."),
        ("My dentist is Dr. Park.", "Dr. Park moved her practice to a new building."),
    ],
)
def test_what_someone_named_does_leaves_what_the_user_said_of_them(older: str, new: str) -> None:
    assert judge_supersession(new, [(uuid4(), older, 0.6)]) == []


def test_a_statement_never_replaces_one_said_after_it() -> None:
    """An old chat imported late ("I live in Berlin", said in 2029) leaves what the user said
    since (2030) current; said in order, the move replaces the old home."""
    home = Candidate(uuid4(), "I live in Berlin.", 0.6, datetime(2029, 5, 1, tzinfo=UTC))
    moved = "I moved to Lisbon last month."
    assert judge_supersession(moved, [home], said_at=datetime(2028, 1, 1, tzinfo=UTC)) == []
    (decision,) = judge_supersession(moved, [home], said_at=datetime(2030, 1, 1, tzinfo=UTC))
    assert decision.replaces == home.id
