"""System tests: the composed stack (container, real PostgreSQL, ONNX, encryption)."""
