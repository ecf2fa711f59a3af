"""Supersession: whether a new memory replaces what an older one said (no LLM call)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from memlane.domain.graph import supersession_lexicon as lexicon, supersession_voice as voice
from memlane.domain.graph.supersession_learned import LearnedJudge, PairContext, pair_features
from memlane.domain.graph.supersession_reading import OTHER, SELF, Reading, SupersessionCues
from memlane.domain.graph.supersession_scene import (
    Candidate,
    Scene,
    may_replace,
    scene_of,
)
from memlane.domain.graph.supersession_topic import (
    entered_there,
    flips,
    handed_on,
    holders_agree,
    partner_ended,
    redone,
    same_topic,
    shared_words,
)

__all__ = [
    "DEFAULT_BAND", "DEFAULT_CUES", "Candidate", "SupersessionCues", "SupersessionDecision",
    "SupersessionKind", "asks_about_past", "candidate_features", "judge_supersession",
]

# Cosine band (all-MiniLM-L6-v2, between what the user said in each) in which an older memory
# can be the one replaced; calibrated on bench/data/supersession_scenarios.jsonl
# (docs/supersession.md). No ceiling below 1: "meets on Wednesdays from now on" is 0.92 to
# "meets on Thursdays", above the 0.85 merge threshold, so a restatement is told from a
# correction by its words, not its cosine.
DEFAULT_BAND = (0.0, 1.0)
# What a shared slot weighs when candidates compete: one that holds a single value (home, job)
# says more about being the same thing than a shared word.
_SINGLE_SLOT_WEIGHT = 0.25
# Cosine weighs little beside the words: a conversation turn embeds with its date and reply, so
# its cosines run higher than a plain memory's, and the routes must pick the same candidate.
_COSINE_WEIGHT = 0.25
_SLOT_WEIGHT = 0.1
_REFERRING_PENALTY = 0.3
# A new value of the same kind (a time for a time, a date for a date) points at the candidate.
_SHAPE_WEIGHT = 0.15
_HOLDER_WEIGHT = 0.3
# Someone the older statement names, said to have left their place to another, or the old
# value named ("not at the Alm but ..."), points at it.
_HANDOVER_WEIGHT = 0.3
class SupersessionKind(StrEnum):
    SUPERSEDES = "supersedes"  # a new value for the same thing: Berlin -> Lisbon
    CONTRADICTION = "contradiction"  # the new one negates the old: love coffee -> no coffee


@dataclass(frozen=True, slots=True)
class SupersessionDecision:
    """An edge new -> `replaces`; the older memory gets valid_until and superseded_by."""

    replaces: UUID
    kind: SupersessionKind
    score: float
    reasons: tuple[str, ...]


DEFAULT_CUES = SupersessionCues()


def asks_about_past(query: str, cue_set: SupersessionCues = DEFAULT_CUES) -> bool:
    """Whether a query asks what used to be true, so superseded memories may be shown."""
    return cue_set.has("past", query)


def _reasons(
    new: Reading, old: Reading, cosine: float, band: tuple[float, float], cued: bool,
    old_is_change: bool = False,
) -> tuple[str, ...] | None:
    """Why `new` replaces `old`, or None when it does not."""
    low, high = band
    handover = handed_on(new, old)
    if not low <= cosine <= high or (not handover and (
            not holders_agree(new, old) or not same_topic(new, old, old_is_change))):
        return None
    # A change denied ("wir ziehen doch nicht nach Dortmund") ends only a plan said before.
    if new.denied and not old_is_change:
        return None
    flip = flips(new, old)
    # A new state entered in a slot both hold one value of ("qualified as a paramedic" after
    # "training to be one") is a change without change words.
    cued = cued or handover or redone(new, old) or entered_there(new, old) or (
        new.enters and bool(new.slots & old.slots & lexicon.SINGLE_VALUED_SLOTS))
    # A restatement asserts the same; anything else may replace ("Jan moved away, my partner is
    # now Mira" still names Jan). When the new one only adds, replacing loses nothing.
    replaced = old.asserted != new.asserted and not _same_figures(new, old)
    if not (flip or (cued and replaced)):
        return None
    found = (("cue", cued), ("polarity", flip), ("replaced", replaced))
    return tuple(r for r, present in found if present) + tuple(
        f"slot:{slot}" for slot in sorted(new.slots & old.slots)
    )


def _same_figures(new: Reading, old: Reading) -> bool:
    """Whether the new statement names figures, all of them the older one's: the same value
    said again ("passport's good till 2031" after "valid until 2031")."""
    return bool(new.figures) and new.figures <= old.figures and not any(
        voice.CALENDAR_WORD.match(word) for word in new.words - old.words)


def _score(new: Reading, old: Reading, cosine: float, is_fact: bool, referring: bool) -> float:
    shared = new.slots & old.slots
    single = len(shared & lexicon.SINGLE_VALUED_SLOTS)
    score = (_COSINE_WEIGHT * cosine + _SINGLE_SLOT_WEIGHT * single
             + _SLOT_WEIGHT * (len(shared) - single))
    # A shared name says more than a shared word ("Tanja" / "Tanja").
    score += 0.1 * min(len(shared_words(new, old)), 4) + 0.1 * len(new.names & old.names)
    score += 0.5 * is_fact + _SHAPE_WEIGHT * len(new.shapes & old.shapes)
    score += _HANDOVER_WEIGHT * (handed_on(new, old) or bool(new.old_value & old.stems))
    # What the user says of themselves replaces a relative's value last ("Ich bin nach Halle
    # gezogen": my Leipzig, not my sister's Halle), unless it ends the bond with them.
    score -= _HOLDER_WEIGHT * (new.holder == SELF and old.holder not in (None, SELF, OTHER)
                               and not partner_ended(new, old))
    return round(score - _REFERRING_PENALTY * referring, 4)



def _head(found: list[tuple[Candidate, SupersessionDecision]], read: dict[UUID, Reading],
          cued: dict[UUID, bool]) -> tuple[Candidate, SupersessionDecision]:
    """The best-matching decision, or a newer one about the same thing: a chain's current
    value is replaced, not the oldest ("moved to Cologne" after "I live in Bonn"): a newer
    candidate that itself replaced the best one is its head."""
    best_candidate, best = max(found, key=lambda pair: pair[1].score)
    if best_candidate.said_at is None:
        return best_candidate, best
    best_reading = read[best_candidate.id]
    newer = [
        (c, d) for c, d in found
        if c.said_at is not None and c.said_at > best_candidate.said_at
        and _reasons(read[c.id], best_reading, 1.0, (-1.0, 1.0), cued[c.id],
                     cued[best_candidate.id]) is not None
    ]
    return max(newer, key=lambda pair: pair[0].said_at or datetime.min) if newer else (
        best_candidate, best)


def _features(scene: Scene, fact_conflicts: Collection[UUID],
              replaced: Collection[UUID]) -> dict[UUID, dict[str, float]]:
    """The learned judge's features of each candidate that may be replaced."""
    pool = [c for c in scene.pool if may_replace(scene, c, replaced)]
    if not pool:
        return {}
    best = max(c.cosine for c in pool)
    newest = max((c.said_at for c in pool if c.said_at is not None), default=None)
    return {c.id: pair_features(scene.new, scene.read[c.id], PairContext(
        c.cosine, best, newest is not None and c.said_at == newest, scene.cued,
        scene.cued_by[c.id], c.id in fact_conflicts)) for c in pool}


def candidate_features(
    new_text: str, candidates: Sequence[tuple[UUID, str, float] | Candidate], *,
    fact_conflicts: Collection[UUID] = frozenset(), replaced: Collection[UUID] = frozenset(),
    said_at: datetime | None = None, cue_set: SupersessionCues = DEFAULT_CUES,
) -> dict[UUID, dict[str, float]]:
    """What the learned judge sees of each candidate (none when the statement replaces
    nothing: a question, a hedge, the distant past); bench/supersession_judge.py trains on it."""
    scene = scene_of(new_text, candidates, said_at, cue_set)
    return {} if scene is None else _features(scene, fact_conflicts, replaced)


def _learned(scene: Scene, judge: LearnedJudge, fact_conflicts: Collection[UUID],
             replaced: Collection[UUID]) -> list[SupersessionDecision]:
    """The candidate the learned judge finds most likely replaced, from its threshold."""
    scored = [(judge.probability(values), i, values)
              for i, values in _features(scene, fact_conflicts, replaced).items()]
    if not scored:
        return []
    probability, best, values = max(scored, key=lambda row: row[0])
    if probability < judge.threshold:
        return []
    kind = SupersessionKind.CONTRADICTION if values["flips"] else SupersessionKind.SUPERSEDES
    return [SupersessionDecision(best, kind, round(probability, 4), ("learned",))]


def _said_after(candidate: tuple[UUID, str, float] | Candidate, moment: datetime) -> bool:
    said = candidate.said_at if isinstance(candidate, Candidate) else None
    return said is not None and said > moment


def judge_supersession(
    new_text: str,
    candidates: Sequence[tuple[UUID, str, float] | Candidate],
    *,
    band: tuple[float, float] = DEFAULT_BAND,
    fact_conflicts: Collection[UUID] = frozenset(),
    replaced: Collection[UUID] = frozenset(),
    said_at: datetime | None = None,
    cue_set: SupersessionCues = DEFAULT_CUES,
    learned: LearnedJudge | None = None,
) -> list[SupersessionDecision]:
    """The older memory `new_text` replaces, if any: the best-matching one (a chain's current
    head), plus others only when their functional fact conflicts too.

    candidates: older memories the user said (id, text, cosine to the new one, said_at).
    fact_conflicts: ids whose functional fact (same subject and relation, another object)
    conflicts with one of `new_text`'s, from the facts module. replaced: ids already replaced
    by another memory (their marker), which are history. said_at: when `new_text` was said
    (a statement about a year long past replaces nothing, nor one said after it: an imported
    old chat does not undo what the user said since). learned: a learned judge that decides
    when the rules find nothing (their vetoes still hold).
    """
    if said_at is not None:
        candidates = [c for c in candidates if not _said_after(c, said_at)]
    scene = scene_of(new_text, candidates, said_at, cue_set)
    if scene is None:
        return []
    new, read, cued_by = scene.new, scene.read, scene.cued_by
    found: list[tuple[Candidate, SupersessionDecision]] = []
    for candidate in scene.pool:
        old = read[candidate.id]
        # A conflicting fact still needs the same holder ("my nephew Tim" is not "my son Tim").
        is_fact = candidate.id in fact_conflicts and holders_agree(new, old)
        if not may_replace(scene, candidate, replaced):
            continue
        reasons = _reasons(new, old, candidate.cosine, band, scene.cued, cued_by[candidate.id])
        if reasons is None and not is_fact:
            continue
        reasons = (*(reasons or ()), *(("fact",) if is_fact else ()))
        kind = (SupersessionKind.CONTRADICTION if "polarity" in reasons
                else SupersessionKind.SUPERSEDES)
        penalty = old.refers and not cued_by[candidate.id]
        decision = SupersessionDecision(
            candidate.id, kind, _score(new, old, candidate.cosine, is_fact, penalty), reasons)
        found.append((candidate, decision))
    if not found:
        return _learned(scene, learned, fact_conflicts, replaced) if learned else []
    _, best = _head(found, read, cued_by)
    return [best] + [d for _, d in found if d is not best and d.replaces in fact_conflicts]
