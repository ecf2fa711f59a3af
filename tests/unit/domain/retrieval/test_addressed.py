"""Which questions ask about the assistant's own earlier words (EN, DE), and which ask it for
something new or about the user."""

from __future__ import annotations

import pytest

from memlane.domain.retrieval import asks_about_replies


@pytest.mark.parametrize("question", [
    "Can you remind me what sealant you recommended for the vase?",
    "What song did you say best showed the band's growth?",
    "I wanted to follow up on our previous conversation about mindfulness.",
    "You mentioned a website with free exercises, which one was it?",
    "What was your recommendation for the snapper dish?",
    "Welches Dichtmittel hast du mir für die Vase empfohlen?",
    "Was hast du gestern über Binauralbeats gesagt?",
    "Du hast mir ein Rezept vorgeschlagen, wie hieß es?",
    "In unserem letzten Gespräch ging es um Gitarren.",
    "Wie lautete deine Empfehlung für das Restaurant?",
])
def test_a_question_about_what_the_assistant_said(question: str) -> None:
    assert asks_about_replies(question)


@pytest.mark.parametrize("question", [
    "Can you recommend some resources on video editing?",
    "What do you think, should I buy a NAS now?",
    "Do you think it might be my living room?",
    "What did I say about my sister's wedding?",
    "Where do I live?",
    "Kannst du mir ein Buch empfehlen?",
    "Was habe ich über meinen Bruder gesagt?",
    "Wo wohne ich?",
    "What did Caroline recommend to Melanie?",
])
def test_a_question_for_new_advice_or_about_the_user(question: str) -> None:
    assert not asks_about_replies(question)
