"""Domain errors: each maps to one clear outcome at the edge (HTTP status, CLI exit code)."""

from __future__ import annotations


class MemlaneError(Exception):
    """Base of every error memlane raises on purpose."""


class MemoryNotFound(MemlaneError):
    """No memory with that id for this tenant and user (another user's memory is 'not found')."""

    def __init__(self, memory_id: object) -> None:
        super().__init__(f"memory {memory_id} not found")
        self.memory_id = memory_id


class InvalidMemory(MemlaneError):
    """Input that breaks a rule of the domain: empty content, importance outside [0, 1], ..."""


class StorageUnavailable(MemlaneError):
    """The database cannot be reached right now; the caller may retry."""


class EmbeddingUnavailable(MemlaneError):
    """The embedding model or server is down or misconfigured."""


class EmbeddingDimensionMismatch(MemlaneError):
    """The model's vectors do not fit the database column; `memlane reembed` fixes it."""


class EmbeddingModelMismatch(MemlaneError):
    """Stored vectors come from another model than the configured one (a space of their
    own, whatever their dimension); `memlane reembed` moves them over."""


class DecryptionFailed(MemlaneError):
    """A ciphertext did not authenticate: wrong key, tampering, or copied from another row."""


class MemoryUnreadable(MemlaneError):
    """The owner's memory exists but its ciphertext does not open (a damaged row): it is left
    out of lists, search, context and export; `memlane verify` finds and quarantines it."""

    def __init__(self, memory_id: object) -> None:
        super().__init__(f"memory {memory_id} cannot be decrypted")
        self.memory_id = memory_id


class WrongEncryptionKey(MemlaneError):
    """The key file does not match the fingerprint stored with the data."""


class ConfigurationError(MemlaneError):
    """A setting is missing or inconsistent."""


class InvalidTuning(ValueError):
    """A tuning value that breaks a rule of the domain (a band upside down, a negative
    count). `setting` names the field, so the settings can say which one in a line."""

    def __init__(self, setting: str, problem: str) -> None:
        super().__init__(f"{setting} {problem}")
        self.setting = setting
        self.problem = problem
