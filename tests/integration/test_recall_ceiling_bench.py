"""bench/recall_ceiling.py on a tiny LoCoMo-shaped conversation: every ranking finds its turns."""

from __future__ import annotations

from typing import Any

from bench.recall_ceiling import run, sentences, stored_text

# Small talk around the turns that matter: 26 turns, so a place in the top 10 is earned.
FILLER = [
    ("Ana", "Haha, yes!"), ("Ben", "Okay, sounds good."), ("Ana", "Sure thing."),
    ("Ben", "Talk soon!"), ("Ana", "Right, right."), ("Ben", "Totally agree."),
    ("Ana", "Oh wow."), ("Ben", "Anyway, how are you?"), ("Ana", "Not bad at all."),
    ("Ben", "Bye for now!"),
]


def _sample() -> dict[str, Any]:
    first = [
        ("Ana", "I adopted a grey cat called Biscuit last week."),
        ("Ben", "That's lovely! Cats are great company."),
        ("Ana", "She sleeps on my keyboard all day."),
        *FILLER,
    ]
    second = [
        ("Ben", "I finally finished reading 'The Left Hand of Darkness'."),
        ("Ana", "Was it good? I have been meaning to read it."),
        ("Ben", "Loved it. Next I'll go hiking in the Dolomites."),
        *FILLER,
    ]

    def session(turns: list[tuple[str, str]], number: int) -> list[dict[str, str]]:
        return [
            {"speaker": s, "text": t, "dia_id": f"D{number}:{i}"}
            for i, (s, t) in enumerate(turns, start=1)
        ]

    return {
        "sample_id": "tiny",
        "conversation": {
            "speaker_a": "Ana", "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": session(first, 1),
            "session_2_date_time": "10:37 am on 27 June, 2023", "session_2": session(second, 2),
        },
        "qa": [
            {"question": "What is the name of Ana's cat?", "evidence": ["D1:1"], "category": 4},
            {"question": "Which book did Ben finish?", "evidence": ["D2:1"], "category": 4},
            {"question": "Where will Ben go hiking?", "evidence": ["D2:3"], "category": 1},
            {"question": "No evidence for this one", "evidence": [], "category": 4},
        ],
    }


async def test_every_ranking_reports_recall_per_category_and_depth() -> None:
    result = await run([_sample()])

    assert result["questions"] == {"multi-hop": 1, "single-hop": 2}
    assert set(result["recall"]) == {"dense", "dense_sentences", "lexical", "fused"}
    # Among 26 turns, mostly small talk, each ranking puts the turn that answers within its
    # first 10 places; the lexical one lists only turns sharing a stemmed word with the
    # question ("finish" / "finished", "hike" / "hiking").
    for ranking in result["recall"].values():
        assert ranking["@10"]["overall"] == 1.0
        assert ranking["@100"]["overall"] == 1.0


def test_the_stored_text_is_the_conversation_routes_and_sentences_keep_the_photo() -> None:
    from datetime import UTC, datetime

    text = stored_text("Hi there.", "Ana", datetime(2023, 5, 8, tzinfo=UTC))
    parts = sentences("Look at this one. Short. [shares a photo: a cat on a sofa]")

    assert text == "08 May 2023. Ana: Hi there."
    assert parts == ["Look at this one.", "a photo: a cat on a sofa"]
