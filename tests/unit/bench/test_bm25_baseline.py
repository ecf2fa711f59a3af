"""The pinned BM25 baseline: its tokens, its documents, its parameters, its ranking."""

from __future__ import annotations

from datetime import UTC, datetime

from bench.bm25_baseline import Bm25Conversation, bm25_answers, document, tokens
from bench.memory_sets import Conversation, Question, Turn

WHEN = datetime(2023, 5, 8, tzinfo=UTC)


def turn(turn_id: str, speaker: str, text: str) -> Turn:
    return Turn(turn_id, int(turn_id[1:].split(":")[0]), speaker, text, WHEN)


def conversation(*turns: Turn, questions: tuple[Question, ...] = ()) -> Conversation:
    return Conversation("c", turns, questions)


def test_tokens_are_lower_case_letters_and_digits_without_stemming_or_stop_words() -> None:
    assert tokens("The DOGS were Running, don't they? Room 101!") == [
        "the", "dogs", "were", "running", "don", "t", "they", "room", "101",
    ]


def test_letters_outside_a_to_z_split_tokens() -> None:
    assert tokens("Café Zürich") == ["caf", "z", "rich"]


def test_a_document_is_the_speaker_and_the_text() -> None:
    assert document(turn("D1:1", "Caroline", "I went hiking.")) == "Caroline: I went hiking."


def test_the_parameters_are_rank_bm25s_defaults() -> None:
    index = Bm25Conversation(conversation(turn("D1:1", "A", "hello there")))._index
    assert (index.k1, index.b, index.epsilon) == (1.5, 0.75, 0.25)


def test_the_speaker_name_is_searchable() -> None:
    convo = conversation(
        turn("D1:1", "Melanie", "I painted a lake."),
        turn("D1:2", "Caroline", "I painted a sunset."),
        turn("D1:3", "Caroline", "Nice weather today."),
    )
    assert Bm25Conversation(convo).rank("What did Melanie paint?")[0] == "D1:1"


def test_turns_sharing_no_token_are_not_retrieved_and_ties_keep_conversation_order() -> None:
    convo = conversation(
        turn("D1:1", "A", "pottery class"), turn("D1:2", "B", "sunny beach"),
        turn("D1:3", "C", "pottery class"), turn("D1:4", "D", "rainy hills"),
        turn("D1:5", "E", "snowy peaks"),  # 2 of 4 documents would give "pottery" idf 0
    )
    assert Bm25Conversation(convo).rank("pottery") == ["D1:1", "D1:3"]


def test_answers_give_the_top_five_and_top_k_as_context() -> None:
    turns = [turn(f"D1:{i}", "A", f"word{i} apple") for i in range(1, 13)]
    asked = Question("q", "apple", 1, "multi-hop", frozenset({"D1:1"}), frozenset({1}))
    got = bm25_answers(conversation(*turns, questions=(asked,)), k=10, depth=50)["q"]
    assert (len(got.context5), len(got.context_k), len(got.ranking)) == (5, 10, 12)
    assert got.context5 == got.ranking[:5]
