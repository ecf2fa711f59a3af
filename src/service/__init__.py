"""Use cases orchestrating the ports: remember, recall, decay, cleanup."""
