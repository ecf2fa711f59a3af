"""Reading LoCoMo-shaped files: turns, evidence, answer sessions, question ids and their hash."""

from __future__ import annotations

from typing import Any

from bench.memory_sets import evidence_turns, question_id_hash, read_conversation


def sample(**qa: Any) -> dict[str, Any]:
    return {
        "sample_id": "conv-1",
        "conversation": {
            "speaker_a": "Ana", "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": " Hi! "},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Look", "blip_caption": "a cat"},
            ],
            "session_2_date_time": "10:00 am on 9 May, 2023",
            "session_2": [{"speaker": "Ana", "dia_id": "D2:1", "text": "Back."}],
            "session_2_summary": "not a session",
        },
        "qa": [{"question": "Who?", "category": 1, "evidence": ["D2:1"], **qa}],
    }


def test_evidence_ids_are_normalised() -> None:
    assert evidence_turns(["D8:6; D9:17", "D:11:26", "D30:05", "D"]) == {
        "D8:6", "D9:17", "D11:26", "D30:5",
    }


def test_turns_keep_order_captions_and_spacing() -> None:
    turns = read_conversation(sample()).turns
    assert [t.turn_id for t in turns] == ["D1:1", "D1:2", "D2:1"]
    assert turns[0].text == "Hi!"
    assert turns[1].text == "Look [shares a photo: a cat]"
    assert (turns[1].created_at - turns[0].created_at).total_seconds() == 30
    assert turns[2].session == 2


def test_evidence_naming_no_turn_is_dropped_and_sessions_follow_the_turns() -> None:
    q = read_conversation(sample(evidence=["D2:1", "D7:3"])).questions[0]
    assert q.evidence == {"D2:1"}
    assert q.answer_sessions == {2}


def test_answer_sessions_come_from_evidence_sessions_when_given() -> None:
    q = read_conversation(sample(evidence_sessions=["session_1", "session_2"])).questions[0]
    assert q.answer_sessions == {1, 2}


def test_question_ids_default_to_the_sample_and_position() -> None:
    assert read_conversation(sample()).questions[0].question_id == "conv-1:0"
    assert read_conversation(sample(question_id="gpt4_x")).questions[0].question_id == "gpt4_x"


def test_abstention_types_form_one_category_reported_apart() -> None:
    q = read_conversation(sample(category=5, type="multi-session_abs")).questions[0]
    assert q.kind == "abstention"
    assert not q.headline


def test_the_id_hash_ignores_order_and_notices_another_question() -> None:
    assert question_id_hash(["a", "b"]) == question_id_hash(["b", "a"])
    assert question_id_hash(["a", "b"]) != question_id_hash(["a", "c"])
    assert len(question_id_hash(["a"])) == 12
