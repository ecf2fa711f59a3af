"""The lexicon adapter: English read with the right sign, German left unknown rather than
misread (its function words are English entries with a charge), an emoji read anywhere."""

from __future__ import annotations

from memlane.adapters.affect.vader import VaderAffectAdapter, reads_german


def test_english_is_read_with_its_sign_and_a_plain_text_is_calm() -> None:
    happy, sad, plain = VaderAffectAdapter().affect([
        "I am so happy that we got the flat!", "My father died, I am very sad.",
        "The meeting is on Tuesday at nine.",
    ])
    assert happy is not None and happy.valence > 0.5 and happy.arousal > 0.2
    assert sad is not None and sad.valence < -0.5
    assert plain is not None and plain.valence == 0.0 and plain.arousal == 0.0


def test_german_is_unknown_rather_than_misread() -> None:
    wedding = "Die Hochzeit war wunderschön."  # VADER alone: -0.83 ("die", "war")
    assert reads_german(wedding) and not reads_german("The wedding was beautiful.")
    assert VaderAffectAdapter().affect([wedding, "Ich bin so glücklich!"]) == [None, None]


def test_an_emoji_is_read_in_a_short_text_of_names() -> None:
    (read,) = VaderAffectAdapter().affect(["Okay, cool, see you tomorrow 😊"])
    assert read is not None and read.valence > 0.5
