"""LoCoMo-shaped files (LoCoMo, converted LongMemEval_S and REALTALK) read into turns and questions.

The shape is LoCoMo's `locomo10.json`: a list of samples, each with `sample_id`,
`conversation` (`session_N` lists of turns `{speaker, dia_id: "DN:i", text[, blip_caption]}`
and `session_N_date_time` strings) and `qa` (`{question, evidence: ["DN:i", ...], category}`).
Optional keys of the converted sets are used when present: `question_id`, `type` (the set's own
question type) and `evidence_sessions` (LongMemEval's answer sessions, `session_N`). Nothing here
depends on which set a file is: one code path for all three.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
# Categories 1-4 make the headline; 5 (LoCoMo's adversarial questions, LongMemEval's
# abstentions) is reported apart, as the sets' authors do.
HEADLINE = (1, 2, 3, 4)
# Turns of a session get increasing timestamps (LoCoMo gives only the session start), as a
# chat service would record them; the order is what neighbour expansion follows.
TURN_SPACING = timedelta(seconds=30)
_EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")
# The speakers of a chat between a user and an assistant (bench/convert_sets.py writes
# LongMemEval so): its turns are sent with their roles, not as two named people.
ROLE_SPEAKERS = ("user", "assistant")
_SESSION_KEY = re.compile(r"session_(\d+)$")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %B %d, %Y")


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn as memlane and BM25 see it: `text` holds a shared photo's caption too.
    `assistant`: the turn is an assistant's reply in a chat between a user and an assistant
    (a conversation whose speakers are named "user" and "assistant", as LongMemEval's)."""

    turn_id: str  # "D3:7": session 3, turn 7
    session: int
    speaker: str
    text: str
    created_at: datetime
    assistant: bool = False


@dataclass(frozen=True, slots=True)
class Question:
    """A question with its evidence resolved to turns of its own conversation."""

    question_id: str
    text: str
    category: int
    kind: str  # the set's own question type, for the by-category table
    evidence: frozenset[str]  # turn ids; ids that name no turn are left out
    answer_sessions: frozenset[int]
    asked_at: datetime | None = None  # LongMemEval's question_date; None: not given

    @property
    def headline(self) -> bool:
        return self.category in HEADLINE


@dataclass(frozen=True, slots=True)
class Conversation:
    """One memory user: its turns in order and the questions asked of them."""

    sample_id: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]


@dataclass(frozen=True, slots=True)
class MemorySet:
    name: str
    conversations: tuple[Conversation, ...]

    @property
    def questions(self) -> list[Question]:
        return [q for c in self.conversations for q in c.questions]

    def id_hash(self) -> str:
        return question_id_hash(q.question_id for q in self.questions)


def question_id_hash(ids: Iterable[str]) -> str:
    """Which sample a figure is on: sha256 of the sorted question ids, one per line (12 hex)."""
    joined = "\n".join(sorted(ids)).encode("utf-8")
    return hashlib.sha256(joined).hexdigest()[:12]


def parse_date(text: str) -> datetime:
    cleaned = " ".join(text.split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unrecognised LoCoMo date {text!r}")


def evidence_turns(evidence: Sequence[str]) -> set[str]:
    """Normalised turn ids ("D8:6; D9:17" -> both, "D:11:26" -> D11:26, "D30:05" -> D30:5)."""
    found: set[str] = set()
    for item in evidence:
        for session, turn in _EVIDENCE.findall(str(item)):
            found.add(f"D{int(session)}:{int(turn)}")
    return found


def session_of(turn_id: str) -> int:
    """The session number of a normalised turn id ("D12:3" -> 12)."""
    return int(turn_id[1:].split(":", 1)[0])


def session_number(key: str) -> int:
    """The number of a "session_N" key (LongMemEval's answer sessions are named so)."""
    match = _SESSION_KEY.match(key)
    if match is None:
        raise ValueError(f"not a session key: {key!r}")
    return int(match.group(1))


def turn_text(turn: Mapping[str, Any]) -> str:
    text = str(turn["text"]).strip()
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def read_turns(conversation: Mapping[str, Any]) -> list[Turn]:
    """Every turn, sessions in number order ("session_N" keys whose value is not a list are
    LoCoMo's summaries and dates, not sessions)."""
    sessions = sorted(
        (int(m.group(1)), key) for key in conversation
        if (m := _SESSION_KEY.match(key)) and isinstance(conversation[key], list)
    )
    roles = (conversation.get("speaker_a"), conversation.get("speaker_b")) == ROLE_SPEAKERS
    turns: list[Turn] = []
    for number, key in sessions:
        started = parse_date(conversation[f"{key}_date_time"])
        for index, raw in enumerate(conversation[key]):
            turn_id = evidence_turns([raw["dia_id"]]).pop()
            turns.append(Turn(
                turn_id, number, str(raw["speaker"]), turn_text(raw),
                started + index * TURN_SPACING,
                assistant=roles and raw["speaker"] == ROLE_SPEAKERS[1],
            ))
    return turns


def question_kind(qa: Mapping[str, Any]) -> str:
    kind = str(qa.get("type") or CATEGORIES.get(int(qa["category"]), qa["category"]))
    # LongMemEval's abstention types (multi-session_abs, ...) are one group, as in its paper.
    return "abstention" if kind.endswith("_abs") else kind


def read_question(
    sample_id: str, index: int, qa: Mapping[str, Any], turn_ids: set[str]
) -> Question:
    evidence = frozenset(evidence_turns(qa.get("evidence", [])) & turn_ids)
    if "evidence_sessions" in qa:
        sessions = frozenset(session_number(s) for s in qa["evidence_sessions"])
    else:
        sessions = frozenset(session_of(t) for t in evidence)
    return Question(
        question_id=str(qa.get("question_id") or f"{sample_id}:{index}"),
        text=str(qa["question"]),
        category=int(qa["category"]),
        kind=question_kind(qa),
        evidence=evidence,
        answer_sessions=sessions,
        asked_at=question_date(qa.get("question_date")),
    )


def question_date(text: object) -> datetime | None:
    """LongMemEval's "2023/04/01 (Sat) 16:08" as a UTC moment (None when absent)."""
    if not isinstance(text, str) or not text.strip():
        return None
    cleaned = text.strip()
    return datetime.strptime(cleaned[:10] + cleaned[-5:], "%Y/%m/%d%H:%M").replace(tzinfo=UTC)


def read_conversation(sample: Mapping[str, Any]) -> Conversation:
    sample_id = str(sample["sample_id"])
    turns = read_turns(sample["conversation"])
    ids = {t.turn_id for t in turns}
    questions = tuple(
        read_question(sample_id, i, qa, ids) for i, qa in enumerate(sample.get("qa", []))
    )
    return Conversation(sample_id, tuple(turns), questions)


def load_set(path: Path, name: str | None = None) -> MemorySet:
    """A LoCoMo-shaped file; its name is the file's stem unless given."""
    samples = json.loads(path.read_text(encoding="utf-8"))
    return MemorySet(name or path.stem, tuple(read_conversation(s) for s in samples))
