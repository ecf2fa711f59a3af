"""Compact English and German stop-word lists: words too common to tell memories apart."""

from __future__ import annotations

# Function words only. Negations ("no", "not", "never") and personal anchors
# ("home", "work") stay searchable: "I do not eat meat" must still match "meat".
_ENGLISH = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself of off on once only or other ought
    our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your
    yours yourself yourselves also s t d ll m re ve
    i'm i've i'd i'll you're you've you'd you'll he's she's it's we're we've we'd we'll
    they're they've they'd they'll that's there's here's what's who's let's
"""
ENGLISH_STOP_WORDS: frozenset[str] = frozenset(_ENGLISH.split())

# German function words, for users who write German on the default (English) keywords: without
# them "Was arbeite ich?" matched every memory holding "ich" and outranked the answer written
# in English (bench/german.py). Words that are also English content words stay out of the list
# ("die", "war", "man", "hat", "bin", "den", "dies", "kind", "also"), and negations ("nicht",
# "kein") stay searchable as in English.
_GERMAN = """
    ich du er sie es wir ihr mich mir dich dir sich uns euch ihm ihn ihnen
    mein meine meinem meinen meiner meines dein deine deinem deinen deiner deines
    sein seine seinem seinen seiner seines ihre ihrem ihren ihrer ihres unser unsere
    unserem unseren unserer euer eure
    ist sind bist seid waren gewesen habe hast haben habt hatte hatten werde wirst wird
    werden wurde wurden kann kannst können muss musst müssen soll sollen
    der das dem des ein eine einem einen einer eines
    und oder aber denn weil dass wenn als ob
    mit von zu zum zur auf für bei aus nach über unter vor im ins vom beim um bis durch gegen
    ohne
    wie wo wer wann warum welche welcher welches welchen welchem wohin woher
    auch noch schon sehr nur doch ja mal dann dort hier
"""
GERMAN_STOP_WORDS: frozenset[str] = frozenset(_GERMAN.split())
