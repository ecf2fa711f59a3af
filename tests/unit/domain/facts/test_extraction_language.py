"""Fact patterns read the language, not the sentences: rules from the tuning half's errors."""

from __future__ import annotations

import pytest

from memlane.domain.facts.extraction import extract_facts
from memlane.domain.facts.model import normalise


def found(text: str) -> set[tuple[str, str]]:
    return {(f.relation, normalise(f.object)) for f in extract_facts(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A pluperfect reads like the perfect; contact alone is talk, not news.
        ("Wir hatten letzte Woche geschrieben.", set()),
        ("Ich war letztes Jahr nach Bern umgezogen.", {("event", "nach bern umgezogen")}),
        ("Letztes Wochenende waren wir im Zoo und haben Pinguine gesehen.",
         {("event", "waren im zoo"), ("event", "pinguine gesehen")}),
        # What did not happen, how one was, and a pointer name no event.
        ("Ich habe gestern nicht gearbeitet.", set()),
        ("Gestern war ich müde.", set()),
        ("Ich hatte letzte Woche viel zu tun.", set()),
        ("Ich habe es letzte Woche gesehen.", set()),
        ("Wir waren gestern wandern.", {("event", "waren wandern")}),
        ("I retook the exam last week.", {("event", "retook the exam")}),
        # "in" before a bare name is a place, with an article a workplace.
        ("Ich bin Bäcker in Ulm.", {("works_as", "bäcker")}),
        ("Ich bin Lehrerin in einer Grundschule.",
         {("works_as", "lehrerin"), ("works_at", "grundschule")}),
        ("Ich arbeite in der HR-Abteilung einer Bank.", {("works_at", "bank")}),
        ("Ich komme aus der Küche.", set()),
        ("Ich komme aus der Schweiz.", {("comes_from", "schweiz")}),
        # A limit keeps a condition said without its own subject.
        ("I'm not allowed to drive while on these pills.",
         {("cannot", "drive while on these pills")}),
        ("I can't eat sushi while I'm pregnant.",
         {("cannot", "eat sushi"), ("condition", "pregnant")}),
        ("Ich darf das nicht sagen.", set()),
        # The noun German capitalises is what is not drunk; alone, the habit is alcohol.
        ("Ich trinke Kaffee nicht.", {("avoids", "kaffee")}),
        ("Ich trinke schon lange nicht mehr.", {("avoids", "alkohol")}),
        # Allergic to Mondays is an idiom.
        ("I'm allergic to Mondays.", set()),
        ("Ich bin allergisch gegen Montage, haha.", set()),
        ("I'm allergic to latex.", {("allergic_to", "latex")}),
        # How much or how long before a verb of liking; "a favourite of mine".
        ("I still love jazz.", {("likes", "jazz")}),
        ("I also really hate cilantro.", {("dislikes", "cilantro")}),
        ("Chess has always been a favorite of mine.", {("likes", "chess")}),
        ("It is a favorite of mine.", set()),
        # A taste is for a kind of thing, not a person, a belonging or an adverb.
        ("My kids drive me mad.", set()),
        ("Mein Chef geht mir auf die Nerven.", set()),
        ("Montags nervt mich alles.", set()),
        ("Your idea is my favourite.", set()),
        ("Crowded trains drive me mad.", {("dislikes", "crowded trains")}),
        # "Ich werde morgen sehen" defers a decision, as "I'll see" does.
        ("Ich werde morgen sehen.", set()),
        ("Ich werde morgen den Vertrag unterschreiben.",
         {("commits_to", "morgen den vertrag unterschreiben")}),
        # A home is a place, an employer no team or pay.
        ("I live in fear.", set()),
        ("I live in the moment.", set()),
        ("I live in a small flat.", {("lives_in", "small flat")}),
        ("I work in a team of five.", set()),
        ("I work for peanuts.", set()),
        ("I work for the county.", {("works_at", "county")}),
    ],
)
def test_a_rule_of_the_language_reads_a_sentence_nobody_tuned_for(
    text: str, expected: set[tuple[str, str]]
) -> None:
    assert found(text) == expected
