"""Encryption adapters: XChaCha20-Poly1305 and a no-op."""
