"""Embedding adapters: local ONNX models (all-MiniLM-L6-v2, multilingual-e5-small) and Ollama."""
