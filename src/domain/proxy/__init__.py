"""The memory proxy's rules (OpenAI chat completions in, memory out): pure, no I/O."""
