"""What makes text storable: no NUL characters, and something visible to remember."""

from __future__ import annotations

import unicodedata

NUL = "\x00"
# Letters and symbols that render as nothing although Unicode does not call them spaces
# or format characters: fillers of Hangul, the blank Braille pattern, the Khmer vowel
# inherents, the Mongolian vowel separator.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")
# Categories with no visible glyph of their own: controls, format characters (zero-width
# space, joiners, BOM, bidi marks, soft hyphen), separators, unassigned and private code
# points' surrogates. A combining mark alone (Mn, Me) has nothing to combine with.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})


def has_nul(text: str) -> bool:
    """Whether `text` holds a NUL, which PostgreSQL text and jsonb cannot store."""
    return NUL in text


def is_blank(text: str) -> bool:
    """Whether `text` shows nothing: empty, or only whitespace and invisible characters."""
    return all(
        ch.isspace() or ch in _INVISIBLE or unicodedata.category(ch) in _INVISIBLE_CATEGORIES
        for ch in text
    )


def clipped(text: str, limit_chars: int) -> str:
    """`text` cut to `limit_chars` (with an ellipsis), for quoting input back safely."""
    if len(text) <= limit_chars:
        return text
    return text[: max(0, limit_chars - 1)] + "…"
