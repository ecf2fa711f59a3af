"""The repo's converter of LongMemEval_S and REALTALK into LoCoMo's shape."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from bench.convert_sets import lme_sample, realtalk, realtalk_evidence, stratified


def lme_item(question_id: str = "q1", kind: str = "multi-session") -> dict[str, Any]:
    return {
        "question_id": question_id, "question_type": kind, "question": "Where?", "answer": 7,
        "haystack_dates": ["2023/05/20 (Sat) 02:21", "2023/05/08 (Mon) 13:56"],
        "haystack_session_ids": ["late", "early"],
        "haystack_sessions": [
            [{"role": "user", "content": "late one", "has_answer": True}],
            [{"role": "user", "content": "  "}, {"role": "assistant", "content": "a\x00b"}],
        ],
        "answer_session_ids": ["late"],
    }


def test_sessions_are_ordered_by_date_and_evidence_follows_them() -> None:
    fixes: Counter[str] = Counter()
    sample = lme_sample(lme_item(), fixes)
    conversation = sample["conversation"]
    assert conversation["session_1_date_time"] == "1:56 pm on 8 May, 2023"
    assert conversation["session_1"] == [{"speaker": "assistant", "dia_id": "D1:1", "text": "ab"}]
    qa = sample["qa"][0]
    assert (qa["evidence"], qa["evidence_sessions"], qa["category"]) == (
        ["D2:1"], ["session_2"], 1,
    )
    assert fixes["blank turns dropped"] == 1


def test_abstention_questions_take_category_five() -> None:
    qa = lme_sample(lme_item("q2_abs", "temporal-reasoning"), Counter())["qa"][0]
    assert (qa["category"], qa["type"]) == (5, "temporal-reasoning_abs")


def test_the_sample_gives_each_type_its_share() -> None:
    items = [lme_item(f"a{i}", "multi-session") for i in range(60)]
    items += [lme_item(f"b{i}", "knowledge-update") for i in range(30)]
    items += [lme_item(f"c{i}", "single-session-user") for i in range(10)]
    chosen = stratified(items, 10, 0)
    assert Counter(i["question_type"] for i in chosen) == {
        "multi-session": 6, "knowledge-update": 3, "single-session-user": 1,
    }
    assert chosen == stratified(items, 10, 0)


def test_realtalk_ranges_are_expanded() -> None:
    assert realtalk_evidence(["D20:18-D20:20", "D3:2; D4:05"]) == [
        "D20:18", "D20:19", "D20:20", "D3:2", "D4:5",
    ]


def test_realtalk_renumbers_turns_and_keeps_the_development_chats(tmp_path: Path) -> None:
    for number in (1, 6):
        chat = {
            "name": {"speaker_1": "Ana", "speaker_2": "Ben"},
            "session_3_date_time": "08.05.2023, 13:56:00",
            "session_3": [{"speaker": "Ana", "dia_id": "D3:4", "text": "raw", "clean_text": "hi"}],
            "qa": [{"question": "q", "category": 2, "evidence": ["D3:4", "D9:1"]}],
        }
        (tmp_path / f"Chat_{number}.json").write_text(json.dumps(chat), encoding="utf-8")
    fixes: Counter[str] = Counter()
    samples = realtalk(tmp_path, dev=True, fixes=fixes)
    assert [s["sample_id"] for s in samples] == ["realtalk-Chat_1"]
    turn = samples[0]["conversation"]["session_1"][0]
    assert (turn["dia_id"], turn["text"], turn["orig_dia_id"]) == ("D1:1", "hi", "D3:4")
    assert samples[0]["qa"][0]["evidence"] == ["D1:1"]
    assert fixes["evidence ids dropped (not a turn)"] == 1
    assert len(realtalk(tmp_path, dev=False, fixes=Counter())) == 2
