"""Portability use cases: an owner's export and import, chat imports."""
