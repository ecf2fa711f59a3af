"""Facts (seed 004): the model, extraction patterns per language, the ledger, profile, topics."""
