"""Embedding adapters: local ONNX MiniLM and Ollama."""
