"""A memory's metadata (Chvor, RMG decision 11): where it came from, how sure, how charged,
and which of the user's territories it belongs to."""

from __future__ import annotations

import math
import re

from memlane.domain.detail import Affect, MemoryDomain, Provenance, Traits

__all__ = ["Affect", "MemoryDomain", "Provenance", "Traits", "domain_evidence", "resonance",
           "traits_of", "with_arousal"]

# How sure memlane is of a memory, by where it came from (Chvor: a directly stated fact
# carries more confidence than an inference).
CONFIDENCE: dict[Provenance, float] = {
    Provenance.STATED: 1.0,
    Provenance.EXTRACTED: 0.8,
    # What the assistant said is what it was asked or answered, not what the user holds.
    Provenance.REPLIED: 0.5,
    Provenance.CONSOLIDATED: 0.8,
    Provenance.INFERRED: 0.5,
}

# Cue words of each territory, EN and DE, matched as whole words, case-blind (data, not
# code: the gate's domain shift reads them too). Personal is what none of them claims.
DOMAIN_CUES: dict[MemoryDomain, tuple[str, ...]] = {
    MemoryDomain.RELATIONSHIP: (
        "wife", "husband", "partner", "girlfriend", "boyfriend", "friend", "friends", "mom",
        "mum", "dad", "mother", "father", "sister", "brother", "family", "kids", "daughter",
        "son", "wedding", "married", "relationship", "dating", "parents", "grandma",
        "frau", "mann", "freund", "freundin", "freunde", "mutter", "vater", "mama", "papa",
        "schwester", "bruder", "familie", "kinder", "tochter", "sohn", "hochzeit",
        "verheiratet", "beziehung", "eltern", "oma", "opa",
    ),
    MemoryDomain.PROJECT: (
        "project", "deadline", "milestone", "launch", "release", "client", "customer",
        "team", "meeting", "roadmap", "sprint", "renovation", "budget", "proposal",
        "contract", "plan", "planning", "manager", "boss", "colleague", "thesis",
        "projekt", "frist", "kunde", "kunden", "besprechung", "meeting", "renovierung",
        "angebot", "vertrag", "chef", "kollege", "kollegin", "abgabe", "planung",
    ),
    MemoryDomain.TECHNICAL: (
        "code", "bug", "server", "database", "python", "api", "deploy", "install",
        "error", "config", "software", "laptop", "computer", "app", "script", "docker",
        "linux", "git", "postgres", "kubernetes", "compile", "library", "framework",
        "fehler", "datenbank", "installieren", "rechner", "programm", "absturz",
        "konfiguration", "bibliothek",
    ),
}
_WORDS = re.compile(r"\w+", re.UNICODE)
_CUE_DOMAIN = {cue: domain for domain, cues in DOMAIN_CUES.items() for cue in cues}


NEUTRAL = Affect(0.0, 0.0)


def domain_evidence(text: str) -> tuple[MemoryDomain, int]:
    """The territory whose cue words the text says most, and how many it says (0: none;
    the domain is then personal). Ties go to the territory named first in DOMAIN_CUES."""
    counts = dict.fromkeys(DOMAIN_CUES, 0)
    for word in _WORDS.findall(text.casefold()):
        domain = _CUE_DOMAIN.get(word)
        if domain is not None:
            counts[domain] += 1
    best = max(counts, key=lambda d: counts[d])
    return (best, counts[best]) if counts[best] else (MemoryDomain.PERSONAL, 0)


def traits_of(
    text: str, provenance: Provenance, affect: Affect | None, cluster: bool = False
) -> Traits:
    """A new memory's traits: confidence by provenance, domain by cue words."""
    return Traits(provenance, CONFIDENCE[provenance], affect, domain_evidence(text)[0], cluster)


def with_arousal(base_importance: float, affect: Affect | None, gain: float) -> float:
    """A charged memory starts more important (Chvor): + gain x arousal, kept in the
    heuristics' range [0.2, 0.9] (never lowered)."""
    if affect is None or gain <= 0:
        return base_importance
    return max(base_importance, min(0.9, base_importance + gain * affect.arousal))


def resonance(query: Affect | None, memory: Affect | None) -> float:
    """How well a memory's charge answers the question's, in [0, 1]: its arousal, times how
    close the two valences are (Chvor's emotional-resonance term). 0 without either."""
    if query is None or memory is None:
        return 0.0
    closeness = 1.0 - abs(query.valence - memory.valence) / 2.0
    return memory.arousal * closeness if math.isfinite(closeness) else 0.0
