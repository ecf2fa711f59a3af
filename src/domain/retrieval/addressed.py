"""Questions about what the assistant itself said before ("which sealant did you recommend?")."""

from __future__ import annotations

import re

# Past tense only: "what did you recommend" and "you mentioned" ask what was said, where
# "can you recommend" and "what do you think" ask for new advice, which the user's own
# statements inform as much as any earlier reply.
_SAID_EN = (
    r"recommended|mentioned|said|gave|suggested|told|listed|provided|shared|explained|"
    r"described|outlined|wrote|proposed|came up with|pointed out|advised"
)
_SAID_DE = (
    r"empfohlen|erwähnt|gesagt|vorgeschlagen|genannt|erklärt|geschrieben|gegeben|"
    r"aufgelistet|beschrieben|geraten"
)
_CUES = re.compile(
    rf"\byou(?: (?:had|have|just))? (?:{_SAID_EN})\b"
    rf"|\bdid you (?:recommend|mention|say|give|suggest|tell|list|provide|share|explain|"
    r"describe|outline|write|propose|come up with|point out|advise)\b"
    r"|\byour (?:recommendations?|suggestions?|advice|answer|response|explanation|list)\b"
    r"|\bour (?:previous|last|earlier|past) (?:conversation|chat|discussion|exchange)\b"
    r"|\bremind me\b.*\byou\b"
    rf"|\b(?:du|sie) hast (?:mir |uns )?(?:\w+ ){{0,4}}(?:{_SAID_DE})\b"
    rf"|\b(?:hast du|haben sie) (?:mir |uns )?(?:\w+ ){{0,4}}(?:{_SAID_DE})\b"
    rf"|\bsie haben (?:mir |uns )(?:\w+ ){{0,4}}(?:{_SAID_DE})\b"
    r"|\b(?:deine|ihre) (?:empfehlung|antwort|erklärung|liste)\b|\bdein(?:en)? (?:vorschlag|rat)\b"
    r"|\bunser(?:em|en|er)? (?:letzten|vorherigen|früheren|letzter|vorheriger) "
    r"(?:gespräch|chat|unterhaltung)\b",
    re.IGNORECASE,
)


def asks_about_replies(question: str) -> bool:
    """Whether the question asks what the assistant itself said before (EN, DE).

    The assistant's words alone weigh `reply_weight` of their match (scoring.reply_share)
    because a reply echoes the question it answers; a question about the reply itself is
    the one case where that echo is the evidence.
    """
    return _CUES.search(question) is not None
