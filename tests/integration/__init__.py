"""Integration tests on real PostgreSQL + pgvector and the real ONNX model."""
