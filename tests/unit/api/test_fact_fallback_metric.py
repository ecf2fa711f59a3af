"""The optional fact extractor's fallbacks land in the API's metrics, by reason."""

from __future__ import annotations

from memlane.api.metrics import ApiMetrics


def test_fact_extraction_fallbacks_are_counted_by_reason() -> None:
    metrics = ApiMetrics()
    metrics.fact_fallback("timeout")
    metrics.fact_fallback("timeout")
    metrics.fact_fallback("invalid")
    text = metrics.exposition().decode()
    assert 'memlane_fact_extraction_fallbacks_total{reason="timeout"} 2.0' in text
    assert 'memlane_fact_extraction_fallbacks_total{reason="invalid"} 1.0' in text
