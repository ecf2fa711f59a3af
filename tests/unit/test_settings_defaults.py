"""Settings take each tuning default from the domain, and a value the domain refuses is one
line naming the setting; loading them pulls in no adapter."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from memlane.domain.errors import ConfigurationError
from memlane.domain.facts.profile import ProfileCaps
from memlane.domain.policy import DetailTuning, GraphTuning, MemoryPolicy, RecallTuning
from memlane.domain.retrieval.scoring import RelevanceWeights
from memlane.domain.similarity import (
    DEFAULT_EMBEDDING_MODEL,
    DEFAULT_SCALE,
    MINILM,
    MULTILINGUAL_E5,
    REFERENCE_MODEL,
    SCALES,
)
from memlane.ports.embedding import EmbeddingProvider
from memlane.ports.facts import ExtractionProvider
from memlane.settings import (
    DetailSettings,
    FactSettings,
    GraphSettings,
    MemorySettings,
    RecallSettings,
    RelevanceSettings,
    load_settings,
)

# The cosine lines: unset, each follows the configured embedding model (domain/similarity.py);
# the domain's defaults are the default model's.
MODEL_LINES = {
    "rag_threshold": "rag_threshold",
    "merge_threshold": "merge_threshold",
    "active_context_similarity": "active_context",
    "semantic_threshold": "semantic_threshold",
    "supersession_band": "supersession_band",
    "similarity": "relevance_similarity",
    "query_centring": "query_centring",
    "neighbour_floor": "unrelated",
}
# Each settings section beside the domain value it builds, and the domain's fields that are
# not settings (built from other sections, or fixed by the rules).
SECTIONS: list[tuple[type[BaseModel], Any, set[str]]] = [
    (RelevanceSettings, RelevanceWeights(), set()),
    # The model's offsets per pair of languages, and its cosine for an unrelated text (where
    # fusion by score counts a cosine from), come with its cosine lines, never set alone.
    (RecallSettings, RecallTuning(), {"language_offsets", "dense_floor"}),
    # The learned judge's weights are loaded by the composition root when
    # `graph.supersession_judge` is "learned"; they are no setting themselves.
    (GraphSettings, GraphTuning(), {"learned_judge"}),
    (FactSettings, ProfileCaps(), set()),
    (DetailSettings, DetailTuning(), set()),
    (MemorySettings, MemoryPolicy(),
     {"weights", "cues", "recall", "graph", "detail", "min_learn_chars"}),
]


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current directory without config.toml and no MEMLANE_* variables."""
    monkeypatch.chdir(tmp_path)
    for name in [n for n in os.environ if n.startswith("MEMLANE_")]:
        monkeypatch.delenv(name)
    return tmp_path


@pytest.mark.parametrize(("section", "domain", "not_settings"), SECTIONS,
                         ids=[s.__name__ for s, _, _ in SECTIONS])
def test_every_tuning_setting_defaults_to_the_domains_value(
    section: type[BaseModel], domain: Any, not_settings: set[str]
) -> None:
    shared = [f.name for f in dataclasses.fields(domain) if f.name not in not_settings]
    assert set(shared) <= set(section.model_fields), "a domain knob without its setting"
    for name in shared:
        default = section.model_fields[name].get_default(call_default_factory=True)
        if name in MODEL_LINES:
            assert default is None, f"{name} follows the model"
            assert getattr(domain, name) == getattr(DEFAULT_SCALE, MODEL_LINES[name]), name
        else:
            assert default == getattr(domain, name), name


def test_default_settings_build_the_domains_defaults_with_the_default_models_lines() -> None:
    # The domain's own defaults carry the reference model's lines (MiniLM's); settings carry
    # the configured model's, which by default is multilingual-e5-small.
    assert DEFAULT_SCALE == SCALES[REFERENCE_MODEL] == SCALES[MINILM]
    assert DEFAULT_EMBEDDING_MODEL == MULTILINGUAL_E5 == MemorySettings().embedding.model
    e5 = SCALES[MULTILINGUAL_E5]
    assert MemorySettings().policy() == replace(
        MemoryPolicy(), rag_threshold=e5.rag_threshold, merge_threshold=e5.merge_threshold,
        active_context_similarity=e5.active_context,
        weights=replace(RelevanceWeights(), similarity=e5.relevance_similarity),
        recall=replace(RecallTuning(), neighbour_floor=e5.unrelated, dense_floor=e5.unrelated,
                       language_offsets=e5.language_offsets,
                       query_centring=e5.query_centring))
    assert MemorySettings(embedding={"model": MINILM}).policy() == MemoryPolicy()
    assert GraphSettings().tuning() == GraphTuning()
    assert FactSettings().profile_caps() == ProfileCaps()


@pytest.mark.parametrize("model", [MINILM, MULTILINGUAL_E5])
def test_every_cosine_line_follows_the_configured_model(elsewhere: Path, model: str) -> None:
    scale = SCALES[model]
    policy = load_settings(memory={"embedding": {"model": model}}).policy()
    assert policy.rag_threshold == scale.rag_threshold
    assert policy.merge_threshold == scale.merge_threshold
    assert policy.active_context_similarity == scale.active_context
    assert policy.weights.similarity == scale.relevance_similarity
    assert policy.graph.semantic_threshold == scale.semantic_threshold
    assert policy.graph.supersession_band == scale.supersession_band
    assert policy.recall.neighbour_floor == scale.unrelated
    assert policy.recall.language_offsets == scale.language_offsets
    assert policy.recall.query_centring == scale.query_centring


def test_a_cosine_line_set_in_the_config_wins_over_the_models(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (elsewhere / "config.toml").write_text(
        "[memory]\nrag_threshold = 0.5\n[memory.embedding]\nmodel = 'multilingual-e5-small'\n"
        "[graph]\nsupersession_band = [0.6, 0.9]\n"
    )
    policy = load_settings().policy()
    assert policy.rag_threshold == 0.5
    assert policy.graph.supersession_band == (0.6, 0.9)
    assert policy.merge_threshold == SCALES[MULTILINGUAL_E5].merge_threshold


def test_the_neighbours_floor_set_wins_over_the_models(elsewhere: Path) -> None:
    (elsewhere / "config.toml").write_text(
        "[memory.recall]\nneighbour_floor = 0.5\n"
        "[memory.embedding]\nmodel = 'multilingual-e5-small'\n")
    assert load_settings().policy().recall.neighbour_floor == 0.5


def test_a_model_without_its_own_scale_gets_minilms_lines(elsewhere: Path) -> None:
    policy = load_settings(
        memory={"embedding": {"provider": "ollama", "model": "all-minilm"}}).policy()
    assert policy.rag_threshold == SCALES[MINILM].rag_threshold


@pytest.mark.parametrize("band", ["[0.9, 0.2]", "[-1.5, 0.5]", "[0.2, 1.01]"])
def test_a_bad_supersession_band_is_one_line_naming_the_setting(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch, band: str
) -> None:
    monkeypatch.setenv("MEMLANE_GRAPH__SUPERSESSION_BAND", band)
    with pytest.raises(ConfigurationError) as raised:
        load_settings()
    message = str(raised.value)
    assert message.startswith("setting graph.supersession_band: must be [low, high]")
    assert "\n" not in message


def test_a_bad_band_in_the_config_file_is_named_the_same_way(elsewhere: Path) -> None:
    (elsewhere / "config.toml").write_text("[graph]\nsupersession_band = [0.8, 0.4]\n")
    with pytest.raises(ConfigurationError, match=r"^setting graph\.supersession_band: "):
        load_settings()


def test_a_rule_across_two_settings_names_one_of_them(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMLANE_MEMORY__RECALL__DENSE_WEIGHT", "0")
    monkeypatch.setenv("MEMLANE_MEMORY__RECALL__LEXICAL_WEIGHT", "0")
    with pytest.raises(ConfigurationError, match=r"^setting memory\.recall\.lexical_weight: "):
        load_settings()


def test_a_section_rule_of_the_domain_is_told_in_its_own_words(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("SIMILARITY", "IMPORTANCE", "FRESHNESS"):
        monkeypatch.setenv(f"MEMLANE_MEMORY__RELEVANCE__{name}", "0")
    with pytest.raises(ConfigurationError) as raised:
        load_settings()
    assert str(raised.value) == (
        "setting memory.relevance: at least one relevance weight must be positive"
    )


def test_provider_names_are_read_into_their_enums(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert load_settings().memory.embedding.provider is EmbeddingProvider.ONNX
    assert load_settings().memory.extraction.provider is ExtractionProvider.HEURISTIC
    monkeypatch.setenv("MEMLANE_MEMORY__EMBEDDING__PROVIDER", "ollama")
    monkeypatch.setenv("MEMLANE_MEMORY__EXTRACTION__PROVIDER", "ollama")
    settings = load_settings()
    assert settings.memory.embedding.provider is EmbeddingProvider.OLLAMA
    assert settings.memory.extraction.provider is ExtractionProvider.OLLAMA


@pytest.mark.parametrize("variable", [
    "MEMLANE_MEMORY__EMBEDDING__PROVIDER", "MEMLANE_MEMORY__EXTRACTION__PROVIDER",
    "MEMLANE_FACTS__EXTRACTOR",
])
def test_an_unknown_provider_is_one_line_naming_the_setting(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.setenv(variable, "bogus")
    with pytest.raises(ConfigurationError) as raised:
        load_settings()
    dotted = variable.removeprefix("MEMLANE_").replace("__", ".").lower()
    assert str(raised.value).startswith(f"setting {dotted}: Input should be ")
    assert "ollama" in str(raised.value) and "\n" not in str(raised.value)


def test_loading_the_settings_imports_no_adapter_driver_or_model_runtime() -> None:
    heavy = ("memlane.adapters", "onnxruntime", "ollama", "httpx", "asyncpg")
    code = (
        "import sys, memlane.settings\n"
        f"print(sorted({{m.split('.')[0] if not m.startswith('memlane') else m "
        f"for m in sys.modules if m.startswith({heavy!r})}}))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "[]"


def test_the_older_fact_settings_still_name_the_model(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("MEMLANE_FACTS__EXTRACTOR", "ollama")
    monkeypatch.setenv("MEMLANE_FACTS__OLLAMA_URL", "http://10.0.0.2:11434")
    monkeypatch.setenv("MEMLANE_FACTS__TIMEOUT_MS", "900")
    monkeypatch.setenv("MEMLANE_MEMORY__EXTRACTION__MODEL", "qwen2.5")
    extraction = load_settings().memory.extraction
    assert (extraction.provider, extraction.url, extraction.model, extraction.timeout_ms) == (
        ExtractionProvider.OLLAMA, "http://10.0.0.2:11434", "qwen2.5", 900)
    assert "facts.extractor, facts.ollama_url, facts.timeout_ms: older names" in caplog.text


def test_an_older_fact_setting_that_disagrees_with_its_new_name_is_refused(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMLANE_FACTS__MODEL", "llama3.2")
    monkeypatch.setenv("MEMLANE_MEMORY__EXTRACTION__MODEL", "qwen2.5")
    with pytest.raises(ConfigurationError) as raised:
        load_settings()
    assert str(raised.value) == (
        "setting facts.model disagrees with memory.extraction.model: "
        "set memory.extraction.model only (facts.model is its older name)"
    )
