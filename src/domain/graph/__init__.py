"""The memory graph's rules: edges, activation, supersession, semantic, causal, temporal links."""
