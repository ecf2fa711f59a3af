"""Whether two statements speak of the same thing for the same holder (supersession)."""

from __future__ import annotations

import re

from memlane.domain.graph import (
    supersession_cues as cues,
    supersession_lexicon as lexicon,
    supersession_people as people,
)
from memlane.domain.graph.supersession_reading import OTHER, SELF, Reading
from memlane.domain.graph.supersession_words import stem

# Partners a relationship's end is about: "Frank und ich haben uns scheiden lassen" after
# "Mein Mann heißt Frank".
# A third person's possessive: "her practice", "seine Firma".
_THEIR_OWN = re.compile(r"(?<!\w)(?:her|his|their|ihre?[mnrs]?|seine?[mnrs]?)(?!\w)",
                        re.IGNORECASE)
_RELATIVES_SLOTS = frozenset(("age", "education"))
_CHILDREN = frozenset(("son", "daughter", "sohn", "tochter", "kids", "children", "kinder",
                       "twins", "zwillinge", "baby"))
_PARTNERS = frozenset(("partner", "girlfriend", "boyfriend", "freundin", "freund", "fiancé",
                       "verlobte", "verlobter"))


def holders_agree(new: Reading, old: Reading) -> bool:
    """Whether both speak of the same holder, or one leaves it open."""
    # Another person's life ("He moved to York") is not the user's, nor the other way round.
    if SELF in (new.holder, old.holder) and (
            (new.third_person and old.holder == SELF) or (old.third_person and new.holder == SELF)):
        return False
    if new.holder == old.holder or new.holder is None:
        return True
    # What someone named did with their own thing ("das Daily vom Designteam wurde
    # verschoben") is theirs unless the older statement names them.
    if old.holder is None:
        new_name = people.name_of(new.holder)
        return not new_name or new_name in old.names | old.words or not new.possessed
    new_name, old_name = people.name_of(new.holder), people.name_of(old.holder)
    # Their own thing ("the design team's standup moved") is not the user's, unless the older
    # statement speaks of them.
    if new.possessed and new_name and new_name not in old.names | old.words:
        return False
    if (new_name or old_name) and OTHER not in (new.holder, old.holder):
        # Someone named: the same one when the other statement names them too ("Lena is
        # seven now" / "Lena is my youngest"), or acting on what it speaks of ("Rolf hat die
        # Fahrstunde auf Donnerstag gelegt"); "Oslo has changed" is not "I moved here".
        beyond_names = shared_words(new, old) - new.names - old.names
        # (A thing of someone named is not replaced by what the user did for them: "I bought
        # Anna a scarf" leaves "Anna's party is on Saturday".)
        return bool((new_name and new_name in old.names | old.words)
                    or (old_name and old_name in new.names | new.words
                        and (new.holder != SELF or beyond_names or new.slots & old.slots))
                    or beyond_names)
    # What the user said about themselves is not replaced by what a third party did with its
    # own things: "The bus company changed its logo" leaves "I take the bus" standing.
    # "His swimming is on Sunday now" after "I take my son to swimming": a person's thing,
    # said of someone the older statement names, is what it spoke of.
    if old.holder == SELF and new.holder == OTHER and new.theirs and old.people:
        return True
    if old.holder == SELF and new.holder == OTHER:
        return False
    # An age or school of a relative the user named: "Mein Sohn ist jetzt elf" / "Ich habe
    # einen zehnjährigen Sohn"; "The kids go to the local school now" / "We homeschool our
    # kids".
    # A child born to parents who were expecting: "Unsere Tochter ist zur Welt gekommen" /
    # "Wir erwarten ein Baby".
    if old.holder == SELF and "family" in new.slots & old.slots and new.holder in _CHILDREN:
        return True
    if old.holder == SELF and new.slots & old.slots & _RELATIVES_SLOTS:
        return new.holder in old.words or any(w.endswith(new.holder) for w in old.words)
    # "I have a new boss" can replace "my boss is Thomas"; "my sister moved" never replaces
    # "I live in Berlin".
    return new.holder == SELF and (old.holder in new.words or bool(new.stems & old.stems))


def shared_words(new: Reading, old: Reading) -> set[str]:
    """Stems both say, German compounds by their head ("Feier" is the "Geburtstagsfeier")
    or their stem ("Kündigungsfrist" is about "kündigen")."""
    compounds = {
        stem(short)
        for one, other in ((new.words, old.words), (old.words, new.words))
        for short in one
        if len(short) >= 4 and any(len(long) >= len(short) + 3 and long.endswith(short)
                                   for long in other)
    } | {
        short
        for one, other in ((new.stems, old.stems), (old.stems, new.stems))
        for short in one
        if len(short) >= 5 and any(len(long) >= len(short) + 4 and long.startswith(short)
                                   for long in other)
    }
    return set(new.stems & old.stems) | compounds


def _nickname(new: Reading, old: Reading) -> bool:
    """One name inside the other: "Liz" / "Elizabeth", "Kat" / "Katharina", "Dani" /
    "Daniel": the user (or someone) named anew."""
    return any(a != b and len(min(a, b, key=len)) >= 3
               and (a.startswith(b) or b.startswith(a) or a in b or b in a)
               for a in new.names for b in old.names)


def same_topic(new: Reading, old: Reading, old_is_change: bool = False) -> bool:
    """Whether both are about the same thing: a slot that holds one value, a kind of thing
    and its name, a repeated change, a provider, a nickname, or words said about it."""
    if new.slots & old.slots & lexicon.SINGLE_VALUED_SLOTS:
        return True
    # The old value named beside the new ("nicht auf der Alm, sondern im Shop").
    if new.old_value & old.stems:
        return True
    # What a waiting state waited for, arriving ("Hab endlich einen Therapieplatz" / "Ich bin
    # auf der Warteliste für eine Psychotherapie"; a first day at work after a job search).
    if old.pending and not new.pending and new.holder in (SELF, None) and (
            new.enters or new.slots & old.slots or shared_words(new, old)):
        return True
    if redone(new, old) or entered_there(new, old):
        return True
    # A new one of a thing the older statement has ("Neuer Perso" / "Mein Personalausweis").
    if renewal(new, old):
        return True
    # Someone's death ends all that was said of them.
    if new.died and new.holder == old.holder and new.holder not in (None, SELF, OTHER):
        return True
    # An end of a thing the older statement has ("I sold the Civic" / "I drive a Honda Civic",
    # "Pepe ist gestorben" / "ein Wellensittich namens Pepe"): the thing itself is shared,
    # whatever slots either names; not the name of someone acting ("Tom quit smoking").
    if new.ends and not old.negative and shared_words(new, old) - _acting(new):
        return True
    # The old value named beside the new one ("Bin zur Techniker gewechselt, die AOK war mir zu
    # teuer" / "Meine Krankenkasse ist die AOK"): a name both say that the new statement does
    # not go to ("moved to Lisbon" / "flights to Lisbon" share only where it goes).
    # (Not someone the user is with: "Hanna und ich sind zum HIIT gewechselt" / "Ich gehe
    # mit Hanna hin".)
    if new.holder == SELF and (new.names & old.names) - new.destinations - {new.subject} - (
            new.companions | old.companions):
        return True
    # Different attributes, whatever names they share ("Lena is my girlfriend" / "Lena works
    # as a doctor now").
    if new.strong_slots and old.strong_slots and not new.strong_slots & old.strong_slots:
        return False
    # A change said again follows the last change ("Pushed again" after "They pushed it to
    # May 15th"); a new provider replaces the old one ("bei der DKB" / "bei der Deutschen
    # Bank"); a bare number is the last quantity's new value ("jetzt nur noch 79").
    if (new.again and old_is_change) or _nickname(new, old) or (
            new.providers and old.providers and not new.providers & old.providers):
        return True
    if new.number_only and any(c.isdigit() for w in old.words for c in w):
        return True
    if partner_ended(new, old) or len(new.slots & old.slots) >= 2:
        return True
    # The same person of the user's, named anew: "our babysitter is Jana" / "...has been
    # Maya" (both name someone; "my son helps out" is another matter).
    if (new.holder == old.holder and new.holder not in (None, SELF, OTHER)
            and not people.name_of(new.holder) and new.names and old.names
            and not new.names & old.names):
        return True
    shared = shared_words(new, old)
    if new.slots & old.slots:  # the same kind of thing, named in both ("the standup")
        return bool(shared)
    # Else a shared subject alone is one entity's two facts ("Tom is our designer" / "Tom now
    # has a puppy"): what is said about it must be shared too. When either names a kind of
    # thing the other does not, one shared word is not enough: "I moved to Lisbon" does not
    # replace "I'm looking for flights to Lisbon", "Neuerdings fahre ich ins Büro" not "Das
    # Büro ist in der Altstadt".
    said = shared - {new.subject}
    return len(said) >= (2 if new.slots and old.slots else 1)


def _acting(new: Reading) -> set[str]:
    """The named one a statement is about, who ends something rather than being ended."""
    name = people.name_of(new.holder) if new.holder else None
    return {name, stem(name)} if name else set()


def renewal(new: Reading, old: Reading) -> bool:
    """Whether the new statement says a thing the older one has is new: the same stem, or
    one the start of the other ("perso" / "personalausweis")."""
    return any(len(min(a, b, key=len)) >= 4 and (a.startswith(b) or b.startswith(a))
               for a in new.renewed for b in old.stems)


def redone(new: Reading, old: Reading) -> bool:
    """Whether the new statement does again what the older one has ("We remortgaged" /
    "Our mortgage is ...", "re-registered the car"): a "re-" verb on the older one's word."""
    return any(len(w) > 6 and w.startswith("re") and any(
        len(b) >= 5 and stem(w.removeprefix("re").lstrip("-")).startswith(b) for b in old.stems)
        for w in new.words)


def entered_there(new: Reading, old: Reading) -> bool:
    """A new state entered where the older one's value is ("Qualified! newly minted associate
    at Pinsents" / "trainee solicitor at Pinsent Masons"): the same place, a new standing."""
    named_there = {stem(n) for n in old.names}
    return new.enters and bool(old.slots & lexicon.SINGLE_VALUED_SLOTS) and bool(
        shared_words(new, old) & named_there)


def handed_on(new: Reading, old: Reading) -> bool:
    """Whether the new statement says someone the older one names left the place it spoke
    of, and another took it ("Frau Kowalski ist in Rente, neuer Hausmeister ist Herr Demir")."""
    return bool(new.departed & (old.names | old.words))


def partner_ended(new: Reading, old: Reading) -> bool:
    """"Frank and I got divorced" after "my husband is Frank": the relationship with a
    partner the older statement named."""
    return ("relationship" in new.slots and old.holder in _PARTNERS | {"partner"}
            and bool(new.names & old.names))


def about_someone_named(new_text: str, old_text: str, new: Reading, old: Reading) -> bool:
    """Whether the new statement is about a person or place the older one names ("Nils has
    been growing a beard" after "My partner is called Nils"): then it says something about
    them, and what the user said about themselves stands. "Tanja and I are no longer
    together" is about the user too; "Tom quit, our new babysitter is Aylin" names a role."""
    name = people.named_subject(new_text)
    if name is None:
        return False
    named_in_old = name in old.names | old.words or re.search(
        rf"(?<=\S )(?:\w+ )*?{re.escape(name)}\b", old_text, re.IGNORECASE) is not None
    owned_role = re.search(rf"{people.POSSESSIVE} (?:new |neue[rn]? )?\w+", new_text,
                           re.IGNORECASE)
    # Unless both speak of the same attribute: "Isla turned ten" / "my daughter Isla is 9";
    # but what the named one does with their own ("Dr. Park moved her practice") is theirs.
    theirs = _THEIR_OWN.search(new_text) is not None and not (
        people.FIRST_PERSON_SUBJECT.search(new_text.casefold()))
    return named_in_old and owned_role is None and (theirs or not new.slots & old.slots)


def flips(new: Reading, old: Reading) -> bool:
    """A polarity flip on what the older statement asserted ("I love coffee" / "I don't drink
    coffee anymore"): not on a verb alone ("I never work on Sundays"), not a refinement."""
    if new.negative == old.negative or (new.negative and new.refines):
        return False
    return bool((new.stems & old.stems) - cues.COMMON_VERB_STEMS)
