"""Topics: what a memory's topics are, the overview, and the open-question rule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

from hypothesis import given, strategies as st

from memlane.domain.facts.topics import (
    ANSWERED_SHARE,
    CONVERSATION_TITLE_KEY,
    OpenQuestion,
    TopicTurn,
    _sentences,
    keywords,
    open_questions,
    split_speakers,
    summarise,
    topics_of,
)
from memlane.domain.memories.segments import SEGMENT_KEY

T0 = datetime(2030, 6, 1, tzinfo=UTC)


def turn(minutes: int, user: str, other: str = "", memory_id: UUID | None = None) -> TopicTurn:
    return TopicTurn(memory_id or uuid4(), T0 + timedelta(minutes=minutes), user, other)


def test_a_memorys_topics_are_its_tags_and_its_chats_title_each_once() -> None:
    metadata = {CONVERSATION_TITLE_KEY: "  Trip   to Japan "}
    assert topics_of(["travel", "Travel", "japan"], metadata) == (
        "travel", "japan", "Trip to Japan",
    )
    assert topics_of([], {CONVERSATION_TITLE_KEY: 42}) == ()


def test_the_overview_counts_topics_case_blind_newest_activity_first() -> None:
    summaries = summarise([
        (("work",), T0), (("Work", "hiring"), T0 + timedelta(days=2)), (("garden",), T0),
    ])
    assert [(s.topic, s.count, s.last_activity) for s in summaries] == [
        ("hiring", 1, T0 + timedelta(days=2)), ("work", 2, T0 + timedelta(days=2)),
        ("garden", 1, T0),
    ]


def test_a_segment_is_split_into_the_users_words_and_the_replies() -> None:
    content = "user: Should I repot the fig?\nIt looks sad.\nassistant: Yes, in spring."
    assert split_speakers(content, {SEGMENT_KEY: 0}) == (
        "Should I repot the fig?\nIt looks sad.", "Yes, in spring.",
    )
    assert split_speakers("Q: Which pot?\nA: A clay one.", {}) == ("Which pot?", "A clay one.")
    assert split_speakers("Plain note", {}) == ("Plain note", "")


def test_a_question_no_later_memory_answers_stays_open() -> None:
    asked = turn(0, "Should I accept the Acme offer? They pay well.", "It depends on you.")
    chat = turn(5, "The weather in Lisbon is lovely today.")
    [question] = open_questions([asked, chat])
    assert question.question == "Should I accept the Acme offer?"
    assert question.memory_id == asked.memory_id and question.asked_at == asked.said_at


def test_a_later_statement_sharing_the_keywords_answers_it() -> None:
    asked = turn(0, "Should I accept the Acme offer?")
    decided = turn(60, "I accepted the offer from Acme yesterday.")
    assert open_questions([decided, asked]) == []


def test_the_reply_in_the_same_memory_and_an_earlier_memory_answer_nothing() -> None:
    earlier = turn(-10, "The Acme offer arrived by mail.")
    asked = turn(0, "Should I accept the Acme offer?", "Accept the Acme offer, it is good.")
    assert [q.question for q in open_questions([earlier, asked])] == [
        "Should I accept the Acme offer?",
    ]


def test_asking_again_answers_nothing_and_only_the_latest_asking_is_kept() -> None:
    first = turn(0, "Which dentist takes my insurance?")
    again = turn(30, "Which dentist takes my insurance?")
    [question] = open_questions([first, again])
    assert question.memory_id == again.memory_id


def test_sentences_that_are_no_questions_or_have_no_keywords_are_not_questions() -> None:
    assert open_questions([turn(0, "I bought new boots. Why?"), turn(1, "ok?")]) == []


def test_keywords_ignore_short_and_function_words_and_common_endings() -> None:
    assert keywords("What should I do about the moving boxes?") == {"mov", "box"}
    assert keywords("Soll ich den Umzug planen?") == {"umzug", "plan"}


def _every_later_statement(turns: list[TopicTurn]) -> list[OpenQuestion]:
    """The rule as first written: each question against every later statement."""
    ordered = sorted(turns, key=lambda t: t.said_at)
    statements = [(t, keywords(" ".join(
        s for s in _sentences(f"{t.user_text}\n{t.other_text}") if not s.endswith("?"))))
        for t in ordered]
    found: dict[frozenset[str], OpenQuestion] = {}
    for t in ordered:
        for sentence in _sentences(t.user_text):
            asked = keywords(sentence)
            if not sentence.endswith("?") or not asked:
                continue
            needed = max(1, int(len(asked) * ANSWERED_SHARE + 0.999))
            if any(len(asked & said) >= needed for later, said in statements
                   if later.said_at > t.said_at and later.memory_id != t.memory_id):
                found.pop(asked, None)
            else:
                found[asked] = OpenQuestion(t.memory_id, sentence, t.said_at)
    return sorted(found.values(), key=lambda q: q.asked_at)


WORDS = ["garden", "tomatoes", "water", "plants", "roses", "summer", "seeds", "fence"]
SENTENCE = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join)
TURN = st.tuples(st.integers(0, 6), st.lists(
    st.tuples(SENTENCE, st.sampled_from(["?", "."])), min_size=1, max_size=3), SENTENCE)


@given(st.lists(TURN, max_size=12))
def test_matching_questions_through_keyword_postings_finds_what_every_pair_would(
    raw: list[tuple[int, list[tuple[str, str]], str]],
) -> None:
    turns = [turn(minutes, " ".join(s + end for s, end in said), reply)
             for minutes, said, reply in raw]
    assert open_questions(turns) == _every_later_statement(turns)
